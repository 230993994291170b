"""House rules: the named, validated choices a club or tournament makes, with defaults per game.

What it does: ``HouseRules`` is one immutable value holding every key of the rules.md house-rules
table plus ``game``. ``HouseRules.for_game(game, **overrides)`` starts from that game's defaults;
``rules.replace(**overrides)`` derives a new value; ``to_dict`` / ``from_dict`` convert to and
from JSON-ready dicts. Every value is validated whichever way it arrives (the dataclass checks
itself on construction), so a ``HouseRules`` that exists is always valid.

What it does not do: apply the rules (scoring, bidding and play live in the other modules), name
sets of rules (``rules_engine.presets``), or store club defaults (the service does; it passes them
here as overrides).

Terms:
- *game*: one of ``GAMES``: "25", "45", "55", "110", "220", "auction45".
- *not applicable* key: a key marked "—" for a game in rules.md (say, ``bids`` in 45). Its value
  is None for that game and setting it to anything else is an ``invalid_house_rule`` error.
- *nullable* key: ``jink_bid``, ``made_thirty_scores``, ``min_bid_at_100`` take null ("no such
  rule") where they apply.

Errors: ``RulesError("invalid_house_rule", detail, "/<key>")``: the detail names the key and what
is allowed. Several bad keys give one ``RulesError`` whose ``errors`` lists each.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass, fields
from typing import Any

from rules_engine.errors import N_, RulesError
from rules_engine.order import DEFAULT_RENEGE_PRIVILEGE, PRIVILEGE_KEYS, canonical_privilege

GAMES: tuple[str, ...] = ("25", "45", "55", "110", "220", "auction45")
BIDDING_GAMES: frozenset[str] = frozenset({"55", "110", "220", "auction45"})
TURN_UP_GAMES: frozenset[str] = frozenset({"25", "45"})

GAME_END_VALUES = ("at_trick", "at_hand_end")
SIMULTANEOUS_FINISH_VALUES = ("higher_total", "first_to_reach", "bidder_first")
DEALER_ROBS_ACE_VALUES = ("may", "must")
ACE_OF_HEARTS_LEAD_VALUES = ("trump_lead", "trump_then_hearts")
ROB_DISCARD_VALUES = ("any_card", "not_the_ace")
ALL_PASS_VALUES = ("redeal", "dealer_stuck")
FIRST_LEAD_VALUES = ("left_of_dealer", "left_of_bidder")
RENEGE_PENALTY_VALUES = ("offender_scores_zero", "void_hand", "deduct")
MAX_KITTY = 5
# Upper bounds of the numbers a person types. The largest target a game uses is 220; a target of
# 10**30 would make a game that can never end, so targets (and every other score a rule names:
# bids, what a bid scores, a deduction) stop at MAX_POINTS, and a trick or the best trump is
# worth at most MAX_TRICK_POINTS (5 in every game).
MAX_POINTS = 1000
MAX_TRICK_POINTS = 100
MAX_BIDS = 20

_NULLABLE = frozenset({"jink_bid", "made_thirty_scores", "min_bid_at_100"})
_NOT_APPLICABLE_IN_TURN_UP_GAMES = frozenset(
    {
        "simultaneous_finish",
        "bids",
        "jink_bid",
        "made_thirty_scores",
        "min_bid_at_100",
        "dealer_may_hold",
        "all_pass",
        "kitty",
    }
)
NOT_APPLICABLE: dict[str, frozenset[str]] = {
    "25": _NOT_APPLICABLE_IN_TURN_UP_GAMES,
    # 45 counts at the end of the hand, so several sides can pass the target together.
    "45": _NOT_APPLICABLE_IN_TURN_UP_GAMES - {"simultaneous_finish"},
    "55": frozenset({"dealer_robs_ace", "rob_discard", "made_thirty_scores"}),
    "110": frozenset({"dealer_robs_ace", "rob_discard", "made_thirty_scores"}),
    "220": frozenset({"dealer_robs_ace", "rob_discard", "made_thirty_scores"}),
    "auction45": frozenset({"dealer_robs_ace", "rob_discard"}),
}
"""Per game, the keys marked "—" in rules.md: None there, and not settable."""

_COMMON_DEFAULTS: dict[str, Any] = {
    "trick_points": 5,
    "renege_privilege": DEFAULT_RENEGE_PRIVILEGE,
    "ace_of_hearts_follows_hearts": False,
    "first_lead": "left_of_dealer",
    "renege_penalty": "offender_scores_zero",
    "renege_deduction": 0,
    "simultaneous_finish": None,
    "dealer_robs_ace": None,
    "ace_of_hearts_lead": "trump_lead",
    "rob_discard": None,
    "jink_doubles_stake": False,
    "bids": None,
    "jink_bid": None,
    "made_thirty_scores": None,
    "min_bid_at_100": None,
    "dealer_may_hold": None,
    "all_pass": None,
    "kitty": None,
}
_BIDDING_55_DEFAULTS: dict[str, Any] = {
    "best_trump_bonus": 5,
    "game_end": "at_hand_end",
    "simultaneous_finish": "first_to_reach",
    "bids": (10, 15, 20, 25, 60),
    "jink_bid": 60,
    "min_bid_at_100": None,
    "dealer_may_hold": True,
    "all_pass": "redeal",
    "kitty": 5,
}
DEFAULTS: dict[str, dict[str, Any]] = {
    "25": {
        **_COMMON_DEFAULTS,
        "target": 25,
        "best_trump_bonus": 0,
        "game_end": "at_trick",
        "dealer_robs_ace": "may",
        "rob_discard": "any_card",
        "jink_doubles_stake": True,
    },
    "45": {
        **_COMMON_DEFAULTS,
        "target": 45,
        "best_trump_bonus": 5,
        "game_end": "at_hand_end",
        "simultaneous_finish": "higher_total",
        "dealer_robs_ace": "must",
        "rob_discard": "any_card",
    },
    "55": {**_COMMON_DEFAULTS, **_BIDDING_55_DEFAULTS, "target": 55},
    "110": {**_COMMON_DEFAULTS, **_BIDDING_55_DEFAULTS, "target": 110},
    "220": {**_COMMON_DEFAULTS, **_BIDDING_55_DEFAULTS, "target": 220},
    "auction45": {
        **_COMMON_DEFAULTS,
        "target": 120,
        "best_trump_bonus": 5,
        "game_end": "at_hand_end",
        "simultaneous_finish": "bidder_first",
        "bids": (15, 20, 25, 30),
        "jink_bid": None,
        "made_thirty_scores": 60,
        "min_bid_at_100": 20,
        "dealer_may_hold": True,
        "all_pass": "dealer_stuck",
        "kitty": 3,
        "first_lead": "left_of_bidder",
    },
}
"""Per game, the default value of every key (rules.md's table)."""


class _Invalid(Exception):
    """A value a key does not allow; the message says what is allowed (without the key name)."""


def _is_int(value: object) -> bool:
    # bool is a subclass of int; JSON true is not a number of points.
    return isinstance(value, int) and not isinstance(value, bool)


def _int_between(minimum: int, maximum: int) -> Callable[[object], int]:
    def check(value: object) -> int:
        if not _is_int(value) or not minimum <= value <= maximum:
            raise _Invalid(f"an integer from {minimum} to {maximum}")
        return value

    return check


def _boolean(value: object) -> bool:
    if not isinstance(value, bool):
        raise _Invalid("true or false")
    return value


def _one_of(allowed: tuple[str, ...]) -> Callable[[object], str]:
    def check(value: object) -> str:
        if not isinstance(value, str) or value not in allowed:
            raise _Invalid("one of " + ", ".join(allowed))
        return value

    return check


def _kitty(value: object) -> int:
    if not _is_int(value) or not 0 <= value <= MAX_KITTY:
        raise _Invalid(f"an integer from 0 to {MAX_KITTY}")
    return value


def _renege_privilege(value: object) -> frozenset[str]:
    allowed = "a list of distinct keys from 5, J, AH, A (possibly empty)"
    if not isinstance(value, list | tuple | set | frozenset):
        raise _Invalid(allowed)
    keys = frozenset(value) if all(isinstance(key, str) for key in value) else None
    if keys is None or not keys <= set(PRIVILEGE_KEYS) or len(keys) != len(value):
        raise _Invalid(allowed)
    return canonical_privilege(keys)


def _bids(value: object) -> tuple[int, ...]:
    allowed = (
        f"a non-empty list of at most {MAX_BIDS} integers from 1 to {MAX_POINTS} in strictly "
        "increasing order"
    )
    if not isinstance(value, list | tuple) or not value or len(value) > MAX_BIDS:
        raise _Invalid(allowed)
    if not all(_is_int(bid) and 0 < bid <= MAX_POINTS for bid in value):
        raise _Invalid(allowed)
    if any(later <= earlier for earlier, later in zip(value, value[1:], strict=False)):
        raise _Invalid(allowed)
    return tuple(value)


_VALIDATORS: dict[str, Callable[[object], Any]] = {
    "target": _int_between(1, MAX_POINTS),
    "trick_points": _int_between(0, MAX_TRICK_POINTS),
    "best_trump_bonus": _int_between(0, MAX_TRICK_POINTS),
    "game_end": _one_of(GAME_END_VALUES),
    "simultaneous_finish": _one_of(SIMULTANEOUS_FINISH_VALUES),
    "renege_privilege": _renege_privilege,
    "ace_of_hearts_follows_hearts": _boolean,
    "dealer_robs_ace": _one_of(DEALER_ROBS_ACE_VALUES),
    "ace_of_hearts_lead": _one_of(ACE_OF_HEARTS_LEAD_VALUES),
    "rob_discard": _one_of(ROB_DISCARD_VALUES),
    "jink_doubles_stake": _boolean,
    "bids": _bids,
    "jink_bid": _int_between(1, MAX_POINTS),  # and one of bids: checked across keys below
    "made_thirty_scores": _int_between(0, MAX_POINTS),
    "min_bid_at_100": _int_between(1, MAX_POINTS),  # and one of bids: checked across keys below
    "dealer_may_hold": _boolean,
    "all_pass": _one_of(ALL_PASS_VALUES),
    "kitty": _kitty,
    "first_lead": _one_of(FIRST_LEAD_VALUES),
    "renege_penalty": _one_of(RENEGE_PENALTY_VALUES),
    "renege_deduction": _int_between(0, MAX_POINTS),
}
ALL_KEYS: tuple[str, ...] = tuple(_VALIDATORS)
"""Every house-rule key, in rules.md's order (``game`` is not one of them)."""

OPTIONAL_AT_DEFAULT: dict[str, tuple[object, ...]] = {
    "ace_of_hearts_lead": ("trump_lead",),
    "rob_discard": ("any_card", None),
}
"""Keys added after house rules were first stored (the classic app's options): ``to_dict``
leaves them out while they hold their default, so every stored or served set of rules written
before they existed reads the same. ``from_dict`` accepts them either way."""

KEYS: tuple[str, ...] = tuple(key for key in ALL_KEYS if key not in OPTIONAL_AT_DEFAULT)
"""The keys ``to_dict`` always writes, in rules.md's order (``ALL_KEYS`` less
``OPTIONAL_AT_DEFAULT``)."""

CHOICES: dict[str, tuple[str, ...]] = {
    "game_end": GAME_END_VALUES,
    "simultaneous_finish": SIMULTANEOUS_FINISH_VALUES,
    "dealer_robs_ace": DEALER_ROBS_ACE_VALUES,
    "ace_of_hearts_lead": ACE_OF_HEARTS_LEAD_VALUES,
    "rob_discard": ROB_DISCARD_VALUES,
    "all_pass": ALL_PASS_VALUES,
    "first_lead": FIRST_LEAD_VALUES,
    "renege_penalty": RENEGE_PENALTY_VALUES,
}
"""The keys that take one of a few words, with the words allowed (for forms)."""


def shown(value: object) -> str:
    """A value as the client wrote it: JSON where possible (true, null, ["5"]), else repr."""
    try:
        return json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError):
        return repr(value)


def _error(key: str, detail: str) -> RulesError:
    return RulesError(
        "invalid_house_rule",
        N_("%(key)s: %(detail)s"),
        f"/{key}",
        params={"key": key, "detail": detail},
    )


@dataclass(frozen=True)
class HouseRules:
    """The house rules one game is played under. Construction validates every field."""

    game: str
    target: int
    trick_points: int
    best_trump_bonus: int
    game_end: str
    simultaneous_finish: str | None
    renege_privilege: frozenset[str]
    ace_of_hearts_follows_hearts: bool
    dealer_robs_ace: str | None
    jink_doubles_stake: bool
    bids: tuple[int, ...] | None
    jink_bid: int | None
    made_thirty_scores: int | None
    min_bid_at_100: int | None
    dealer_may_hold: bool | None
    all_pass: str | None
    kitty: int | None
    first_lead: str
    renege_penalty: str
    renege_deduction: int
    # Declared last so that existing positional construction keeps its meaning; ``KEYS`` (and
    # so ``to_dict``) lists them in rules.md's order, after dealer_robs_ace.
    ace_of_hearts_lead: str = "trump_lead"
    rob_discard: str | None = None

    def __post_init__(self) -> None:
        if not isinstance(self.game, str) or self.game not in GAMES:
            raise _error("game", f"unknown game {shown(self.game)}; allowed: {', '.join(GAMES)}")
        errors: list[RulesError] = []
        not_applicable = NOT_APPLICABLE[self.game]
        if self.rob_discard is None and "rob_discard" not in not_applicable:
            # Built from a dict written before the option existed: the default applies.
            object.__setattr__(self, "rob_discard", "any_card")
        for key, validate in _VALIDATORS.items():
            value = getattr(self, key)
            if key in not_applicable:
                if value is not None:
                    errors.append(_error(key, f"does not apply to game {self.game}; leave it out"))
                continue
            if value is None and key in _NULLABLE:
                continue
            try:
                normalised = validate(value)
            except _Invalid as invalid:
                nullable = " or null" if key in _NULLABLE else ""
                errors.append(_error(key, f"got {shown(value)}; allowed: {invalid}{nullable}"))
                continue
            # Normalise JSON-friendly input (lists) to the immutable forms (tuple, frozenset).
            object.__setattr__(self, key, normalised)
        errors.extend(self._cross_key_errors({error.pointer for error in errors}))
        if errors:
            raise RulesError.combine(errors)

    def _cross_key_errors(self, bad_pointers: set[str]) -> list[RulesError]:
        """Rules that relate two keys; skipped when a key involved is itself already wrong."""
        errors = []
        if self.bids is not None and "/bids" not in bad_pointers:
            allowed_bids = ", ".join(str(bid) for bid in self.bids)
            for key in ("jink_bid", "min_bid_at_100"):
                value = getattr(self, key)
                if value is not None and f"/{key}" not in bad_pointers and value not in self.bids:
                    errors.append(
                        _error(
                            key,
                            f"got {shown(value)}; allowed: null or one of bids ({allowed_bids})",
                        )
                    )
        if self.first_lead == "left_of_bidder" and self.game not in BIDDING_GAMES:
            errors.append(
                _error("first_lead", f"left_of_bidder needs a bidding game, not game {self.game}")
            )
        return errors

    @classmethod
    def for_game(cls, game: str, /, **overrides: Any) -> HouseRules:
        """The defaults of ``game`` with ``overrides`` applied (validated).

        ``game`` is positional-only so that an override named "game" (or "cls") reaches the
        validation below as an ordinary bad key instead of a ``TypeError``."""
        if "game" in overrides:
            raise _error("game", "is not a house rule; pass the game as the first argument")
        if not isinstance(game, str) or game not in GAMES:
            raise _error("game", f"unknown game {shown(game)}; allowed: {', '.join(GAMES)}")
        return _build(cls, {"game": game, **DEFAULTS[game]}, overrides)

    def replace(self, **overrides: Any) -> HouseRules:
        """A copy with ``overrides`` applied (validated like ``for_game``). The game stays."""
        if "game" in overrides:
            raise _error("game", "cannot be changed; start from HouseRules.for_game instead")
        values = {field.name: getattr(self, field.name) for field in fields(self)}
        return _build(type(self), values, overrides)

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready: lists instead of tuples and sets, ``renege_privilege`` in the order 5, J,
        AH, A, and "game" included; the ``OPTIONAL_AT_DEFAULT`` keys only when not at their
        default. ``from_dict`` reads it back."""
        result: dict[str, Any] = {"game": self.game}
        for key in ALL_KEYS:
            value = getattr(self, key)
            if key in OPTIONAL_AT_DEFAULT and value in OPTIONAL_AT_DEFAULT[key]:
                continue
            if key == "renege_privilege":
                value = [privilege for privilege in PRIVILEGE_KEYS if privilege in value]
            elif isinstance(value, tuple):
                value = list(value)
            result[key] = value
        return result

    @classmethod
    def from_dict(cls, data: object) -> HouseRules:
        """The rules described by ``data``: "game" plus any keys (missing ones take the game's
        defaults). Not-applicable keys may be present as null, as ``to_dict`` writes them."""
        if not isinstance(data, Mapping):
            raise RulesError(
                "invalid_house_rule",
                N_("house rules must be an object with a game, got %(name)s"),
                params={"name": type(data).__name__},
            )
        if "game" not in data:
            raise _error("game", f"missing; allowed: {', '.join(GAMES)}")
        overrides = {key: value for key, value in data.items() if key != "game"}
        return cls.for_game(data["game"], **overrides)

    @property
    def is_bidding(self) -> bool:
        """55, 110, 220 and auction45: bids, a kitty, trumps named by the bidder."""
        return self.game in BIDDING_GAMES

    @property
    def has_turn_up(self) -> bool:
        """25 and 45: a turned-up card fixes trumps and may be robbed."""
        return self.game in TURN_UP_GAMES


def _build(
    cls: type[HouseRules], values: dict[str, Any], overrides: Mapping[str, Any]
) -> HouseRules:
    """``cls(**values)`` with ``overrides`` applied; unknown keys and bad values reported as one."""
    errors = [
        _error(str(key), f"unknown house rule; known keys: {', '.join(ALL_KEYS)}")
        for key in overrides
        if key not in _VALIDATORS
    ]
    known = {key: value for key, value in overrides.items() if key in _VALIDATORS}
    try:
        rules = cls(**{**values, **known})
    except RulesError as error:
        errors.extend(error.errors)
    if errors:
        raise RulesError.combine(errors)
    return rules
