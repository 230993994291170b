"""Command line: check a file of hand records for one game, e.g. a club's exported score sheet.

What it does: ``python -m rules_engine --game 45 FILE`` reads FILE (a JSON list of hand
records, one record, or JSON lines: one record per line; "-" reads standard input), records the
hands one after the other in a new game, and prints each hand's result or each error (code, JSON
pointer, detail), then the final totals and the winner. Exit status: 0 when every hand is
valid, 1 when any hand (or the file) is not, 2 for a bad command line (unknown game, bad seating
or house rules).

Options: ``--seats N`` (default: counted from ``--sides`` or from the first record's deal or
trick), ``--sides JSON`` (each side's seats, e.g. "[[0,2],[1,3]]"), ``--first-dealer N``
(default: the first record's dealer), ``--rules JSON`` (house-rule overrides, e.g.
'{"renege_privilege": ["5"]}'), ``--totals JSON`` (scores carried in), ``--json`` (print one JSON
object per line instead of text).

What it does not do: store anything. A hand with an error is skipped: the hands after it are
checked against the game as it stood before it.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from typing import Any, TextIO

from rules_engine.errors import RulesError
from rules_engine.game import GameState, new_game
from rules_engine.house_rules import GAMES
from rules_engine.results import HandResult


class _UsageError(Exception):
    """A bad command line; argparse-like exit status 2."""


def main(argv: Sequence[str] | None = None, output: TextIO | None = None) -> int:
    """Run the command; returns the exit status (``output`` defaults to standard output)."""
    output = output or sys.stdout
    parser = _parser()
    arguments = parser.parse_args(argv)
    try:
        hands = _read_hands(arguments.file)
    except RulesError as error:
        _print_error(output, arguments.json, None, error)
        return 1
    try:
        state = _start(arguments, hands)
    except (_UsageError, RulesError) as error:
        detail = f"{error.code}: {error.detail}" if isinstance(error, RulesError) else str(error)
        parser.print_usage(sys.stderr)
        print(f"{parser.prog}: error: {detail}", file=sys.stderr)
        return 2

    failed = False
    for number, hand in enumerate(hands, start=1):
        try:
            result, state = state.record(hand)
        except RulesError as error:
            failed = True
            _print_error(output, arguments.json, number, error)
            continue
        _print_result(output, arguments.json, number, result, state)
    _print_final(output, arguments.json, state)
    return 1 if failed else 0


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m rules_engine",
        description="Check a file of hand records (a JSON list, or JSON lines) for one game.",
    )
    parser.add_argument("--game", required=True, choices=GAMES)
    parser.add_argument("file", help='the hand records; "-" for standard input')
    parser.add_argument("--seats", type=int, help="number of seats")
    parser.add_argument("--sides", type=json.loads, help='each side\'s seats, e.g. "[[0,2],[1,3]]"')
    parser.add_argument("--first-dealer", type=int, help="the first dealer's seat")
    parser.add_argument("--rules", type=json.loads, help="house-rule overrides as a JSON object")
    parser.add_argument("--totals", type=json.loads, help="per-side totals carried in, JSON list")
    parser.add_argument("--json", action="store_true", help="print JSON lines instead of text")
    return parser


def _read_hands(path: str) -> list[Any]:
    try:
        if path == "-":
            text = sys.stdin.read()
        else:
            with open(path, encoding="utf-8") as file:
                text = file.read()
    except OSError as error:
        raise RulesError("invalid_record", f"cannot read {path}: {error.strerror}") from None
    stripped = text.strip()
    if not stripped:
        return []
    try:
        whole = json.loads(stripped)
    except json.JSONDecodeError as error:
        if stripped.startswith("["):
            raise RulesError(
                "invalid_record", f"{path} is not valid JSON: {error.msg} at line {error.lineno}"
            ) from None
    else:
        if isinstance(whole, list):
            return whole
        if isinstance(whole, dict):
            return [whole]
        raise RulesError(
            "invalid_record", f"{path} must hold a list of hand records, or one record per line"
        )
    hands = []
    for line_number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        try:
            hands.append(json.loads(line))
        except json.JSONDecodeError as error:
            raise RulesError(
                "invalid_record",
                f"{path} line {line_number} is not a JSON hand record: {error.msg}",
            ) from None
    return hands


def _start(arguments: argparse.Namespace, hands: list[Any]) -> GameState:
    seats = arguments.seats
    if seats is None and arguments.sides is not None:
        if not isinstance(arguments.sides, list) or not all(
            isinstance(side, list) for side in arguments.sides
        ):
            raise _UsageError("--sides must be a JSON list of lists of seats")
        seats = sum(len(side) for side in arguments.sides)
    if seats is None:
        seats = _seats_from_records(hands)
    if seats is None:
        raise _UsageError("give --seats: no record has a deal or a trick to count the seats from")
    first_dealer = arguments.first_dealer
    if first_dealer is None:
        first = hands[0] if hands else None
        dealer = first.get("dealer") if isinstance(first, dict) else None
        first_dealer = dealer if type(dealer) is int and 0 <= dealer < seats else 0
    if arguments.rules is not None and not isinstance(arguments.rules, dict):
        raise _UsageError("--rules must be a JSON object of house-rule overrides")
    return new_game(
        arguments.game,
        seats,
        sides=arguments.sides,
        first_dealer=first_dealer,
        rules=arguments.rules,
        totals=arguments.totals,
    )


def _seats_from_records(hands: list[Any]) -> int | None:
    for hand in hands:
        if not isinstance(hand, dict):
            continue
        deal = hand.get("deal")
        if isinstance(deal, list) and deal:
            return len(deal)
        tricks = hand.get("tricks")
        if isinstance(tricks, list) and tricks:
            trick = tricks[0]
            cards = trick.get("cards") if isinstance(trick, dict) else trick
            if isinstance(cards, list) and cards:
                return len(cards)
    return None


def _per_side(values: Sequence[object]) -> str:
    return " ".join(f"{side}:{value}" for side, value in enumerate(values))


def _print_result(
    output: TextIO, as_json: bool, number: int, result: HandResult, state: GameState
) -> None:
    if as_json:
        payload = {
            "hand": number,
            "result": result.to_dict(),
            "totals": state.to_dict()["totals"],
            "game": state.summary(),
        }
        print(json.dumps(payload), file=output)
        return
    parts = [f"hand {number}: {result.kind}, dealer {result.dealer}"]
    if result.trump is not None:
        parts.append(f"trumps {result.trump}")
    if result.trick_winners:
        parts.append("trick winners " + " ".join(map(str, result.trick_winners)))
    if result.bid is not None:
        made = {True: "made", False: "set", None: "void"}[result.bid.made]
        parts.append(f"bid {result.bid.amount} by seat {result.bid.seat} {made}")
    if result.best_trump is not None:
        card = "" if result.best_trump.card is None else f" {result.best_trump.card}"
        parts.append(f"best trump{card} by seat {result.best_trump.seat}")
    parts.append(f"points {_per_side(result.points)}")
    parts.append(f"totals {_per_side(state.totals)}")
    print(", ".join(parts), file=output)


def _print_error(output: TextIO, as_json: bool, number: int | None, error: RulesError) -> None:
    if as_json:
        print(json.dumps({"hand": number, "errors": error.as_list()}), file=output)
        return
    where = "file" if number is None else f"hand {number}"
    for single in error.errors:
        pointer = f" at {single.pointer}" if single.pointer else ""
        print(f"{where}: ERROR {single.code}{pointer}: {single.detail}", file=output)


def _print_final(output: TextIO, as_json: bool, state: GameState) -> None:
    if as_json:
        print(json.dumps({"final": state.to_dict()}), file=output)
        return
    hands = "1 hand" if state.hands_played == 1 else f"{state.hands_played} hands"
    line = f"final after {hands}: totals {_per_side(state.totals)}; "
    if state.finished:
        seats = ", ".join(map(str, state.sides[state.winner]))
        line += f"side {state.winner} (seats {seats}) won"
        if state.double_stake:
            line += ", double stakes"
    else:
        line += f"game in progress, seat {state.next_dealer} deals next"
    print(line, file=output)


if __name__ == "__main__":
    sys.exit(main())
