"""The home page: what Jink is, links to the API docs, the admin and the login, and the clubs
whose standings are public (GET and HEAD only).

What it does not do: anything about a club beyond listing it (``web.pages.clubs`` shows a club).
"""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_safe

from clubs.models import Club


def _public_clubs() -> list[Club]:
    return list(Club.objects.filter(public_standings=True).order_by("name")[:50])


@require_safe
def home(request: HttpRequest) -> HttpResponse:
    return render(request, "home.html", {"public_clubs": _public_clubs()})
