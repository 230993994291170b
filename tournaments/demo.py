"""A demo tournament for ``manage.py load_demo``: a 25 drive in progress.

What it does: ``load_demo_tournament(club, user=...)`` runs, through the services (so the draw,
the engine, the ledger and the history all do their part), a "Friday 25 Drive" of the club's
first active players (the largest multiple of four, at most 20) at tables of four with progressive
partners, three games: game 1 is played out at every table, the winners have moved up, and game
2 has its first hand entered everywhere. The tournament is public. It does nothing when the club
already has a tournament of that name, so running the demo loader twice changes nothing.
``ensure_tournament(demo, out)`` is the step for the loader's ``STEPS`` list.

What it does not do: create clubs, players or users (the clubs demo steps do).

Why it calls ``services.progress_match`` itself: the loader runs in one transaction, and the
progress task queued by name after a result changes (``tournaments.game_hooks``) runs only after
the commit; the demo needs round 2 drawn inside it.
Running the task again after the commit changes nothing (it recomputes from the games).
"""

from __future__ import annotations

from games import services as game_services
from games.models import Game, GameStatus
from tournaments import services
from tournaments.models import Match, Tournament

DEMO_TOURNAMENT_NAME = "Friday 25 Drive"
TABLE_SIZE = 4
MAX_PLAYERS = 20  # the first twenty: the clubs demo test deletes a later player


def _record(game: Game, user, winners: list[int]) -> None:
    game.refresh_from_db()
    record = {"dealer": game.next_dealer, "trump": "S", "trick_winners": winners}
    game_services.record_hand(game_id=game.pk, user=user, record=record)


def _play_out(match: Match, user, side: int) -> None:
    """Side ``side`` wins 15-10 then takes the two tricks it still needs (25 ends at the trick)."""
    game = match.games.get(status=GameStatus.IN_PROGRESS)
    own, other = side, 1 - side
    _record(game, user, [own, other, own + 2, other + 2, own])
    _record(game, user, [own + 2, own])


def load_demo_tournament(club, *, user=None) -> Tournament | None:
    """The demo drive of ``club`` (see the module docstring); None with fewer than 8 players."""
    existing = Tournament.objects.filter(club=club, name=DEMO_TOURNAMENT_NAME).first()
    if existing is not None:
        return existing
    players = list(club.players.filter(is_active=True).order_by("pk")[:MAX_PLAYERS])
    players = players[: len(players) // TABLE_SIZE * TABLE_SIZE]
    if len(players) < 2 * TABLE_SIZE:
        return None
    tournament = services.create_tournament(
        club=club,
        user=user,
        values={
            "name": DEMO_TOURNAMENT_NAME,
            "game": "25",
            "format": "drive",
            "table_size": TABLE_SIZE,
            "sides_per_table": 2,
            "round_count": 3,
            "stake_minor": 20,
            "is_public": True,
            "lots_seed": 2026,
        },
        entrants=[{"player": player.pk} for player in players],
    )
    round_one = services.draw_next_round(tournament_id=tournament.pk, user=user)
    for match in round_one.matches.order_by("table"):
        _play_out(match, user, side=match.table % 2)
        services.progress_match(match_id=match.pk, user=user)
    round_two = tournament.rounds.get(number=2)
    for match in round_two.matches.order_by("table"):
        game = match.games.get(status=GameStatus.IN_PROGRESS)
        _record(game, user, [0, 1, 2, 3, 0])
    return tournament


def ensure_tournament(demo, out) -> None:
    tournament = load_demo_tournament(demo.club, user=demo.users.get("organiser"))
    if tournament is None:
        out.write("Tournament: not enough players for the demo drive")
        return
    out.write(f"Tournament: {tournament.name} (round {tournament.rounds.count()} in progress)")
