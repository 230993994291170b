"""The re-play of an exchange document's games, shared by the night's import and the event's.

What it does: each game of a file is started here with its seats, sides, first dealer, stake and
frozen house rules (``start_game``: ``games.services.create_game``, the same service as the API,
linked to its night's table or its match by the caller's terms), and every hand re-played
through ``games.services.record_hand`` as an organiser's entry (``play_hands``); the game is
then checked against the file (``check_replay``: totals, status and winner, else 422
``exchange_replay_differs``). A game imported before is brought to the file's hands
(``update_game``: ``correct_hand`` for a hand whose record differs, ``undo_last_hand`` for the
hands the file no longer has, new ones recorded). ``game_conflicts`` compares the file's games
with the *source-id memory* of the first import (``{source game id: {"game": local id,
"version": the game's version after the import}}``): a game changed here, added to or removed
from the file, or re-seated is a conflict (``{"code", "detail", "pointer"}``), never merged.
``at(where, call, ...)`` re-points a service's refusal into the file.

What it does not do: decide what a game belongs to (the night's import gives its table, the
event's import its match), or raise the conflicts it lists (the callers, in their transaction).

Terms: *source id* — a game's id at the origin; pointers are into the file (``/games/2``).
"""

from __future__ import annotations

from django.utils.translation import gettext

from config.problems import Problem
from exchange.checks import pointer
from games import services as game_services
from games.models import Game, Hand
from games.money import decimal_string_to_minor
from rules_engine import canonical_record


def minor(amount: str | None, club) -> int | None:
    return None if amount is None else decimal_string_to_minor(amount, club.minor_unit_exponent)


def at(where: str, call, *args, **kwargs):
    """``call(...)``; a refusal is re-pointed into the file (``where`` + the service's pointer)."""
    try:
        return call(*args, **kwargs)
    except Problem as problem:
        problem.errors = [
            {**error, "pointer": where + (error.get("pointer") or "")} for error in problem.errors
        ]
        raise


def mark_fees(section: str, mark_entry_fee, *, fees: list, players: dict, club, user, **target):
    """Mark the file's door fees (``/<section>/fees``) with the night's or the event's service."""
    for index, fee in enumerate(fees):
        at(
            pointer(section, "fees", index),
            mark_entry_fee,
            user=user,
            player_id=players[fee["player"]].pk,
            status=fee["status"],
            amount_minor=minor(fee["amount"], club),
            **target,
        )


def teams_of(game: dict) -> list[list[int]] | None:
    """Each side's seats (None when every seat plays for itself)."""
    sides: dict[int, list[int]] = {}
    for seat in sorted(game["seats"], key=lambda seat: seat["seat"]):
        sides.setdefault(seat["side"], []).append(seat["seat"])
    if all(len(seats) == 1 for seats in sides.values()):
        return None
    return [sides[side] for side in sorted(sides)]


def seat_ids(game: dict, players: dict) -> list[int]:
    return [players[seat["player"]].pk for seat in sorted(game["seats"], key=lambda s: s["seat"])]


def game_terms(item: dict, players: dict, club, user) -> dict:
    """The keyword arguments of ``games.services.create_game`` for the file's game ``item``."""
    return {
        "user": user,
        "game": item["game"],
        "seat_player_ids": seat_ids(item, players),
        "teams": teams_of(item),
        "first_dealer": item["first_dealer"],
        "stake_minor": minor(item["stake"], club),
        # The frozen rules name their game; the game is passed on its own.
        "house_rules": {k: v for k, v in item["house_rules"].items() if k != "game"},
    }


def check_replay(game: Game, item: dict, index: int) -> None:
    """422 ``exchange_replay_differs`` (pointer to the game) unless ``game`` re-played to the
    file's totals, status and winner."""
    game.refresh_from_db()
    if (
        game.totals != item["totals"]
        or game.status != item["status"]
        or (game.winner_side != item["winner_side"])
    ):
        raise Problem(
            code="exchange_replay_differs",
            pointer=pointer("games", index),
            detail=gettext(
                "Game %(game)s re-played here ends at %(here)s (%(status)s), not at %(file)s "
                "as the file says."
            )
            % {
                "game": item["id"],
                "here": game.totals,
                "status": game.status,
                "file": item["totals"],
            },
        )


def play_hands(game_id: int, hands: list[dict], index: int, user, first: int = 0) -> None:
    """Record the file's ``hands`` from position ``first`` on, as an organiser's entry."""
    for position in range(first, len(hands)):
        at(
            pointer("games", index, "hands", position),
            game_services.record_hand,
            game_id=game_id,
            user=user,
            record=hands[position]["record"],
            number=position + 1,
            organiser_entry=True,
        )


def replay_game(game: Game, item: dict, index: int, user) -> dict:
    """Play the file's hands on the new ``game`` and check it; its source-id memory row."""
    play_hands(game.pk, item["hands"], index, user)
    check_replay(game, item, index)
    return {"game": game.pk, "version": game.version}


def game_conflicts(memory: dict, document: dict) -> list[dict]:
    """Games changed here since their import, added to the file or missing from it."""
    conflicts = []
    in_file = {str(item["id"]): index for index, item in enumerate(document["games"])}
    versions = dict(
        Game.objects.filter(pk__in=[row["game"] for row in memory.values()]).values_list(
            "pk", "version"
        )
    )
    for source, row in memory.items():
        if source not in in_file:
            conflicts.append(
                {
                    "code": "exchange_game_removed",
                    "pointer": "/games",
                    "detail": gettext("Game %(game)s of the first import is not in the file.")
                    % {"game": source},
                }
            )
        elif versions.get(row["game"]) != row["version"]:
            conflicts.append(
                {
                    "code": "exchange_changed_here",
                    "pointer": pointer("games", in_file[source]),
                    "detail": gettext(
                        "Game %(game)s was changed here after it was imported: correct it here, "
                        "or undo the change, then import again."
                    )
                    % {"game": row["game"]},
                }
            )
    for source, index in in_file.items():
        if source not in memory:
            conflicts.append(
                {
                    "code": "exchange_game_added",
                    "pointer": pointer("games", index),
                    "detail": gettext("This game was not in the first import."),
                }
            )
    return conflicts


def _reseated(game: Game, item: dict, players: dict, club) -> bool:
    seats = [(seat.seat, seat.player_id, seat.side) for seat in game.seats.order_by("seat")]
    wanted = sorted(
        (seat["seat"], players[seat["player"]].pk, seat["side"]) for seat in item["seats"]
    )
    return (
        seats != wanted
        or game.variant != item["game"]
        or game.first_dealer != item["first_dealer"]
        or game.stake_minor != minor(item["stake"], club)
    )


def stored_games(memory: dict) -> dict[int, Game]:
    return {
        game.pk: game
        for game in Game.objects.filter(pk__in=[row["game"] for row in memory.values()])
    }


def reseated_conflicts(memory: dict, games: dict, document: dict, players: dict, club) -> list:
    """The file's games whose seats, game, first dealer or stake differ from the stored ones."""
    conflicts = []
    for index, item in enumerate(document["games"]):
        row = memory.get(str(item["id"]))
        stored = games.get(row["game"]) if row is not None else None
        # A game deleted here since is already a conflict (its version is gone).
        if stored is not None and _reseated(stored, item, players, club):
            conflicts.append(
                {
                    "code": "exchange_game_reseated",
                    "pointer": pointer("games", index),
                    "detail": gettext(
                        "The game's seats, game, first dealer or stake differ from the first "
                        "import: a stored game is not re-seated."
                    ),
                }
            )
    return conflicts


def update_game(game: Game, item: dict, index: int, user) -> bool:
    """Bring the stored game to the file's hands; True when anything changed."""
    stored = list(
        Hand.objects.filter(game=game).order_by("number").values_list("record", flat=True)
    )
    wanted = [canonical_record(hand["record"]) for hand in item["hands"]]
    if stored == wanted:
        return False
    while len(stored) > len(wanted):
        game.refresh_from_db()
        at(
            pointer("games", index, "hands"),
            game_services.undo_last_hand,
            game_id=game.pk,
            number=len(stored),
            user=user,
            if_match=game.etag,
            organiser_entry=True,
        )
        stored.pop()
    for position, record in enumerate(stored):
        if record != wanted[position]:
            game.refresh_from_db()
            at(
                pointer("games", index, "hands", position),
                game_services.correct_hand,
                game_id=game.pk,
                number=position + 1,
                user=user,
                record=item["hands"][position]["record"],
                if_match=game.etag,
                organiser_entry=True,
            )
    play_hands(game.pk, item["hands"], index, user, first=len(stored))
    return True


def update_games(memory: dict, games: dict, document: dict, user) -> int:
    """Bring every stored game to the file's (after the conflicts were checked); the number of
    games changed. ``memory``'s versions follow."""
    changed = 0
    for index, item in enumerate(document["games"]):
        row = memory[str(item["id"])]
        game = games[row["game"]]
        if update_game(game, item, index, user):
            changed += 1
            check_replay(game, item, index)
            row["version"] = game.version
    return changed


def fees_conflict(fees: list[list], imported_fees: list, where: str) -> list[dict]:
    """``exchange_fees_changed`` when the file's fees differ from the first import's."""
    if fees == imported_fees:
        return []
    return [
        {
            "code": "exchange_fees_changed",
            "pointer": where,
            "detail": gettext("The fees differ from the first import: mark them here."),
        }
    ]


def conflicts_problem(conflicts: list[dict]) -> Problem:
    """409 ``exchange_conflict`` listing ``conflicts``."""
    return Problem(
        code="exchange_conflict",
        detail=gettext(
            "The file contradicts what this club holds: %(count)s conflict(s), nothing was stored."
        )
        % {"count": len(conflicts)},
        errors=conflicts,
    )
