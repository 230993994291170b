"""Demo games for ``manage.py load_demo``: a finished game of 25 with a stake, a 45 in progress.

What it does: ``load_demo_games(club, user=...)`` starts two games through the services (so the
engine checks every hand, the ledger books the stake and the history records who did it) with
the club's first eight active players (with fewer it skips): a 2 v 2 game of 25 played to the end
at 0.20 a head (one minor unit in a currency of fewer than two decimals), and a 2 v 2 game of 45
two hands in. It does nothing when the club already has games (the loader runs it before the
tournaments step, which plays games), so running the demo loader twice changes nothing.
``ensure_games(demo, out)`` is the step for the loader's ``STEPS`` list
(web/management/commands/load_demo.py).

What it does not do: create clubs, players or users (the clubs demo steps do).
"""

from __future__ import annotations

from games import services
from games.models import Game
from games.money import decimal_string_to_minor

# Trick-winner entries, checked by the engine like any other hand.
DEMO_TWENTY_FIVE_HANDS = [
    {"dealer": 3, "trump": "S", "trick_winners": [0, 1, 1, 2, 2]},
    # Side 0 reaches 25 in the fourth trick: the game ends there.
    {"dealer": 0, "trump": "H", "trick_winners": [1, 3, 0, 2]},
]
DEMO_FORTY_FIVE_HANDS = [
    {
        "dealer": 0,
        "trump": "C",
        "trick_winners": [1, 1, 0, 2, 1],
        "best_trump": {"seat": 0, "trick": 2},
    },
    {
        "dealer": 1,
        "trump": "D",
        "trick_winners": [2, 2, 3, 3, 2],
        "best_trump": {"seat": 3, "trick": 2},
    },
]
DEMO_STAKE = "0.20"


def _demo_stake(club) -> int:
    """0.20 in the club's currency, or one whole unit where there are no cents."""
    exponent = club.minor_unit_exponent
    return decimal_string_to_minor(DEMO_STAKE, exponent) if exponent >= 2 else 1


def load_demo_games(club, *, user, out=None) -> list[Game]:
    """Create the demo games in ``club`` unless it has games already; returns what it created."""
    # Any game counts: the loader runs this step before the tournament's (which plays games).
    if Game.objects.filter(club=club).exists():
        if out is not None:
            out.write("Found demo games")
        return []
    player_ids = list(
        club.players.filter(is_active=True).order_by("id").values_list("pk", flat=True)[:8]
    )
    if len(player_ids) < 8:
        if out is not None:
            out.write("Skipped demo games: the club needs 8 active players")
        return []
    twenty_five = services.create_game(
        club=club,
        user=user,
        game="25",
        seat_player_ids=player_ids[:4],
        teams=[[0, 2], [1, 3]],
        first_dealer=3,
        stake_minor=_demo_stake(club),
    )
    for record in DEMO_TWENTY_FIVE_HANDS:
        services.record_hand(game_id=twenty_five.pk, user=user, record=dict(record))
    forty_five = services.create_game(
        club=club,
        user=user,
        game="45",
        seat_player_ids=player_ids[4:8],
        teams=[[0, 2], [1, 3]],
        first_dealer=0,
    )
    for record in DEMO_FORTY_FIVE_HANDS:
        services.record_hand(game_id=forty_five.pk, user=user, record=dict(record))
    if out is not None:
        out.write("Created demo games: a finished 25 and a 45 in progress")
    for game in (twenty_five, forty_five):
        game.refresh_from_db()  # the services recorded the hands on locked copies
    return [twenty_five, forty_five]


def ensure_games(demo, out) -> None:
    """The ``load_demo`` step: demo games in the demo club, entered by the demo scorekeeper."""
    load_demo_games(demo.club, user=demo.users["scorekeeper"], out=out)
