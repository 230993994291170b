"""Staff reach the admin only from a session signed in with a second factor.

What it does: under the admin's path, a signed-in staff account whose session is not verified
(django-otp's ``request.user.is_verified()``: no code at sign-in, or no second factor yet) is
sent to the two-factor page (``web.two_factor_pages``), which sets one up or asks for a
code, and comes back. So a password typed on the admin's own login page is never enough: the
code is asked next.

What it does not do: guard the console (``web.console.access``) or the API
(``clubs.permissions``), or check codes.
"""

from __future__ import annotations

from django.shortcuts import redirect
from django.urls import NoReverseMatch, reverse
from django.utils.http import urlencode


class AdminSecondFactorMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        try:
            admin_root = reverse("admin:index")
        except NoReverseMatch:  # a URLconf without the admin (a test's own): nothing to guard
            return self.get_response(request)
        if request.path.startswith(admin_root):
            user = request.user
            if user.is_authenticated and user.is_staff and not user.is_verified():
                return redirect(
                    f"{reverse('two-factor')}?{urlencode({'next': request.get_full_path()})}"
                )
        return self.get_response(request)
