"""What a table is doing now: its games, the one in play and, for a tournament table, the match.

``table_state(link)`` is the body of ``GET /api/table/`` and the data the table page starts from:
the games of the link's table (oldest first) with status, version and totals, ``current_game``
(the first game still in progress, else the last one), for a match its tournament, round, table
and each entrant's games won so far, for a club night's table its night (``night``: id and
name), and:

- ``status``: ``playing`` (the table has a game, or a match waiting for its next one),
  ``waiting`` (an event's table before its first round is released, a night's table before its
  first game), ``empty`` (an event's table that nobody plays at in the latest released round)
  or ``event_over`` (its event or night is closed: the link opens no game any more; an
  organiser corrects from the console);
- ``follows``: whether another game may still come to this table (an event's or a night's table
  until it closes, a match until it is decided); a tablet whose game is finished stops asking
  when it is false.

What it does not do: decide who may read it (``table_links.authentication``).
"""

from __future__ import annotations

from table_links.models import TableLink
from table_links.selectors import current_event_match, is_event_over, list_table_games, table_label
from tournaments.models import MatchEntrant


def table_state(link: TableLink) -> dict:
    match = link.match
    round_number = None
    status = "playing"
    if link.tournament_id is not None:
        round_number, match = current_event_match(link)
        if is_event_over(link):
            status, match = "event_over", None
        elif round_number is None:
            status = "waiting"
        elif match is None or match.is_bye:
            status, match = "empty", None
    games = (
        list_table_games(link, match)
        if link.tournament_id is not None
        else (list_table_games(link))
    )
    if link.night_id is not None:
        if is_event_over(link):
            status = "event_over"
        elif not games:
            status = "waiting"
    current = next((game for game in games if not game.is_finished), games[-1] if games else None)
    if link.tournament_id is not None or link.night_id is not None:
        follows = status != "event_over"
    elif link.match_id is not None:
        follows = link.match.status != "decided"
    else:
        follows = False
    state = {
        "label": table_label(link),
        "club": link.club.slug,
        "expires_at": link.expires_at,
        "status": status,
        "follows": follows,
        "round": round_number,
        "table": link.table_number,
        "games": [
            {
                "id": game.pk,
                "game": game.variant,
                "status": game.status,
                "winner": game.winner_side,
                "totals": {str(index): total for index, total in enumerate(game.totals)},
                "hands_played": game.hands_played,
                "version": game.version,
            }
            for game in games
        ],
        "current_game": None if current is None else current.pk,
        "match": None,
        "night": None
        if link.night_id is None
        else {
            "id": link.night_id,
            "name": link.night.name,
        },
    }
    if match is not None:
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
