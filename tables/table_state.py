"""What a table is doing now: its games, the one in play and, for a tournament table, the match.

``table_state(link)`` is the body of ``GET /api/table/`` and the data the table page starts from:
the games of the link's table (oldest first) with status and totals, ``current_game`` (the first
game still in progress, else the last one), and for a match its tournament, round, table and each
entrant's games won so far.
"""

from __future__ import annotations

from tables.models import TableLink
from tables.selectors import list_table_games, table_label
from tournaments.models import MatchEntrant


def table_state(link: TableLink) -> dict:
    games = list_table_games(link)
    current = next((game for game in games if not game.is_finished), games[-1] if games else None)
    state = {
        "label": table_label(link),
        "club": link.club.slug,
        "expires_at": link.expires_at,
        "games": [
            {
                "id": game.pk,
                "game": game.game,
                "status": game.status,
                "winner": game.winner_side,
                "totals": {str(index): total for index, total in enumerate(game.totals)},
                "hands_played": game.hands_played,
            }
            for game in games
        ],
        "current_game": None if current is None else current.pk,
        "match": None,
    }
    if link.match_id is not None:
        match = link.match
        slots = MatchEntrant.objects.filter(match=match).select_related(
            "entrant__player", "entrant__team"
        )
        state["match"] = {
            "id": match.pk,
            "tournament": match.round.tournament_id,
            "tournament_name": match.round.tournament.name,
            "round": match.round.number,
            "table": match.table,
            "status": match.status,
            "score": [
                {
                    "name": str(slot.entrant) if slot.entrant_id else "to be decided",
                    "games_won": slot.games_won,
                }
                for slot in slots
            ],
        }
    return state
