"""What each player of a settled event did there: place, games played and won, points, and the
figures other apps add (rating, season position), for the results message.

What it does: ``event_results(settlement)`` reads the event of a settle-up version (a tournament
or a club night): its name, its games, and per player their place (the places the version
stored: an entrant's, shared by a team's members; a night's are by games won) out of how many,
the finished games they played and won and the points their side scored in them; then the
figures of every path in ``JINK_RESULTS_MAIL_FIGURES`` (``seasons.results.results_figures``:
the rating's change and the season position), merged per player. The players are those with a
place who played a game, and every party of the version's lines.

What it does not do: write anything, or word it (``settlements.mails``).
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field

from django.conf import settings
from django.utils.module_loading import import_string

from clubs.models import TeamMember
from games.models import Game, GameStatus
from settlements.models import NightGame, Settlement
from tournaments.models import Entrant, MatchGame


@dataclass
class EventResults:
    name: str
    game_ids: list[int]
    # player id -> {"place", "of", "played", "won", "points", and the added figures}
    players: dict[int, dict] = field(default_factory=dict)


def _places(settlement: Settlement) -> dict[int, int]:
    """Player id -> place, from the places the version stored."""
    stored = {int(key): place for key, place in settlement.details.get("places", {}).items()}
    if settlement.night_id:
        return stored
    places = {}
    teams = defaultdict(list)
    for entrant_id, player_id, team_id in Entrant.objects.filter(
        tournament_id=settlement.tournament_id, pk__in=stored
    ).values_list("pk", "player_id", "team_id"):
        if player_id:
            places[player_id] = stored[entrant_id]
        elif team_id:
            teams[team_id].append(stored[entrant_id])
    for team_id, player_id in TeamMember.objects.filter(team_id__in=teams).values_list(
        "team_id", "player_id"
    ):
        places[player_id] = teams[team_id][0]
    return places


def event_results(settlement: Settlement) -> EventResults:
    if settlement.night_id:
        name = settlement.night.name
        game_ids = list(
            NightGame.objects.filter(night_id=settlement.night_id).values_list("game_id", flat=True)
        )
    else:
        name = settlement.tournament.name
        game_ids = list(
            MatchGame.objects.filter(match__tournament_id=settlement.tournament_id).values_list(
                "game_id", flat=True
            )
        )
    places = _places(settlement)
    of = len(settlement.details.get("places", {}))
    played: dict[int, dict] = defaultdict(lambda: {"played": 0, "won": 0, "points": 0})
    for game in Game.objects.filter(pk__in=game_ids, status=GameStatus.FINISHED).prefetch_related(
        "seats"
    ):
        totals = game.totals or []
        for seat in game.seats.all():
            figures = played[seat.player_id]
            figures["played"] += 1
            figures["won"] += 1 if seat.side == game.winner_side else 0
            figures["points"] += totals[seat.side] if seat.side < len(totals) else 0
    player_ids = sorted(
        set(played) | {line["player"] for line in settlement.lines if line["player"]}
    )
    results = EventResults(name=name, game_ids=game_ids)
    for player_id in player_ids:
        results.players[player_id] = {
            "place": places.get(player_id),
            "of": of,
            **(played.get(player_id) or {"played": 0, "won": 0, "points": 0}),
        }
    for path in getattr(settings, "JINK_RESULTS_MAIL_FIGURES", None) or ():
        added = import_string(path)(
            club_id=settlement.club_id, player_ids=player_ids, game_ids=game_ids
        )
        for player_id, figures in added.items():
            results.players[player_id].update(figures)
    return results
