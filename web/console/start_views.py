"""The first club from the pages: sign up, create a club, and the club's settings in the console.

What it does: ``signup`` makes an account with the account API's own input check
(``accounts.serializers.RegisterInput``) and service (``accounts.services.register_user``:
a free username, Django's password validators, e-mail optional), throttled by the same limit
and counter as ``POST /api/auth/register/`` (DRF's ``ScopedRateThrottle``, scope ``register``),
(429 with ``Retry-After`` beyond it, as the API), then logs the new account in through
``django.contrib.auth.authenticate`` (django-axes counts and
locks out as for any login). ``club_new`` creates a club through ``clubs.inputs.ClubInput``
and ``clubs.services.create_club`` — exactly what ``POST /api/clubs/`` does — and opens its
console on the first night's checklist. ``club_settings`` (organisers) changes the club through
``ClubInput(partial=True)`` and ``clubs.services.update_club``, as ``PATCH /api/clubs/{slug}/``.
A refusal is shown beside the field its pointer names (``access.ProblemShown``), the page
answering with the problem's status; nothing is stored.

What it does not do: check anything itself (the serializers and services do) or set house rules
(the house-rules page does).
"""

from __future__ import annotations

import math
import zoneinfo
from functools import cache

from django.contrib import messages
from django.contrib.auth import authenticate, login
from django.contrib.auth.password_validation import password_validators_help_text_html
from django.contrib.auth.views import redirect_to_login
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.text import slugify
from django.utils.translation import gettext, ngettext
from django.views.decorators.http import require_http_methods
from rest_framework import serializers
from rest_framework.throttling import ScopedRateThrottle

from accounts import services as account_services
from accounts.lockout import lockout_response
from accounts.serializers import RegisterInput
from clubs import services as club_services
from clubs.inputs import ClubInput
from clubs.models import CURRENCY_CHOICES, GAME_CHOICES
from config.problems import Problem, flatten_validation_detail
from web.console.access import ProblemShown, organiser_page
from web.pages import labels as page_labels

# What a new club starts with on the form (the organiser changes any of them).
CLUB_INITIAL = {"currency": "EUR", "time_zone": "Europe/Dublin", "default_game": "45"}
SETTINGS_FIELDS = (
    "name",
    "slug",
    "currency",
    "time_zone",
    "public_standings",
    "confirm_hands",
    "require_two_factor",
)
CHECKBOXES = ("public_standings", "confirm_hands", "require_two_factor")


def _checked(serializer_class, data: dict, *, partial: bool = False) -> dict:
    """``data`` checked by an API input serializer; its refusals as one ``Problem`` (400) with
    a pointer per field, as the API answers them."""
    serializer = serializer_class(data=data, partial=partial)
    try:
        serializer.is_valid(raise_exception=True)
    except serializers.ValidationError as error:
        errors = flatten_validation_detail(error.detail)
        raise Problem(
            code="invalid",
            errors=errors,
            detail=errors[0]["detail"] if len(errors) == 1 else f"{len(errors)} errors.",
        ) from error
    return serializer.validated_data


class _SignupThrottle(ScopedRateThrottle):
    """The API's sign-up limit (``DEFAULT_THROTTLE_RATES["register"]``), same counter per
    address: signing up from the page or from the API counts against one limit."""

    def allow(self, request) -> bool:
        return self.allow_request(request, _SignupScope)


class _SignupScope:
    throttle_scope = "register"


def _next_page(request, default: str) -> str:
    target = request.POST.get("next") or request.GET.get("next") or ""
    if target and url_has_allowed_host_and_scheme(
        target, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        return target
    return default


@require_http_methods(["GET", "HEAD", "POST"])
def signup(request):
    if request.user.is_authenticated and request.method != "POST":
        return redirect(_next_page(request, reverse("console:club-new")))
    problem = None
    retry_after = None
    values = {"username": "", "email": ""}
    if request.method == "POST":
        values = {
            "username": request.POST.get("username", ""),
            "email": request.POST.get("email", ""),
        }
        throttle = _SignupThrottle()
        try:
            if not throttle.allow(request):
                retry_after = max(1, math.ceil(throttle.wait() or 60))
                minutes = max(1, math.ceil(retry_after / 60))
                raise Problem(
                    code="throttled",
                    pointer="",
                    detail=ngettext(
                        "Too many sign-ups from here. Try again in %(minutes)s minute.",
                        "Too many sign-ups from here. Try again in %(minutes)s minutes.",
                        minutes,
                    )
                    % {"minutes": minutes},
                )
            data = _checked(RegisterInput, {**values, "password": request.POST.get("password", "")})
            account_services.register_user(**data)
        except Problem as error:
            problem = ProblemShown(error)
        else:
            # A login as any other: django-axes sees it (and would refuse a locked-out pair).
            user = authenticate(request, username=data["username"], password=data["password"])
            if getattr(request, "axes_locked_out", False):
                return lockout_response(request)
            if user is None:  # not expected: the account was just made; the login page then
                return redirect_to_login(_next_page(request, reverse("console:club-new")))
            login(request, user)
            messages.success(
                request,
                gettext("Welcome, %(name)s: your account is ready.")
                % {"name": user.get_username()},
            )
            if user.email:
                messages.info(
                    request,
                    gettext("Follow the link we sent to %(email)s to get your results by e-mail.")
                    % {"email": user.email},
                )
            return redirect(_next_page(request, reverse("console:club-new")))
    context = {
        "values": values,
        "problem": problem,
        # The validators' own words (the ones register_user applies).
        "password_help": password_validators_help_text_html(),
        "next": request.POST.get("next") or request.GET.get("next") or "",
    }
    response = render(
        request, "console/signup.html", context, status=problem.status if problem else 200
    )
    if problem is not None and problem.status == 429 and retry_after:
        response["Retry-After"] = str(retry_after)
    return response


def _club_data(post, fields) -> dict:
    """The posted club fields as the API's input takes them; an unticked box is ``False``."""
    data = {}
    for field in fields:
        if field in CHECKBOXES:
            data[field] = field in post
        else:
            data[field] = post.get(field, "").strip()
    return data


@cache
def _time_zones() -> list[str]:
    return sorted(zoneinfo.available_timezones())


def _form_context(values: dict) -> dict:
    return {
        "values": values,
        "currencies": [code for code, _ in CURRENCY_CHOICES],
        "time_zones": _time_zones(),
        "games": [(code, page_labels.game_name(code)) for code, _ in GAME_CHOICES],
    }


@require_http_methods(["GET", "HEAD", "POST"])
def club_new(request):
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    problem = None
    values = dict(CLUB_INITIAL)
    if request.method == "POST":
        values = _club_data(request.POST, (*SETTINGS_FIELDS, "default_game"))
        if not values["slug"]:
            # The slug the page suggests from the name (its script does the same as you type).
            values["slug"] = slugify(values["name"])[:50].strip("-")
        try:
            club = club_services.create_club(user=request.user, **_checked(ClubInput, values))
        except Problem as error:
            problem = ProblemShown(error)
        else:
            messages.success(
                request,
                gettext("%(club)s is ready: here is what a first night needs.")
                % {"club": club.name},
            )
            return redirect("console:home", club.slug)
    context = {**_form_context(values), "problem": problem}
    return render(
        request, "console/club_new.html", context, status=problem.status if problem else 200
    )


@require_http_methods(["GET", "HEAD", "POST"])
@organiser_page
def club_settings(request, club):
    problem = None
    values = {field: getattr(club, field) for field in SETTINGS_FIELDS}
    if request.method == "POST":
        values = _club_data(request.POST, SETTINGS_FIELDS)
        try:
            club = club_services.update_club(club=club, **_checked(ClubInput, values, partial=True))
        except Problem as error:
            problem = ProblemShown(error)
            club.refresh_from_db()  # the layout's links keep the stored slug and name
        else:
            messages.success(request, gettext("The club's settings are saved."))
            return redirect("console:settings", club.slug)
    context = {**_form_context(values), "club": club, "problem": problem}
    return render(
        request, "console/settings.html", context, status=problem.status if problem else 200
    )
