"""The sign-in pages with a second factor, and the page that sets it up or turns it off.

What it does: ``SignInView`` is Django's login page (``/accounts/login/``) with one change: a
right password for an account with a second factor does not sign in yet — the account waits in
the session (signed, ``two_factor.CHALLENGE_SECONDS``) and the browser goes to ``sign_in_code``,
which asks for the authenticator's code or a recovery code, then signs in with the session marked
verified (django-otp). An account that must have a second factor and has none (staff, an
organiser of a club that requires it: ``two_factor.needs_second_factor``) is signed in and sent
to ``two_factor_page`` before anything else. ``two_factor_page`` (``/accounts/two-factor/``)
sets one up (a QR code and the secret, confirmed by a first code; the recovery codes are shown
once), confirms an unverified session with a code, makes new recovery codes, or turns it off.
Every wrong code counts as a failed login (``accounts.two_factor_lockout``); once locked out the
answer is the lockout page (429).

What it does not do: decide who needs a second factor or check codes (``accounts.two_factor``),
guard the console or the admin (``web.console.access``, ``accounts.two_factor_middleware``).
"""

from __future__ import annotations

import segno
from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth import login as auth_login
from django.contrib.auth.decorators import login_required
from django.contrib.auth.views import LoginView
from django.core import signing
from django.http import HttpResponseRedirect
from django.shortcuts import redirect, render, resolve_url
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme, urlencode
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_http_methods
from django_otp import login as otp_login

from accounts import two_factor, two_factor_lockout
from accounts.lockout import lockout_response
from config.problems import Problem

PENDING_KEY = "two_factor_pending"
PENDING_SALT = "web.two_factor_pages.pending"


def safe_next(request, default: str | None = None) -> str:
    target = request.POST.get("next") or request.GET.get("next") or ""
    if target and url_has_allowed_host_and_scheme(
        target, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        return target
    return default or resolve_url(settings.LOGIN_REDIRECT_URL)


def with_next(url_name: str, next_url: str) -> str:
    return f"{reverse(url_name)}?{urlencode({'next': next_url})}"


class SignInView(LoginView):
    def form_valid(self, form):
        user = form.get_user()
        next_url = self.get_success_url()
        if two_factor.has_second_factor(user):
            self.request.session[PENDING_KEY] = signing.dumps(user.pk, salt=PENDING_SALT)
            return HttpResponseRedirect(with_next("login-code", next_url))
        auth_login(self.request, user)
        if two_factor.needs_second_factor(user):
            return HttpResponseRedirect(with_next("two-factor", next_url))
        return HttpResponseRedirect(next_url)


def _pending_user(request):
    value = request.session.get(PENDING_KEY)
    if not value:
        return None
    try:
        user_id = signing.loads(value, salt=PENDING_SALT, max_age=two_factor.CHALLENGE_SECONDS)
    except signing.BadSignature:
        return None
    return get_user_model().objects.filter(pk=user_id, is_active=True).first()


def _count_if_wrong(request, user, problem: Problem) -> None:
    """A wrong code counts as a failed login (django-axes' middleware answers the lockout)."""
    if problem.code == "invalid_code":
        two_factor_lockout.count_wrong_code(request, user)


@never_cache
@require_http_methods(["GET", "HEAD", "POST"])
def sign_in_code(request):
    user = _pending_user(request)
    next_url = safe_next(request)
    if user is None:
        return redirect(with_next("login", next_url))
    context = {"next": next_url, "problem": None}
    if request.method == "POST":
        if two_factor_lockout.locked_out(request, user):
            return lockout_response(request)
        try:
            device = two_factor.check_code(user, request.POST.get("code", ""))
        except Problem as problem:
            _count_if_wrong(request, user, problem)
            context["problem"] = problem.detail
            return render(request, "registration/login_code.html", context, status=400)
        del request.session[PENDING_KEY]
        auth_login(request, user, backend=settings.AUTHENTICATION_BACKENDS[-1])
        otp_login(request, device)
        return redirect(next_url)
    return render(request, "registration/login_code.html", context)


def _keep(request) -> dict:
    return {"keep_session_key": request.session.session_key}


def _qr(device) -> str:
    code = segno.make(device.config_url, error="m", micro=False)
    return code.svg_inline(scale=4, dark="#111111", light="#ffffff", title="QR code", border=2)


def _secret(device) -> str:
    from base64 import b32encode

    text = b32encode(device.bin_key).decode()
    return " ".join(text[index : index + 4] for index in range(0, len(text), 4))


@never_cache
@login_required
@require_http_methods(["GET", "HEAD", "POST"])
def two_factor_page(request):
    user = request.user
    next_url = safe_next(request, reverse("two-factor"))
    action = request.POST.get("action", "") if request.method == "POST" else ""
    status = 200
    context = {
        "next": next_url,
        "problem": None,
        "required": two_factor.needs_second_factor(user),
        "recovery_codes": None,
    }
    if action:
        if two_factor_lockout.locked_out(request, user):
            return lockout_response(request)
        code = request.POST.get("code", "")
        try:
            if action == "confirm":
                device, codes = two_factor.confirm_set_up(user, code, **_keep(request))
                otp_login(request, device)
                context["recovery_codes"] = codes
            elif action == "verify":
                otp_login(request, two_factor.check_code(user, code))
                return redirect(next_url)
            elif action == "new_codes":
                context["recovery_codes"] = two_factor.new_recovery_codes(user, code)
            elif action == "turn_off":
                two_factor.turn_off(user, code, **_keep(request))
                return redirect(reverse("two-factor"))
        except Problem as problem:
            _count_if_wrong(request, user, problem)
            context["problem"] = problem.detail
            status = problem.status_code
    on = two_factor.has_second_factor(user)
    context["on"] = on
    if on:
        context["verified"] = two_factor.is_verified(user)
        context["codes_left"] = two_factor.recovery_codes_left(user)
    else:
        device = two_factor.start_set_up(user)
        context["qr"] = _qr(device)
        context["secret"] = _secret(device)
    return render(request, "registration/two_factor.html", context, status=status)
