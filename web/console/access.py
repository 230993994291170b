"""Who may open the console, and how a service's problem is shown next to its field.

What it does: ``organiser_page`` wraps a view ``view(request, club, ...)``: an anonymous visitor
is sent to the login page, a user who may not read the club gets 404 (as everywhere: a private
club is not revealed), a reader without the organiser role gets 403; an organiser of a club that
requires two factors (and staff), whose session was not signed in with one, is sent to the
two-factor page first (``accounts.two_factor``). ``event_of`` fetches a tournament of that club
(404 otherwise). ``ProblemShown`` maps a ``config.problems.Problem`` to
the field its JSON pointer names, for a template to print beside that field.

What it does not do: decide the policy (``clubs.permissions``) or write anything.
"""

from __future__ import annotations

from functools import wraps

from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.shortcuts import redirect

from accounts import two_factor
from clubs import selectors as club_selectors
from clubs.permissions import can_manage
from config.problems import Problem
from tournaments import selectors as tournament_selectors
from tournaments.models import Tournament
from web.two_factor_pages import with_next


def organiser_page(view):
    @wraps(view)
    def wrapper(request, slug, *args, **kwargs):
        if not request.user.is_authenticated:
            return redirect_to_login(request.get_full_path())
        club = club_selectors.get_readable_club(slug=slug, user=request.user)
        if not can_manage(request.user, club):
            raise PermissionDenied("Only the club's organisers may use the console.")
        if (club.require_two_factor or request.user.is_staff) and not two_factor.is_verified(
            request.user
        ):
            return redirect(with_next("two-factor", request.get_full_path()))
        return view(request, club, *args, **kwargs)

    return wrapper


def event_of(club, tournament_id: int) -> Tournament:
    return tournament_selectors.get_club_tournament(club=club, tournament_id=tournament_id)


class ProblemShown:
    """A problem as a page shows it: ``by_field`` (field name -> messages) and ``general``.

    The field is the pointer's first segment ("/names/3" -> "names"), renamed through
    ``fields`` when the form calls it otherwise ("/display_name" -> "name"); a whole pointer in
    ``fields`` names its own field ("/paper_score/1" -> "paper_score_1").
    """

    def __init__(self, problem: Problem, fields: dict[str, str] | None = None) -> None:
        fields = fields or {}
        self.by_field: dict[str, list[str]] = {}
        self.general: list[str] = []
        for entry in problem.errors:
            pointer = entry.get("pointer") or ""
            segment = pointer.split("/")[1] if pointer.startswith("/") else ""
            field = fields.get(pointer) or fields.get(segment, segment)
            if field:
                self.by_field.setdefault(field, []).append(entry["detail"])
            else:
                self.general.append(entry["detail"])
        self.status = problem.status_code
