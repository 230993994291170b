"""Import an exchange document into a club (docs/exchange.md): idempotent, all or nothing.

What it does: ``import_document(club=, user=, document=, document_hash=)`` checks the document
(``exchange.checks``), then in one transaction (the club's row locked, so two imports of one
club run one after the other):
- maps its players (``exchange.players``: the import mapping, new names become club players);
- a night seen for the first time is opened, its games started at their tables and every hand
  re-played through ``games.services.record_hand`` (an organiser's entry: the importer), its
  fees marked, and it is closed, all by the same services as the API
  (``settlements.services``, ``settlements.night_tables``); the settle-up version is then
  computed by the same job as any night's;
- a night imported before is compared game by game: a hand whose record differs is corrected
  (``games.services.correct_hand``: the project's correction mechanism, which replays the game
  and adds a settle-up version), hands the file no longer has are undone
  (``undo_last_hand``), new ones recorded; the same file again changes nothing ("unchanged");
- conflicts are reported, never merged: a game changed here since it was imported, a game added
  to or missing from the file, a game re-seated, the fees changed, a player ambiguous or renamed
  on both sides, this site's own night — 409 ``exchange_conflict`` listing each with its pointer
  in the file, nothing stored;
- a game whose re-played totals or result differ from the file's is 422
  ``exchange_replay_differs`` (pointer to the game), nothing stored.
Each import that stores (or finds nothing to store) is logged as an ``ImportRecord``.

What it does not do: import an event (a tournament): 422 ``exchange_event_import_unsupported``
for now (docs/exchange.md); import paid marks of transfers (this site's organisers mark them);
decide who may import (the views: organisers of the club).

Terms: *source id* — a player's or game's id at the origin; *origin* — see ``exchange.models``.
"""

from __future__ import annotations

from django.db import transaction
from django.utils.translation import gettext

from clubs.models import Club
from config.problems import Problem
from exchange.checks import check_document, pointer
from exchange.document import site_key
from exchange.models import ImportedNight, ImportOutcome, ImportRecord
from exchange.players import resolve_players
from games import services as game_services
from games.models import Game, Hand
from games.money import decimal_string_to_minor
from rules_engine import canonical_record
from settlements import services as night_services
from settlements.models import Night
from settlements.night_tables import start_night_game


def _minor(amount: str | None, club) -> int | None:
    return None if amount is None else decimal_string_to_minor(amount, club.minor_unit_exponent)


def _at(where: str, call, *args, **kwargs):
    """``call(...)``; a refusal is re-pointed into the file (``where`` + the service's pointer)."""
    try:
        return call(*args, **kwargs)
    except Problem as problem:
        problem.errors = [
            {**error, "pointer": where + (error.get("pointer") or "")} for error in problem.errors
        ]
        raise


def _teams(game: dict) -> list[list[int]] | None:
    sides: dict[int, list[int]] = {}
    for seat in sorted(game["seats"], key=lambda seat: seat["seat"]):
        sides.setdefault(seat["side"], []).append(seat["seat"])
    if all(len(seats) == 1 for seats in sides.values()):
        return None
    return [sides[side] for side in sorted(sides)]


def _seat_ids(game: dict, players: dict) -> list[int]:
    return [players[seat["player"]].pk for seat in sorted(game["seats"], key=lambda s: s["seat"])]


def _check_replay(game: Game, item: dict, index: int) -> None:
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


def _play(game_id: int, hands: list[dict], index: int, user, first: int = 0) -> None:
    for position in range(first, len(hands)):
        _at(
            pointer("games", index, "hands", position),
            game_services.record_hand,
            game_id=game_id,
            user=user,
            record=hands[position]["record"],
            number=position + 1,
            organiser_entry=True,
        )


def _fees(document: dict) -> list[list]:
    return sorted(
        [fee["player"], fee["status"], fee["amount"]] for fee in document["night"]["fees"]
    )


def _create_night(club, user, document: dict, players: dict) -> tuple[Night, dict]:
    night_item = document["night"]
    night = _at(
        "/night",
        night_services.open_night,
        club=club,
        user=user,
        name=night_item["name"],
        entry_fee_minor=_minor(night_item["entry_fee"], club),
        prize_split=night_item["prize_split"] or None,
    )
    games = {}
    for index, item in enumerate(document["games"]):
        terms = {
            "user": user,
            "game": item["game"],
            "seat_player_ids": _seat_ids(item, players),
            "teams": _teams(item),
            "first_dealer": item["first_dealer"],
            "stake_minor": _minor(item["stake"], club),
            # The frozen rules name their game; the game is passed on its own.
            "house_rules": {k: v for k, v in item["house_rules"].items() if k != "game"},
        }
        where = pointer("games", index)
        if item["table"] is None:
            game = _at(where, game_services.create_game, club=club, **terms)
        else:
            game = _at(
                where, start_night_game, night_id=night.pk, table_number=item["table"], **terms
            )
        _play(game.pk, item["hands"], index, user)
        _check_replay(game, item, index)
        games[str(item["id"])] = {"game": game.pk, "version": game.version}
    for index, fee in enumerate(night_item["fees"]):
        _at(
            pointer("night", "fees", index),
            night_services.mark_entry_fee,
            user=user,
            player_id=players[fee["player"]].pk,
            status=fee["status"],
            amount_minor=_minor(fee["amount"], club),
            night_id=night.pk,
        )
    _at("/night", night_services.close_night, night_id=night.pk, user=user)
    return night, games


def _local_conflicts(imported: ImportedNight, document: dict, players: dict) -> list[dict]:
    conflicts = []
    in_file = {str(item["id"]): index for index, item in enumerate(document["games"])}
    versions = dict(
        Game.objects.filter(pk__in=[row["game"] for row in imported.games.values()]).values_list(
            "pk", "version"
        )
    )
    for source, row in imported.games.items():
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
        if source not in imported.games:
            conflicts.append(
                {
                    "code": "exchange_game_added",
                    "pointer": pointer("games", index),
                    "detail": gettext("This game was not in the first import of the night."),
                }
            )
    if _fees(document) != imported.fees:
        conflicts.append(
            {
                "code": "exchange_fees_changed",
                "pointer": "/night/fees",
                "detail": gettext("The fees differ from the first import: mark them here."),
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
        or game.stake_minor != _minor(item["stake"], club)
    )


def _update_game(game: Game, item: dict, index: int, user) -> bool:
    """Bring the stored game to the file's hands; True when anything changed."""
    stored = list(
        Hand.objects.filter(game=game).order_by("number").values_list("record", flat=True)
    )
    wanted = [canonical_record(hand["record"]) for hand in item["hands"]]
    if stored == wanted:
        return False
    while len(stored) > len(wanted):
        game.refresh_from_db()
        _at(
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
            _at(
                pointer("games", index, "hands", position),
                game_services.correct_hand,
                game_id=game.pk,
                number=position + 1,
                user=user,
                record=item["hands"][position]["record"],
                if_match=game.etag,
                organiser_entry=True,
            )
    _play(game.pk, item["hands"], index, user, first=len(stored))
    return True


def _update_night(imported: ImportedNight, club, user, document: dict, players: dict) -> int:
    """Correct the night's games to the file's; the number of games changed."""
    conflicts = _local_conflicts(imported, document, players)
    games = {
        game.pk: game
        for game in Game.objects.filter(pk__in=[row["game"] for row in imported.games.values()])
    }
    for index, item in enumerate(document["games"]):
        row = imported.games.get(str(item["id"]))
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
    if conflicts:
        raise _conflicts(conflicts)
    changed = 0
    for index, item in enumerate(document["games"]):
        row = imported.games[str(item["id"])]
        game = games[row["game"]]
        if _update_game(game, item, index, user):
            changed += 1
            _check_replay(game, item, index)
            row["version"] = game.version
    return changed


def _conflicts(conflicts: list[dict]) -> Problem:
    return Problem(
        code="exchange_conflict",
        detail=gettext(
            "The file contradicts what this club holds: %(count)s conflict(s), nothing was stored."
        )
        % {"count": len(conflicts)},
        errors=conflicts,
    )


def import_document(*, club: Club, user, document, document_hash: str) -> ImportRecord:
    """Import ``document`` into ``club`` (see the module's docstring); the stored log row."""
    check_document(document)
    origin = document["origin"]
    if origin["kind"] == "event":
        raise Problem(
            code="exchange_event_import_unsupported",
            pointer="/origin/kind",
            detail=gettext("This site imports nights; an event's file is not imported yet."),
        )
    if document["night"]["status"] != "closed":
        raise Problem(
            code="exchange_night_open",
            pointer="/night/status",
            detail=gettext("Close the night before exporting it: an open night is not imported."),
        )
    key = f"{origin['site']}/night/{origin['id']}"
    with transaction.atomic():
        Club.objects.select_for_update().filter(pk=club.pk).first()
        if (
            origin["site"] == site_key()
            and Night.objects.filter(pk=origin["id"], club=club).exists()
        ):
            raise _conflicts(
                [
                    {
                        "code": "exchange_own_night",
                        "pointer": "/origin",
                        "detail": gettext("This night is this club's own: it is not imported."),
                    }
                ]
            )
        conflicts: list[dict] = []
        players, player_counts = resolve_players(
            club, origin["site"], document["players"], conflicts
        )
        if conflicts:
            raise _conflicts(conflicts)
        imported = ImportedNight.objects.select_for_update().filter(club=club, origin=key).first()
        if imported is None:
            night, games = _create_night(club, user, document, players)
            imported = ImportedNight.objects.create(
                club=club,
                origin=key,
                night=night,
                games=games,
                fees=_fees(document),
                document_hash=document_hash,
            )
            outcome, changed = ImportOutcome.CREATED, len(games)
        else:
            changed = _update_night(imported, club, user, document, players)
            outcome = (
                ImportOutcome.UPDATED
                if changed or player_counts["created"] or player_counts["renamed"]
                else ImportOutcome.UNCHANGED
            )
            if outcome == ImportOutcome.UPDATED:
                imported.document_hash = document_hash
                imported.save(update_fields=["games", "document_hash", "updated_at"])
        return ImportRecord.objects.create(
            club=club,
            origin=key,
            document_hash=document_hash,
            by=user if getattr(user, "is_authenticated", False) else None,
            outcome=outcome,
            summary={
                "night": imported.night_id,
                "games": {"count": len(document["games"]), "changed": changed},
                "players": player_counts,
            },
        )
