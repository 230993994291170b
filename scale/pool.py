"""A pool of whole games played once by the computer players, replayed through the engine.

What it does: ``build_pool(seed, games_per_table)`` plays, for each kind of table in ``TABLES``
(a variant, a seat count, its sides), ``games_per_table`` games to their end with the computer
players (``computer_players.play_game``: every card checked by the engine as it is played), then
replays each game's records on a fresh engine state exactly as ``games.bridge.play`` does when a
scorekeeper records a hand. Each ``PooledHand`` keeps what ``games.services.record_hand`` stores:
the canonical record, the engine's result, the totals and the game's fields after the hand (as
JSON text, ready for ``COPY``). The generator samples whole games from it, so every game's totals,
status and winner are what its hands make them.

What it does not do: touch the database, or keep a game the engine did not finish (a bidding game
abandoned after ``computer_players.driver.MAX_HANDS`` hands is left out).

Terms: *table kind*: one entry of ``TABLES``; *weight*: how often a club's table is of that kind.
"""

from __future__ import annotations

import json
import random
from dataclasses import dataclass

from computer_players import play_game
from games.bridge import fields_of, freeze_rules
from rules_engine import HouseRules, new_game
from rules_engine.cards import canonical_record
from scale.copy import text

TABLES: tuple[tuple[str, int, tuple[tuple[int, ...], ...] | None, int], ...] = (
    ("220", 3, None, 3),
    ("220", 4, ((0, 2), (1, 3)), 2),
    ("110", 5, None, 2),
    ("110", 3, None, 2),
    ("auction45", 4, ((0, 2), (1, 3)), 1),
    ("45", 6, ((0, 2, 4), (1, 3, 5)), 1),
    ("25", 4, ((0, 2), (1, 3)), 1),
)
"""(variant, seats, sides or None for every seat on its own, weight): about 11 hands a game."""


def dumps(value) -> str:
    """JSON text as Django's JSONField writes it (``json.dumps`` defaults)."""
    return json.dumps(value)


@dataclass(frozen=True)
class PooledHand:
    dealer: int
    record: str
    result: str
    totals_after: str
    state_after: str
    entered_offset: int  # seconds after the game started

    @property
    def tail(self) -> str:
        """The hand's columns from ``dealer`` to ``state_after``, in COPY's text format."""
        return "\t".join(
            (
                str(self.dealer),
                *map(text, (self.record, self.result, self.totals_after, self.state_after)),
            )
        )


@dataclass
class PooledGame:
    kind: int  # index in TABLES
    first_dealer: int
    hands: tuple[PooledHand, ...]
    totals: list[int]
    winner_side: int | None
    double_stake: bool
    next_dealer: int
    engine_state: dict
    side_of_seat: list[int]
    house_rules: dict
    tails: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        self.tails = tuple(hand.tail for hand in self.hands)


def _replay(kind: int, variant: str, seats: int, sides, first_dealer: int, records, rng):
    rules = freeze_rules(variant, {})
    state = new_game(
        variant, seats, sides=sides, first_dealer=first_dealer, rules=HouseRules.from_dict(rules)
    )
    hands = []
    offset = 0
    for record in records:
        canonical = canonical_record(record)
        result, state = state.record(canonical)
        fields = fields_of(state)
        offset += rng.randrange(240, 600)
        hands.append(
            PooledHand(
                dealer=result.dealer,
                record=dumps(canonical),
                result=dumps(result.to_dict()),
                totals_after=dumps(fields["totals"]),
                state_after=dumps(fields),
                entered_offset=offset,
            )
        )
    if not state.finished:
        return None
    return PooledGame(
        kind=kind,
        first_dealer=first_dealer,
        hands=tuple(hands),
        totals=list(state.totals),
        winner_side=state.winner,
        double_stake=state.double_stake,
        next_dealer=state.next_dealer,
        engine_state={"has_scored": list(state.has_scored)},
        side_of_seat=list(state.side_of_seat),
        house_rules=rules,
    )


def build_pool(seed: int, games_per_table: int) -> list[list[PooledGame]]:
    """Per table kind (``TABLES``' order), up to ``games_per_table`` finished games."""
    rng = random.Random(seed)
    pool: list[list[PooledGame]] = []
    for kind, (variant, seats, sides, _weight) in enumerate(TABLES):
        games: list[PooledGame] = []
        for _ in range(games_per_table):
            first_dealer = rng.randrange(seats)
            played = play_game(
                variant,
                seat_count=seats,
                sides=sides,
                first_dealer=first_dealer,
                levels=[rng.choice(("club", "club", "easy")) for _ in range(seats)],
                rng=rng,
                trick_winner_hands=lambda number: rng.random() < 0.7,
            )
            game = _replay(kind, variant, seats, sides, first_dealer, played.records, rng)
            if game is not None:
                games.append(game)
        pool.append(games)
    return pool
