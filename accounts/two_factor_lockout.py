"""Wrong two-factor codes count as wrong passwords: the same django-axes lockout.

What it does: ``locked_out`` says whether the (account, address) pair is locked out now, before
a code is even checked; ``count_wrong_code`` records a wrong code as django-axes records a wrong
password (Django's ``user_login_failed`` signal, which axes hears) and says whether that failure
locked the pair out. After ``AXES_FAILURE_LIMIT`` failures — passwords and codes together — the
answer is ``accounts.lockout.lockout_response`` (429 ``locked_out`` with ``Retry-After``);
django-axes' middleware swaps it in for the page's or the API's response.

What it does not do: check codes (``accounts.two_factor``) or decide the limits (AXES_* settings).

Terms: *credentials*: ``{"username": ...}``, what django-axes keys its failures on with the
client's address.
"""

from __future__ import annotations

from django.contrib.auth.signals import user_login_failed
from django.http import HttpRequest


def _credentials(user) -> dict:
    return {"username": user.get_username()}


def locked_out(request: HttpRequest, user) -> bool:
    from axes.handlers.proxy import AxesProxyHandler

    locked = AxesProxyHandler.is_locked(request, credentials=_credentials(user))
    if locked:
        request.axes_locked_out = True
        request.axes_credentials = _credentials(user)
    return locked


def count_wrong_code(request: HttpRequest, user) -> bool:
    """Record a wrong code for ``user`` from this client; True when it locked the pair out."""
    user_login_failed.send(sender=__name__, credentials=_credentials(user), request=request)
    return bool(getattr(request, "axes_locked_out", False))
