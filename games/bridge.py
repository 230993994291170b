"""The one place where games meet the rules engine: load engine state from a game row, save it back.

What it does: builds the engine's immutable ``GameState`` from the fields stored on a ``Game``
(``state_of``: frozen house rules, seating, totals, hands played, next dealer,
finished/winner/double stake and the engine's extra ``has_scored`` flags) without reading any
hand, records a hand on it (``play``, ``play_state``), and turns the state after a hand into the
``Game`` fields to store (``fields_of``). This is what keeps the cost of recording a hand
independent of the number of hands already played. It also freezes house rules for a new game
(``freeze_rules``) and starts one (``start``; ``start_for``: a game's state before its first
hand, for replays), keeps each distinct set of frozen rules validated once (``rules_of``, a
bounded cache), and maps seating errors to the API's field names (``seating_problem``: the
engine says "/sides", the API calls them "/teams").

What it does not do: touch the database (services do) or check anything itself (the engine does).

Terms: *fields* — the dict of ``Game`` column values that describe the engine state:
``totals``, ``hands_played``, ``next_dealer``, ``status``, ``winner_side``, ``double_stake``,
``engine_state``. The same dict is stored with each hand (``Hand.state_after``) so that undoing a
hand restores the state before it without replaying.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from config.problems import Problem, rules_error_to_problem
from rules_engine import GameState, HouseRules, RulesError, new_game

_RULES_CACHE: dict[str, HouseRules] = {}
_RULES_CACHE_LIMIT = 256


def freeze_rules(game: str, overrides: dict) -> dict:
    """The full rules of ``game`` with ``overrides`` applied, JSON-ready; RulesError if invalid."""
    return HouseRules.for_game(game, **overrides).to_dict()


def rules_of(game) -> HouseRules:
    """The game's frozen house rules as the engine's value (validated once per distinct rules)."""
    key = json.dumps(game.house_rules, sort_keys=True)
    rules = _RULES_CACHE.get(key)
    if rules is None:
        rules = HouseRules.from_dict(game.house_rules)
        if len(_RULES_CACHE) >= _RULES_CACHE_LIMIT:
            _RULES_CACHE.clear()
        _RULES_CACHE[key] = rules
    return rules


def fields_of(state: GameState) -> dict[str, Any]:
    """The ``Game`` field values describing ``state`` (see the module docstring)."""
    return {
        "totals": list(state.totals),
        "hands_played": state.hands_played,
        "next_dealer": state.next_dealer,
        "status": state.status,
        "winner_side": state.winner,
        "double_stake": state.double_stake,
        "engine_state": {"has_scored": list(state.has_scored)},
    }


@dataclass(frozen=True)
class Start:
    """A new game's seating as the engine accepted it, and its initial fields."""

    sides: list[list[int]]
    side_of_seat: list[int]
    fields: dict[str, Any]


def start(*, rules: dict, seat_count: int, sides, first_dealer: int) -> Start:
    """Check the seating of a new game; RulesError (invalid_seating, invalid_seat, ...) if bad."""
    state = new_game(
        rules["game"],
        seat_count,
        sides=sides,
        first_dealer=first_dealer,
        rules=HouseRules.from_dict(rules),
    )
    fields = fields_of(state)
    fields["side_of_seat"] = list(state.side_of_seat)
    return Start(
        sides=[list(seats) for seats in state.sides],
        side_of_seat=list(state.side_of_seat),
        fields=fields,
    )


def seating_problem(error: RulesError) -> Problem:
    """A 400 problem for a seating error, with the engine's "/sides" pointers as "/teams"."""
    renamed = RulesError.combine(
        [
            RulesError(
                single.code,
                single.template if single.template is not None else single.detail,
                "/teams" + single.pointer.removeprefix("/sides")
                if single.pointer.startswith("/sides")
                else single.pointer,
                params=single.params if single.template is not None else None,
            )
            for single in error.errors
        ]
    )
    return rules_error_to_problem(renamed)


def _sides_of(side_of_seat: list[int]) -> tuple[tuple[int, ...], ...]:
    sides: dict[int, list[int]] = {}
    for seat, side in enumerate(side_of_seat):
        sides.setdefault(side, []).append(seat)
    return tuple(tuple(sides[index]) for index in sorted(sides))


def state_of(game) -> GameState:
    """The engine state stored on the game row (no query, no replay)."""
    side_of_seat = tuple(game.side_of_seat)
    totals = tuple(game.totals)
    has_scored = (game.engine_state or {}).get("has_scored")
    return GameState(
        rules_of(game),
        len(side_of_seat),
        _sides_of(game.side_of_seat),
        side_of_seat,
        totals,
        game.hands_played,
        game.next_dealer,
        game.status == "finished",
        game.winner_side,
        game.double_stake,
        game.first_dealer,
        tuple(has_scored) if has_scored is not None else tuple(total != 0 for total in totals),
    )


def start_for(game) -> GameState:
    """The game's state before its first hand (for replays and for undoing hand 1)."""
    return new_game(
        game.variant,
        len(game.side_of_seat),
        sides=_sides_of(game.side_of_seat),
        first_dealer=game.first_dealer,
        rules=rules_of(game),
    )


def play_state(state: GameState, record: dict) -> tuple[GameState, dict, dict]:
    """Record ``record`` on ``state``: ``(state after, fields after, result dict)``."""
    result, after = state.record(record)
    return after, fields_of(after), result.to_dict()


def play(game, record: dict) -> tuple[dict, dict]:
    """Record ``record`` as the game's next hand: ``(fields after, result dict)``."""
    _, fields, result = play_state(state_of(game), record)
    return fields, result
