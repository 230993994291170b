"""Who may open a federation page: ``federation_organiser_page`` wraps a view.

What it does: it wraps ``view(request, federation)``; an anonymous visitor is sent to the login
page; a federation that does not exist is a 404; a signed-in user who is not one of its
organisers (``federations.permissions.is_organiser``: another federation's organisers included)
gets 403.

What it does not do: decide the policy (``federations.permissions``) or write anything.
"""

from __future__ import annotations

from functools import wraps

from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied

from federations import selectors
from federations.permissions import is_organiser


def federation_organiser_page(view):
    @wraps(view)
    def wrapper(request, slug, *args, **kwargs):
        if not request.user.is_authenticated:
            return redirect_to_login(request.get_full_path())
        federation = selectors.get_federation(slug=slug)
        if not is_organiser(request.user, federation):
            raise PermissionDenied("Only the federation's organisers may open this page.")
        return view(request, federation, *args, **kwargs)

    return wrapper
