"""The page that refuses a client who tried too many wrong codes (``table_links.guessing``).

What it does: ``too_many_guesses(request, wait)`` answers 429 with ``Retry-After`` (seconds) and
``Cache-Control: no-store``, rendering ``template`` with the wait in whole minutes (at least one)
and the limit (``guesses``). The score pad's, the hall screen's and the door's pages share it;
each names its own words (template).

What it does not do: count or decide (``table_links.guessing`` does).
"""

from __future__ import annotations

import math

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render


def too_many_guesses(
    request: HttpRequest, wait: int, template: str = "scorepad/too_many_guesses.html"
) -> HttpResponse:
    response = render(
        request,
        template,
        {"minutes": max(1, math.ceil(wait / 60)), "guesses": settings.TABLE_CODE_GUESSES},
        status=429,
    )
    response["Retry-After"] = str(wait)
    response["Cache-Control"] = "no-store"
    return response
