"""What a locked-out login attempt gets back (django-axes' AXES_LOCKOUT_CALLABLE).

What it does: after too many failed logins from one address for one username, django-axes
refuses further attempts for a cool-off period. Under ``/api/`` the refusal is a 429 problem
document with code ``locked_out`` and a ``Retry-After`` header; elsewhere (the login page, the
admin) it is a 429 page saying when to try again.

What it does not do: count failures or decide the limits (django-axes and the AXES_* settings).
"""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import ngettext

from config.problem_codes import problem_status
from config.problems import Problem, problem_json_response

LOCKED_OUT_STATUS = problem_status("locked_out")  # the page answers as the problem does


def cool_off_seconds(request: HttpRequest) -> int:
    from axes.helpers import get_cool_off

    cool_off = get_cool_off(request)
    return int(cool_off.total_seconds()) if cool_off else 0


def locked_out_detail(seconds: int) -> str:
    minutes = max(1, (seconds + 59) // 60)
    return ngettext(
        "Too many failed logins. Try again in %(minutes)s minute.",
        "Too many failed logins. Try again in %(minutes)s minutes.",
        minutes,
    ) % {"minutes": minutes}


def lockout_response(
    request: HttpRequest, original_response=None, credentials=None
) -> HttpResponse:
    seconds = cool_off_seconds(request)
    detail = locked_out_detail(seconds)
    if request.path.startswith("/api/"):
        response: HttpResponse = problem_json_response(Problem(code="locked_out", detail=detail))
    else:
        response = render(
            request,
            "registration/locked_out.html",
            {"detail": detail, "status": LOCKED_OUT_STATUS},
            status=LOCKED_OUT_STATUS,
        )
    if seconds:
        response["Retry-After"] = str(seconds)
    return response
