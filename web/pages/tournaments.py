"""The read-only site page of one tournament: its standings, then its rounds, tables and games.

What it does: ``tournament_detail`` (``/clubs/<slug>/tournaments/<id>/``) shows the tournament's
settings in brief, its standings (``tournaments.standings.compute_standings``, the same figures
as ``GET /api/tournaments/{id}/standings/``) and its bracket (``tournaments.selectors.bracket_of``:
every round with its tables — a match, a bye, a walkover, or a table still waiting for its
entrants — each table's entrants in seat order with their games won and points, the winners
highlighted, and links to the table's games).

What it does not do: compute anything itself (standings and the bracket come from the
tournaments app), write anything, or decide the policy. Who may read follows the API exactly:
``tournaments.selectors.can_read_tournament`` (anybody for a public tournament, the club's members
otherwise; others get 404). Games are linked only for readers of the club, because the game pages
follow the club's policy, as ``/api/games/{id}/`` does.

Terms: *winners* of a table are its first placing group (``Match.result["placings"][0]``), as the
API's ``winners``; the tournament's winners are the champion of a knockout, else the entrants
ranked first once every round is played.
"""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.views.decorators.http import require_safe

from clubs import selectors as club_selectors
from clubs.permissions import can_read_club
from tournaments import selectors
from tournaments.models import Match, MatchStatus, Tournament
from tournaments.standings import compute_standings, winners_of
from web.pages.clubs import format_money, game_label

PLACE_NAMES = {1: "Winner", 2: "Runner-up"}
GAME_STATUS_NAMES = {"in_progress": "in progress", "finished": "finished"}


def _access_tournament(request: HttpRequest, slug: str, tournament_id: int):
    """The club and the tournament the user may read; Http404 for anything else."""
    club = club_selectors.get_club(slug=slug, user=request.user)
    tournament = selectors.get_tournament(tournament_id=tournament_id)
    if tournament.club_id != club.pk:
        raise Http404("No tournament with this id in this club.")
    tournament.club = club  # the club read above, with the viewer's role remembered
    if not selectors.can_read_tournament(request.user, tournament):
        raise Http404("No tournament with this id in this club.")
    return club, tournament


def _source_text(slot, where: dict[int, tuple[int, int]]) -> str:
    """"Winner of round 1 table 2" for a slot waiting on another match."""
    place = PLACE_NAMES.get(slot.source_place, f"Place {slot.source_place}")
    source = where.get(slot.source_match_id)
    if source is None:
        return "To be decided"
    return f"{place} of round {source[0]} table {source[1]}"


def _match_games(match: Match, slug: str, link_games: bool) -> list[dict]:
    games = []
    for number, game in enumerate(match.games.all(), start=1):
        games.append(
            {
                "number": number,
                "url": reverse("pages:game", kwargs={"slug": slug, "game_id": game.pk})
                if link_games
                else None,
                "score": "–".join(str(total) for total in game.totals),
                "status": GAME_STATUS_NAMES.get(game.status, game.status),
            }
        )
    return games


def _table_view(table: dict, names: dict[int, str], where, slug: str, link_games: bool) -> dict:
    match: Match | None = table["match"]
    kind = table["kind"]
    entrants = []
    games = []
    winners: set[int] = set()
    status = {"walkover": "Walkover", "waiting": "Waiting", "bye": "Bye"}.get(kind, "")
    if match is not None:
        placings = (match.result or {}).get("placings") or []
        if match.is_bye:
            placings = [[slot.entrant_id for slot in match.slots.all()]]
        winners = set(placings[0]) if placings else set()
        status = "Bye" if match.is_bye else match.get_status_display()
        # A match's figures are filled in when it is decided; before that they read 0.
        is_decided = match.status == MatchStatus.DECIDED and not match.is_bye
        for slot in match.slots.all():
            entrants.append(
                {
                    "name": slot.entrant.name if slot.entrant_id else _source_text(slot, where),
                    "is_known": slot.entrant_id is not None,
                    "is_winner": slot.entrant_id in winners,
                    "games_won": slot.games_won if is_decided else None,
                    "points": slot.points_for if is_decided else None,
                    "place": slot.place,
                    "advances": slot.advances,
                }
            )
        games = _match_games(match, slug, link_games)
    else:
        for entrant_id in table["entrants"]:
            entrants.append(
                {
                    "name": names.get(entrant_id, f"Entrant {entrant_id}"),
                    "is_known": True,
                    "is_winner": kind == "walkover",
                    "games_won": None,
                    "points": None,
                    "place": None,
                    "advances": kind == "walkover",
                }
            )
    return {
        "number": table["table"],
        "kind": kind,
        "status": status,
        "is_decided": bool(winners) or kind == "walkover",
        "is_third_place": table["is_third_place"],
        "entrants": entrants,
        "games": games,
    }


def bracket_view(tournament: Tournament, bracket: dict, names: dict[int, str], *,
                 link_games: bool) -> list[dict]:
    """The bracket's rounds in display form (no query: the bracket's matches are prefetched)."""
    where = {
        table["match"].pk: (round_["number"], table["table"])
        for round_ in bracket["rounds"]
        for table in round_["tables"]
        if table["match"] is not None
    }
    slug = tournament.club.slug
    return [
        {
            "number": round_["number"],
            "name": round_["name"],
            "status": {"complete": "Complete", "in_progress": "In progress"}.get(
                round_["status"], "Not started"
            ),
            "tables": [
                _table_view(table, names, where, slug, link_games) for table in round_["tables"]
            ],
        }
        for round_ in bracket["rounds"]
    ]


def _points(value) -> str:
    return f"{value:g}" if isinstance(value, float) else str(value)


@require_safe
def tournament_detail(request: HttpRequest, slug: str, tournament_id: int) -> HttpResponse:
    club, tournament = _access_tournament(request, slug, tournament_id)
    standings = compute_standings(tournament)
    rows = standings["standings"]
    names = {row["entrant"]["id"]: row["entrant"]["name"] for row in rows}
    bracket = selectors.bracket_of(tournament)
    winners = winners_of(tournament, bracket["champion"], rows)
    club_is_readable = can_read_club(request.user, club)
    context = {
        "club": club,
        "club_is_readable": club_is_readable,
        "tournament": tournament,
        "game_name": game_label(tournament.game),
        "stake": format_money(tournament.stake_minor, club),
        "entry_fee": format_money(tournament.entry_fee_minor, club),
        "winners": [names.get(entrant_id, str(entrant_id)) for entrant_id in winners],
        "standings": [
            {
                "rank": row["rank"],
                "name": row["entrant"]["name"],
                "seed": row["entrant"]["seed"],
                "played": row["matches_played"],
                "wins": row["match_wins"],
                "draws": row["match_draws"],
                "losses": row["match_losses"],
                "match_points": row["match_points"],
                "games_won": row["games_won"],
                "points_for": row["points_for"],
                "points_difference": _points(row["points_difference"]),
                "is_winner": row["entrant"]["id"] in winners,
            }
            for row in rows
        ],
        "tie_breaks": [name.replace("_", " ") for name in standings["tie_breaks"]],
        "rounds": bracket_view(tournament, bracket, names, link_games=club_is_readable),
    }
    return render(request, "pages/tournament.html", context)
