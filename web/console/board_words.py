"""A refusal of the live board's hand or paper-score form, in the words of the people at the table.

What it does: ``in_names(problem, table, post)`` rewrites each error of a refused board entry
(the engine's details speak of 0-based seats, sides and tricks, for API clients) as the board
shows it beside that table: players and sides by name, hands and tricks counted from 1. The
errors the board's form can cause have their own sentences (a dealer out of turn, a best trump
whose trick another player took, a finished game); any other keeps the engine's sentence with each
"seat N" and "side N" replaced by the name (English and French wording).

What it does not do: check anything (the engine did) or decide where a message goes (the board's
``ProblemShown`` does, by pointer).
"""

from __future__ import annotations

import re

from django.utils.translation import gettext

from config.problems import Problem

# "seat 2", "la place 2"; "side 1" ("side 1's score"), "camp 1" ("du camp 1").
_SEAT = re.compile(r"\b(?:seat|la place|place)\s+(\d+)\b")
_SIDE = re.compile(r"\b(?:side|camp)\s+(\d+)\b")


def _seat_number(text) -> int | None:
    text = str(text or "").strip()
    return int(text) if text.isdigit() else None


def in_names(problem: Problem, table: dict, post) -> Problem:
    seats = {seat["seat"]: seat["name"] for seat in table["seats"]}
    sides = {side["index"]: side["name"] for side in table["sides"]}
    game = table["game"]

    def seat_name(number) -> str:
        return seats.get(number, "?")

    def replace(text: str) -> str:
        text = _SEAT.sub(lambda found: seat_name(int(found.group(1))), text)
        return _SIDE.sub(lambda found: sides.get(int(found.group(1)), found.group(0)), text)

    def sentence(entry: dict) -> str:
        code, pointer = entry.get("code"), entry.get("pointer") or ""
        if code == "wrong_dealer" and pointer == "/dealer":
            return gettext("%(typed)s does not deal hand %(number)s: %(dealer)s does.") % {
                "typed": seat_name(_seat_number(post.get("dealer"))),
                "number": game.hands_played + 1,
                "dealer": seat_name(game.next_dealer),
            }
        if code == "best_trump_mismatch" and pointer.startswith("/best_trump"):
            best = _seat_number(post.get("best_trump_seat"))
            trick = _seat_number(post.get("best_trump_trick")) or 1
            winner = _seat_number(post.get(f"trick_{trick - 1}"))
            if best is not None and winner is not None:
                return gettext(
                    "%(best)s played the best trump in trick %(trick)s, so %(best)s took that "
                    "trick; the form says %(winner)s took it."
                ) % {"best": seat_name(best), "trick": trick, "winner": seat_name(winner)}
        if code == "game_over":
            winner = sides.get(game.winner_side, "")
            return gettext("The game is over: %(winner)s won it. It takes no more hands.") % {
                "winner": winner
            }
        return replace(entry.get("detail") or "")

    errors = [{**entry, "detail": sentence(entry)} for entry in problem.errors]
    return Problem(
        code=problem.code,
        detail=errors[0]["detail"] if errors else replace(str(problem.detail)),
        errors=errors,
    )
