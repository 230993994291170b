"""The event page (``/clubs/<slug>/tournaments/<id>/``): the page a player keeps open all night.

What it does: ``tournament_detail`` shows, in the reader's language, the seat banner while the
reader's table is still to be played ("Round 2: table 4, seat 2, with Mary Byrne", announced by
``static/js/pages/seat.js``: docs/pages.md) and the "tonight" panel (``web.pages.tonight``) at the
top, the standings that explain their ties
(``web.pages.explain``), then the rounds — the current round first and open, earlier rounds
folded — or, for a format whose policy plans a bracket (a knockout: ``plans_a_bracket``), the
bracket (rounds as columns, lines drawn from each table to the table it feeds). Everything that
changes during play sits in one live region (``#live``) that
``static/js/pages/live.js`` refreshes: the page answers its poll's ``If-None-Match`` with a
``304`` after one query when nothing changed (``web.pages.live``).

Standings are the stored snapshot (``tournaments.snapshots.read_standings``, as the API); rounds
not yet released are shown to the club's organisers only.

``access_tournament`` is the page's one access check: the club (``clubs.selectors.get_club``),
the club's tournament (``tournaments.selectors.get_club_tournament``) and whether the reader may
read it, a 404 for anything else.

What it does not do: compute standings or the bracket (the tournaments app does), write
anything, compare formats (the policy answers), or decide who may read:
``tournaments.selectors.can_read_tournament``, as the API.

Terms: *reader's entrant* — see ``web.pages.tonight``.
"""

from __future__ import annotations

from types import SimpleNamespace

from django.http import Http404, HttpRequest, HttpResponse
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.gzip import gzip_page
from django.views.decorators.http import require_safe

from clubs import selectors as club_selectors
from clubs.permissions import can_manage, can_read_club
from games.money import format_money
from tournaments import selectors
from tournaments.formats import policy_for
from tournaments.snapshots import read_standings
from tournaments.standings import winners_of
from web.pages import explain, live, tables, tonight
from web.pages.labels import FORMATS, TOURNAMENT_STATUSES, game_name, label
from web.pages.labels import round_name as translated_round_name


@require_safe
@gzip_page
def tournament_detail(request: HttpRequest, slug: str, tournament_id: int) -> HttpResponse:
    picked = tonight.picked_player_id(request, slug)
    etag, state = live.tournament_etag(request, slug, tournament_id, picked)
    not_modified = live.not_modified_or_none(request, etag)
    if not_modified is not None:
        return not_modified
    club, tournament = access_tournament(request, slug, tournament_id)
    standings = read_standings(tournament)
    rows = standings["standings"]
    # A private draw stays private: rounds not yet released reach only organisers (the
    # bracket, the tables, the "tonight" panel all come from this).
    bracket = selectors.bracket_of(tournament, with_unreleased=can_manage(request.user, club))
    is_team = tournament.entrant_kind == "team"
    members = selectors.list_team_members(tournament=tournament) if is_team else {}
    entrants = _entrants_of(rows)
    viewer = state["viewer_player"] or picked
    me = tonight.entrant_of_player(viewer, entrants, members)
    winners = winners_of(tournament, bracket["champion"], rows)
    club_is_readable = can_read_club(request.user, club)
    rounds = tables.rounds_view(
        tournament,
        bracket,
        entrants,
        link_games=club_is_readable,
        members=members,
        me=me,
        round_names=lambda number, total: translated_round_name(
            number, total, tournament.table_size
        ),
    )
    is_knockout = policy_for(tournament).plans_a_bracket and bool(tournament.draw_order)
    standings_view = explain.standings_view(
        standings,
        winners=winners,
        me=me,
        is_team=is_team,
        stages=_stages(rounds, bracket["champion"]) if is_knockout else None,
    )
    names = {row["entrant"]["id"]: row["entrant"]["name"] for row in rows}
    panel = None
    if viewer is not None:
        viewer_name = _player_name(viewer, entrants, members)
        if viewer_name is not None or me is None:
            panel = tonight.tonight_view(
                player_name=viewer_name or "",
                me=me,
                rounds=rounds,
                standings=standings_view,
                is_team=is_team,
                tournament_finished=tournament.status in ("finished", "closed"),
            )
    current = [round_ for round_ in rounds if round_["is_current"]]
    earlier = [
        round_
        for round_ in reversed(rounds)
        if not round_["is_current"] and round_["status_code"] != "waiting"
    ]
    context = {
        "club": club,
        "club_is_readable": club_is_readable,
        "tournament": tournament,
        "status": label(TOURNAMENT_STATUSES, tournament.status),
        "format_name": label(FORMATS, tournament.format),
        "game_name": game_name(tournament.game),
        "stake": format_money(tournament.stake_minor, club),
        "entry_fee": format_money(tournament.entry_fee_minor, club),
        "winners": [names.get(entrant_id, str(entrant_id)) for entrant_id in winners],
        "standings": standings_view,
        "is_knockout": is_knockout,
        "rounds": rounds,
        "current_rounds": current,
        "earlier_rounds": earlier,
        "panel": panel,
        "picked_elsewhere": viewer is None,
        "is_live": tournament.status in ("registration", "in_progress"),
        "poll_seconds": live.POLL_SECONDS,
        "etag": etag,
        "updated_at": timezone.now(),
        "club_url": reverse("pages:club", kwargs={"slug": club.slug}),
    }
    return live.render_live(
        request, "pages/tournament.html", "pages/_event_live.html", context, etag
    )


def access_tournament(request: HttpRequest, slug: str, tournament_id: int):
    """The club and the tournament the user may read; Http404 for anything else."""
    club = club_selectors.get_club(slug=slug, user=request.user)
    tournament = selectors.get_club_tournament(club=club, tournament_id=tournament_id)
    if not selectors.can_read_tournament(request.user, tournament):
        raise Http404("No tournament with this id in this club.")
    return club, tournament


def _stages(rounds: list[dict], champion: int | None) -> dict[int, str]:
    """A knockout's entrant id -> the furthest round it reached, in words (what it is ranked
    by first): its last table's round, "Third-place match", or "Winner" for the champion."""
    stages = {}
    for round_ in rounds:
        for table in round_["tables"]:
            name = _("Third-place match") if table["is_third_place"] else round_["name"]
            for side in table["sides"]:
                for entry in side["entrants"]:
                    if entry["id"] is not None:
                        stages[entry["id"]] = name
    if champion is not None:
        stages[champion] = _("Winner")
    return stages


def _entrants_of(rows: list[dict]) -> dict[int, SimpleNamespace]:
    """Entrant id -> its id, name, player and team ids, from the standings (which list every
    entrant, played or not): no query."""
    return {
        row["entrant"]["id"]: SimpleNamespace(
            pk=row["entrant"]["id"],
            name=row["entrant"]["name"],
            player_id=row["entrant"]["player"],
            team_id=row["entrant"]["team"],
        )
        for row in rows
    }


def _player_name(player_id: int, entrants: dict, members: dict) -> str | None:
    for entrant in entrants.values():
        if entrant.player_id == player_id:
            return entrant.name
    for players in members.values():
        for player in players:
            if player.pk == player_id:
                return player.display_name
    return None
