"""The close of an event: final standings, stakes, entry fees, who pays whom; a printable sheet.

What it does: ``results`` shows the standings (``tournaments.standings.compute_standings``) and
the settlement (``tournaments.settlement.compute_settlement``) as they stand, and closes the
event through ``tournaments.services.close_tournament`` (refused while a table is undecided).
The page prints as a results sheet (print.css hides the buttons).

What it does not do: compute anything itself.
"""

from __future__ import annotations

from django.contrib import messages
from django.shortcuts import redirect, render
from django.views.decorators.http import require_http_methods

from config.problems import Problem
from tournaments import services as tournament_services
from tournaments.settlement import compute_settlement
from tournaments.standings import compute_standings
from web.console.access import ProblemShown, event_of, organiser_page


@require_http_methods(["GET", "HEAD", "POST"])
@organiser_page
def results(request, club, tournament_id: int):
    tournament = event_of(club, tournament_id)
    problem = None
    if request.method == "POST":
        try:
            if request.POST.get("action") != "close":
                raise Problem(status=400, code="invalid", detail="Unknown action.")
            tournament_services.close_tournament(tournament_id=tournament.pk, user=request.user)
            messages.success(request, "The event is closed: its results are final.")
            return redirect("console:results", club.slug, tournament.pk)
        except Problem as error:
            problem = ProblemShown(error)
    standings = compute_standings(tournament)
    settlement = compute_settlement(tournament)
    context = {
        "club": club,
        "tournament": tournament,
        "standings": standings["standings"],
        "settlement": settlement,
        "problem": problem,
    }
    return render(request, "console/results.html", context,
                  status=problem.status if problem else 200)
