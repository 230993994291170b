"""A game as the lists of the player pages show it, in the reader's language.

What it does: ``side_labels(game)`` names each side (its team, else "Ann & Cait");
``game_title(game)`` names a game as a person would: a tournament's game by its event, round and
table ("Thursday drive · Round 2 · table 4", ``event_of``), any other by its players and date —
never by its id; ``game_card(game)`` gives a game whose seats and sides were prefetched and whose
event was read with it (``with_events``: no query) as display data: its title, status, each side
named with its total ("Ann & Cait 25 – 20 Bill & Pat"), the winner, when it started, its link,
and, given a player, their result ("Won"/"Lost").

What it does not do: query, or decide who may see the game (the page that lists it did).
"""

from __future__ import annotations

from zoneinfo import ZoneInfo

from django.urls import reverse
from django.utils.formats import date_format
from django.utils.timezone import localtime
from django.utils.translation import gettext as _

from tournaments.selectors import knockout_round_total
from web.pages.labels import GAME_STATUSES, game_name, label, round_name

# What a game list reads with each game so that its title names its event (no query per game).
EVENT_FIELDS = ("match_link__match__round", "match_link__match__tournament")


def with_events(games):
    """``games`` (a queryset) read with their tournament match, round and tournament."""
    return games.select_related(*EVENT_FIELDS)


def event_of(game) -> str | None:
    """ "Thursday drive · Round 2 · table 4" for a tournament's game (read ``with_events``)."""
    link = getattr(game, "match_link", None)
    if link is None:
        return None
    match = link.match
    tournament = match.tournament
    values = {
        "event": tournament.name,
        "round": round_name(
            match.round.number, knockout_round_total(tournament), tournament.table_size
        ),
    }
    if match.is_third_place:
        return _("%(event)s · %(round)s · third-place match") % values
    return _("%(event)s · %(round)s · table %(table)s") % {**values, "table": match.table}


def game_title(game) -> str:
    """The game's name: its event, round and table, else its sides and the day it started in
    the club's time zone ("Ann & Cait v Bill & Pat · 3 December 2026")."""
    event = event_of(game)
    if event is not None:
        return event
    day = date_format(localtime(game.created_at, ZoneInfo(game.club.time_zone)), "DATE_FORMAT")
    return _("%(sides)s · %(day)s") % {"sides": _(" v ").join(side_labels(game)), "day": day}


def side_labels(game) -> list[str]:
    """Each side's name: its team's, else its players' names in seat order joined by "&"."""
    teams = {side.index: side.team for side in game.sides.all()}
    players: dict[int, list[str]] = {}
    for seat in game.ordered_seats():
        players.setdefault(seat.side, []).append(seat.player.display_name)
    labels = []
    for index in sorted(players):
        team = teams.get(index)
        labels.append(team.name if team is not None else " & ".join(players[index]))
    return labels


def game_card(game, *, player_id: int | None = None) -> dict:
    labels = side_labels(game)
    totals = list(game.totals) + [0] * (len(labels) - len(game.totals))
    sides = [
        {"label": name, "total": totals[index], "is_winner": game.winner_side == index}
        for index, name in enumerate(labels)
    ]
    result = None
    if player_id is not None and game.is_finished and game.winner_side is not None:
        side = next((seat.side for seat in game.seats.all() if seat.player_id == player_id), None)
        if side is not None:
            result = _("Won") if side == game.winner_side else _("Lost")
    return {
        "id": game.pk,
        "url": reverse("pages:game", kwargs={"slug": game.club.slug, "game_id": game.pk}),
        # In a list the score line names the players and the meta line the day: the title is
        # the event's round and table, or the kind of game.
        "title": event_of(game) or game_name(game.variant),
        "game": game_name(game.variant),
        "status": label(GAME_STATUSES, game.status),
        "is_finished": game.is_finished,
        "hands_played": game.hands_played,
        "sides": sides,
        "winner": sides[game.winner_side]["label"] if game.winner_side is not None else None,
        "result": result,
        "created_at": game.created_at,
        "time_zone": game.club.time_zone,
    }
