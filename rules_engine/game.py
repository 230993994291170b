"""A game in progress: ``new_game``, ``GameState.record`` and ``replay``.

What it does: ``new_game`` starts a game (game, seats, sides, first dealer, house rules, totals
carried in from paper). ``GameState.record(hand)`` checks one hand record (api.md) against the
game so far and returns the ``HandResult`` with a *new* ``GameState``; the old state is never
changed, so correcting a hand is replaying the corrected list from the start (``replay``).

What it does not do: store anything, know players, or translate errors; it raises ``RulesError``
with a stable code and a JSON pointer into the hand record.

Terms:
- *state*: an immutable ``GameState``: the frozen house rules, the seating, the totals per side,
  the number of hands recorded, who deals next, and whether (and by whom) the game was won.
- *double stake*: 25's jink: the winning side took all five tricks of the winning hand, having
  had no score in the game before it (``jink_doubles_stake``).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from operator import add, sub
from typing import Any

from rules_engine.errors import N_, RulesError
from rules_engine.house_rules import HouseRules
from rules_engine.paper import PAPER, check_paper_score, read_paper_fields
from rules_engine.play import read_card_by_card
from rules_engine.records import (
    HAND_TRICKS,
    MISDEAL,
    REDEAL,
    HandFacts,
    check_redeal_allowed,
    read_dealer,
    read_flag_hand,
    read_trick_winners,
    stops_early,
)
from rules_engine.results import BestTrump, BidResult, HandResult, Renege, per_side
from rules_engine.scoring import decide_winner, expected_trick_count, score_hand
from rules_engine.seating import check_seating, seat_count_of


@dataclass(frozen=True, slots=True)
class GameState:
    """One moment of a game. Never changed in place: ``record`` returns a new state.

    ``totals`` and ``has_scored`` are per side; ``winner`` is a side index or None; ``sides`` lists
    each side's seats and ``side_of_seat`` maps a seat to its side.
    """

    rules: HouseRules
    seat_count: int
    sides: tuple[tuple[int, ...], ...]
    side_of_seat: tuple[int, ...]
    totals: tuple[int, ...]
    hands_played: int
    next_dealer: int
    finished: bool
    winner: int | None
    double_stake: bool
    first_dealer: int
    has_scored: tuple[bool, ...]

    @property
    def game(self) -> str:
        return self.rules.game

    @property
    def status(self) -> str:
        """api.md's game status: "finished" or "in_progress"."""
        return "finished" if self.finished else "in_progress"

    def record(self, hand: Mapping[str, Any]) -> tuple[HandResult, GameState]:
        """Check ``hand`` (a record of api.md, as a dict) and return its result and the state
        after it. Raises ``RulesError`` (nothing changes) when the record breaks a rule."""
        if self.finished:
            raise RulesError(
                "game_over",
                N_("the game is over: side %(winner)s won in hand %(hands_played)s"),
                params={"winner": self.winner, "hands_played": self.hands_played},
            )
        facts = read_hand(hand, self)
        return _apply(self, facts)

    def summary(self) -> dict[str, Any]:
        """The "game" object of api.md's 201 response."""
        return {
            "status": self.status,
            "winner": self.winner,
            "next_dealer": self.next_dealer,
            "double_stake": self.double_stake,
        }

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready: rules, seating, totals per side ({"0": ...}) and the summary fields."""
        return {
            "game": self.rules.game,
            "house_rules": self.rules.to_dict(),
            "seat_count": self.seat_count,
            "sides": [list(seats) for seats in self.sides],
            "first_dealer": self.first_dealer,
            "totals": per_side(self.totals),
            "hands_played": self.hands_played,
            **self.summary(),
        }


def new_game(
    game: str,
    seats: int | Sequence[object],
    *,
    sides: Sequence[Sequence[int]] | None = None,
    first_dealer: int = 0,
    rules: HouseRules | Mapping[str, Any] | None = None,
    totals: Sequence[int] | None = None,
) -> GameState:
    """A new game of ``game`` ("25", "45", "55", "110", "220", "auction45").

    ``seats``: the number of seats, or a sequence (its length counts). ``sides``: each side's
    seats (default: every seat its own side). ``rules``: a ``HouseRules`` for this game or a dict
    of overrides of its defaults. ``totals``: per-side scores carried in from a game begun on
    paper. Raises ``RulesError`` (invalid_seating, invalid_seat, invalid_house_rule,
    invalid_record).
    """
    if rules is None:
        rules = HouseRules.for_game(game)
    elif isinstance(rules, HouseRules):
        if rules.game != game:
            raise RulesError(
                "invalid_house_rule",
                N_("the house rules are for game %(game)s, not %(game2)s"),
                "/game",
                params={"game": rules.game, "game2": game},
            )
    elif isinstance(rules, Mapping):
        rules = HouseRules.for_game(
            game, **{key: value for key, value in rules.items() if key != "game" or value != game}
        )
    else:
        raise RulesError(
            "invalid_house_rule",
            N_("rules must be HouseRules or a dict of overrides, got %(name)s"),
            params={"name": type(rules).__name__},
        )
    seat_count = seat_count_of(seats)
    canonical_sides, side_of_seat = check_seating(rules, seat_count, sides)
    if type(first_dealer) is not int or not 0 <= first_dealer < seat_count:
        raise RulesError(
            "invalid_seat",
            N_("first dealer %(first_dealer)r: seats are 0 to %(value)s"),
            "/first_dealer",
            params={"first_dealer": first_dealer, "value": seat_count - 1},
        )
    start = _check_totals(totals, len(canonical_sides), rules.target)
    return GameState(
        rules=rules,
        seat_count=seat_count,
        sides=canonical_sides,
        side_of_seat=side_of_seat,
        totals=start,
        hands_played=0,
        next_dealer=first_dealer,
        finished=False,
        winner=None,
        double_stake=False,
        first_dealer=first_dealer,
        has_scored=tuple(total != 0 for total in start),
    )


def replay(
    initial: GameState, hands: Iterable[Mapping[str, Any]]
) -> list[tuple[HandResult, GameState]]:
    """Record ``hands`` one after the other from ``initial``: each hand's result and the state
    after it. An error's pointers are prefixed with the hand's index ("/3/tricks/2/1")."""
    outcomes = []
    state = initial
    for index, hand in enumerate(hands):
        try:
            result, state = state.record(hand)
        except RulesError as error:
            raise _prefixed(error, f"/{index}") from None
        outcomes.append((result, state))
    return outcomes


def read_hand(record: object, state: GameState) -> HandFacts:
    """Tell the record's shape apart and check it: the facts of the hand, or RulesError."""
    if type(record) is not dict and not isinstance(record, Mapping):
        raise RulesError(
            "invalid_record",
            N_("a hand record must be an object, got %(name)s"),
            params={"name": type(record).__name__},
        )
    dealer = read_dealer(record, state)
    if "paper_score" in record:
        read_paper_fields(record)
        facts = HandFacts(PAPER, dealer)
        facts.paper = check_paper_score(
            state.rules,
            record["paper_score"],
            totals_before=state.totals,
            has_scored=state.has_scored,
            winner=record.get("winner"),
        )
        return facts
    if "misdeal" in record:
        return read_flag_hand(record, "misdeal", MISDEAL, dealer)
    if "redeal" in record:
        check_redeal_allowed(state)
        return read_flag_hand(record, "redeal", REDEAL, dealer)
    if "tricks" in record:
        if "trick_winners" in record:
            raise RulesError(
                "invalid_record",
                N_("give either tricks (card by card) or trick_winners, not both"),
                "/trick_winners",
            )
        return read_card_by_card(record, state, dealer)
    if "trick_winners" in record:
        return read_trick_winners(record, state, dealer)
    if "bidding" in record and state.rules.is_bidding:
        # Everybody passed: a card-by-card record without play.
        return read_card_by_card(record, state, dealer)
    raise RulesError(
        "invalid_record",
        N_(
            'a hand needs "tricks" (card by card) or "trick_winners" (trick-winner entry), '
            'or is {"dealer": ..., "misdeal": true}'
        ),
    )


def _apply(state: GameState, facts: HandFacts) -> tuple[HandResult, GameState]:
    rules = state.rules
    side_count = len(state.sides)
    kind = facts.kind
    dealer = facts.dealer
    number = state.hands_played + 1
    if kind == MISDEAL or kind == REDEAL:
        nothing = (0,) * side_count
        result = HandResult(
            number, kind, dealer, None, (), nothing, None, None, (None,) * side_count
        )
        next_dealer = dealer if kind == MISDEAL else (dealer + 1) % state.seat_count
        return result, _next_state(state, state.totals, next_dealer, None, False, state.has_scored)
    if kind == PAPER:
        paper = facts.paper
        points = tuple(map(sub, paper.scores, state.totals))
        result = HandResult(
            number, kind, dealer, None, (), points, None, None, (None,) * side_count
        )
        has_scored = tuple(
            scored or total != 0
            for scored, total in zip(state.has_scored, paper.scores, strict=True)
        )
        return result, _next_state(
            state,
            paper.scores,
            (dealer + 1) % state.seat_count,
            paper.winner,
            paper.double_stake,
            has_scored,
        )

    winners = facts.trick_winners
    best = facts.best_trump
    bid = facts.bid
    renege = facts.renege
    side_of_seat = state.side_of_seat
    points, made, reached = score_hand(
        rules,
        side_of_seat,
        side_count,
        winners,
        None if best is None else best[2],
        bid,
        renege,
        state.totals,
    )
    void = renege is not None and rules.renege_penalty == "void_hand"
    if stops_early(state):
        _check_stop(state, facts, reached, void)
    totals = tuple(map(add, state.totals, points))
    winner = None
    double = False
    if reached.count(None) != side_count:
        bidder_side = None if bid is None else side_of_seat[bid[0]]
        winner = decide_winner(rules, totals, reached, bidder_side)
        if winner is not None and rules.jink_doubles_stake:
            double = (
                len(winners) == HAND_TRICKS
                and all(side_of_seat[seat] == winner for seat in winners)
                and not state.has_scored[winner]
            )
    result = HandResult(
        number,
        kind,
        dealer,
        facts.trump,
        winners,
        points,
        None if best is None else BestTrump(best[0], best[1], best[2]),
        None if bid is None else BidResult(bid[0], bid[1], made),
        reached,
        None if renege is None else Renege(renege[0], renege[1]),
        facts.rob_seat,
    )
    next_dealer = dealer if void else (dealer + 1) % state.seat_count
    has_scored = state.has_scored
    if False in has_scored:
        has_scored = tuple(
            scored or total != 0 for scored, total in zip(has_scored, totals, strict=True)
        )
    return result, _next_state(state, totals, next_dealer, winner, double, has_scored)


def _check_stop(
    state: GameState, facts: HandFacts, reached: tuple[int | None, ...], void: bool
) -> None:
    """A 25 hand stops at the trick where a side reaches the target, and only there."""
    count = len(facts.trick_winners)
    pointer = "/" + facts.shape
    target = state.rules.target
    if void:
        # Nobody scores a void hand, so it may have been abandoned at any trick after the renege.
        return
    expected = expected_trick_count(reached)
    if count > expected:
        side = next(side for side, moment in enumerate(reached) if moment == expected - 1)
        raise RulesError(
            "wrong_trick_count",
            N_(
                "side %(side)s reached %(target)s in trick %(expected)s, where the game ends, but "
                "%(count)s tricks are recorded"
            ),
            pointer,
            params={"side": side, "target": target, "expected": expected, "count": count},
        )
    if count < expected:
        raise RulesError(
            "wrong_trick_count",
            N_(
                "only %(count)s tricks are recorded, but no side reached %(target)s: a hand stops "
                "early only when a side reaches the target"
            ),
            pointer,
            params={"count": count, "target": target},
        )


def _next_state(
    state: GameState,
    totals: tuple[int, ...],
    next_dealer: int,
    winner: int | None,
    double_stake: bool,
    has_scored: tuple[bool, ...],
) -> GameState:
    # Positional arguments, in field order: measurably cheaper than keywords on this hot path.
    return GameState(
        state.rules,
        state.seat_count,
        state.sides,
        state.side_of_seat,
        totals,
        state.hands_played + 1,
        next_dealer,
        winner is not None,
        winner,
        double_stake,
        state.first_dealer,
        has_scored,
    )


def _check_totals(totals: object, side_count: int, target: int) -> tuple[int, ...]:
    if totals is None:
        return (0,) * side_count
    if not isinstance(totals, Sequence) or isinstance(totals, str) or len(totals) != side_count:
        raise RulesError(
            "invalid_record",
            N_("totals must list one score per side (%(side_count)s sides)"),
            "/totals",
            params={"side_count": side_count},
        )
    for side, total in enumerate(totals):
        if type(total) is not int:
            raise RulesError(
                "invalid_record",
                N_("side %(side)s's total must be a whole number"),
                f"/totals/{side}",
                params={"side": side},
            )
        if total >= target:
            raise RulesError(
                "invalid_record",
                N_(
                    "side %(side)s starts on %(total)s, at or past the target %(target)s: that "
                    "game is already over"
                ),
                f"/totals/{side}",
                params={"side": side, "total": total, "target": target},
            )
    return tuple(totals)


def _prefixed(error: RulesError, prefix: str) -> RulesError:
    singles = [
        RulesError(single.code, single.template, prefix + single.pointer, params=single.params)
        if single.template is not None
        else RulesError(single.code, single.detail, prefix + single.pointer)
        for single in error.errors
    ]
    if len(singles) == 1:
        return singles[0]
    combined = RulesError(error.code, error.detail, prefix + error.pointer, singles)
    combined.template = None  # translated one by one (config.problems.localized_detail)
    return combined
