"""A player's page (``/clubs/<slug>/players/<id>/``): their games, events, results and money.

What it does: ``player_detail`` shows the player's results in numbers (games played and won),
their recent games (each side named with its score, their result), the events they entered
(with their tables decided and won), and — for the club's members only, as money always is —
their balance over time as a small chart drawn on the server (``balance_chart``: an SVG
polyline, no script; its coordinates are text made in Python, never localised), with the
figures written out beside it for those who cannot see it, the season's settled nights and
events with their running balance (``settlements.selectors.season_balances``: what each came
to, paid, received, still open), and
their rating with its history (``seasons.selectors.rating_for_page``, ``_rating.html``). Games
of rounds not yet released are listed for the club's organisers only.

What it does not do: write anything, or show money to a reader who is not a member of the club
(the same policy as the balances page and ``/api/clubs/{slug}/balances/``).

Terms: *balance* — the running sum of the player's ledger entries (positive: owed money).
"""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_safe

from clubs import selectors as club_selectors
from clubs.permissions import role_in
from games import selectors as game_selectors
from games.money import format_money
from seasons.selectors import rating_for_page
from settlements.selectors import season_balances
from tournaments.selectors import list_entries_of_player
from web.pages.cards import game_card, with_events
from web.pages.labels import TOURNAMENT_STATUSES, game_name, label

SIGNED = {"net", "open", "running", "running_open"}
GAMES_LIMIT = 20
EVENTS_LIMIT = 20
CHART_WIDTH = 320
CHART_HEIGHT = 120
CHART_MARGIN = 8


def balance_chart(steps: list[tuple], club) -> dict | None:
    """The balance after each ledger entry as an SVG polyline in a fixed box.

    Returns ``{"points", "zero_y", "width", "height", "final", "lowest", "highest", "count"}``
    (None with no entry): x is the entry's order (evenly spaced: the evenings, not the hours,
    matter), y the balance, the zero line drawn where the balance is nil.
    """
    if not steps:
        return None
    balances = [0]
    for _when, amount in steps:
        balances.append(balances[-1] + amount)
    lowest, highest = min(balances), max(balances)
    span = (highest - lowest) or 1
    inner_width = CHART_WIDTH - 2 * CHART_MARGIN
    inner_height = CHART_HEIGHT - 2 * CHART_MARGIN

    def y_of(value: int) -> str:
        # Coordinates are text made here, never numbers a template would localise ("12,5"
        # in French breaks the SVG).
        return f"{CHART_MARGIN + inner_height * (highest - value) / span:.1f}"

    count = len(balances) - 1
    points = " ".join(
        f"{CHART_MARGIN + inner_width * index / max(count, 1):.1f},{y_of(value)}"
        for index, value in enumerate(balances)
    )
    return {
        "points": points,
        "zero_y": y_of(0),
        "width": CHART_WIDTH,
        "height": CHART_HEIGHT,
        "final": format_money(balances[-1], club, signed=True),
        "lowest": format_money(lowest, club, signed=True),
        "highest": format_money(highest, club, signed=True),
        "count": count,
        "is_owed": balances[-1] > 0,
        "owes": balances[-1] < 0,
        "since": steps[0][0],
    }


@require_safe
def player_detail(request: HttpRequest, slug: str, player_id: int) -> HttpResponse:
    club = club_selectors.get_readable_club(slug=slug, user=request.user)
    player = club_selectors.get_player(club=club, player_id=player_id)
    player.club = club  # the club read above, with the viewer's role remembered
    games = list(
        with_events(game_selectors.list_games_of_player(player=player, user=request.user))[
            :GAMES_LIMIT
        ]
    )
    results = game_selectors.count_results_of_player(player=player, user=request.user)
    entries = list(list_entries_of_player(player=player)[:EVENTS_LIMIT])
    is_member = role_in(request.user, club) is not None
    chart = None
    season_money = []
    if is_member:
        chart = balance_chart(game_selectors.list_balance_steps(player=player), club)
        season_money = [
            {
                "name": row["event"]["name"],
                "settled_at": row["event"]["settled_at"],
                **{
                    key: format_money(row[key], club, signed=key in SIGNED)
                    for key in ("net", "paid", "received", "open", "running", "running_open")
                },
            }
            for row in season_balances(club=club, player_id=player.pk)["players"].get(player.pk, [])
        ]
    events = [
        {
            "name": entry.tournament.name,
            "url": reverse(
                "pages:tournament", kwargs={"slug": club.slug, "tournament_id": entry.tournament_id}
            ),
            "is_readable": entry.tournament.is_public or is_member,
            "game": game_name(entry.tournament.game),
            "status": label(TOURNAMENT_STATUSES, entry.tournament.status),
            "as_team": entry.team.name if entry.team_id else None,
            "decided": entry.matches_decided,
            "won": entry.matches_won,
        }
        for entry in entries
    ]
    rating = rating_for_page(player=player)
    # Each game card says the rating it left the player with, when it was rated.
    after = {step.game_id: step.ordinal for step in rating["history"]}
    games_view = [
        {**game_card(game, player_id=player.pk), "rating_after": after.get(game.pk)}
        for game in games
    ]
    context = {
        "club": club,
        "player": player,
        "results": {
            "played": results["played"],
            "won": results["won"],
            "lost": results["played"] - results["won"],
        },
        "games": games_view,
        "events": [event for event in events if event["is_readable"]],
        "is_member": is_member,
        "chart": chart,
        "season_money": season_money,
        "season_open": season_money[-1]["running_open"] if season_money else "",
        "rating": rating,
        "title": _("%(name)s · %(club)s") % {"name": player.display_name, "club": club.name},
    }
    return render(request, "pages/player.html", context)
