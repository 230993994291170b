"""A game as the lists of the player pages show it, in the reader's language.

What it does: ``side_labels(game)`` names each side (its team, else "Ann & Cait");
``game_card(game)`` gives a game whose seats and sides were prefetched (no query)
as display data: its name, status, each side named with its total ("Ann & Cait 25 – 20 Bill &
Pat"), the winner, when it started, and its link. ``viewer_result`` adds "Won"/"Lost" for the
player whose page or list it is.

What it does not do: query, or decide who may see the game (the page that lists it did).
"""

from __future__ import annotations

from django.urls import reverse
from django.utils.translation import gettext as _

from web.pages.labels import GAME_STATUSES, game_name, label


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
        "game": game_name(game.game),
        "status": label(GAME_STATUSES, game.status),
        "is_finished": game.is_finished,
        "hands_played": game.hands_played,
        "sides": sides,
        "winner": sides[game.winner_side]["label"] if game.winner_side is not None else None,
        "result": result,
        "created_at": game.created_at,
        "time_zone": game.club.time_zone,
    }
