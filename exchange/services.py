"""Import an exchange document into a club (docs/exchange.md): idempotent, all or nothing.

What it does: ``import_document(club=, user=, document=, document_hash=)`` checks the document
(``exchange.checks``; a night or an event still open at the origin is refused), then in one
transaction (the club's row locked, so two imports of one club run one after the other):
- refuses this club's own night or event (409 ``exchange_own_night``, ``exchange_own_event``);
- maps its players (``exchange.players``: the import mapping, new names become club players);
- a night seen for the first time is opened, its games started at their tables and every hand
  re-played (``exchange.replay``: ``games.services.record_hand``, an organiser's entry: the
  importer), its fees marked, and it is closed, all by the same services as the API
  (``settlements.services``, ``settlements.night_tables``); the settle-up version is then
  computed by the same job as any night's;
- a night imported before is compared game by game (``exchange.replay``): a hand whose record
  differs is corrected (``games.services.correct_hand``: the project's correction mechanism,
  which replays the game and adds a settle-up version), hands the file no longer has are undone,
  new ones recorded; the same file again changes nothing ("unchanged");
- an event is imported by ``exchange.events`` (the same players, the same re-play);
- conflicts are reported, never merged: a game changed here since it was imported, a game added
  to or missing from the file, a game re-seated, the fees changed, a player ambiguous or renamed
  on both sides — 409 ``exchange_conflict`` listing each with its pointer in the file, nothing
  stored;
- a game whose re-played totals or result differ from the file's is 422
  ``exchange_replay_differs`` (pointer to the game), nothing stored.
Each import that stores (or finds nothing to store) is logged as an ``ImportRecord``.

What it does not do: import paid marks of transfers (this site's organisers mark them); decide
who may import (the views: organisers of the club).

Terms: *source id* — a player's or game's id at the origin; *origin* — see ``exchange.models``.
"""

from __future__ import annotations

from django.db import transaction
from django.utils.translation import gettext, gettext_lazy

from clubs.models import Club
from config.problems import Problem
from exchange import events, replay
from exchange.checks import check_document, pointer
from exchange.document import site_key
from exchange.models import ImportedNight, ImportOutcome, ImportRecord
from exchange.players import resolve_players
from exchange.replay import at, minor
from games import services as game_services
from settlements import services as night_services
from settlements.models import Night
from settlements.night_tables import start_night_game
from tournaments.models import Tournament


def _fees(document: dict) -> list[list]:
    return sorted(
        [fee["player"], fee["status"], fee["amount"]] for fee in document["night"]["fees"]
    )


def _create_night(club, user, document: dict, players: dict) -> tuple[Night, dict]:
    night_item = document["night"]
    night = at(
        "/night",
        night_services.open_night,
        club=club,
        user=user,
        name=night_item["name"],
        entry_fee_minor=minor(night_item["entry_fee"], club),
        prize_split=night_item["prize_split"] or None,
    )
    games = {}
    for index, item in enumerate(document["games"]):
        terms = replay.game_terms(item, players, club, user)
        where = pointer("games", index)
        if item["table"] is None:
            game = at(where, game_services.create_game, club=club, **terms)
        else:
            game = at(
                where, start_night_game, night_id=night.pk, table_number=item["table"], **terms
            )
        games[str(item["id"])] = replay.replay_game(game, item, index, user)
    replay.mark_fees(
        "night",
        night_services.mark_entry_fee,
        fees=night_item["fees"],
        players=players,
        club=club,
        user=user,
        night_id=night.pk,
    )
    at("/night", night_services.close_night, night_id=night.pk, user=user)
    return night, games


def _update_night(imported: ImportedNight, club, user, document: dict, players: dict) -> int:
    """Correct the night's games to the file's; the number of games changed."""
    memory = imported.games
    games = replay.stored_games(memory)
    conflicts = (
        replay.game_conflicts(memory, document)
        + replay.fees_conflict(_fees(document), imported.fees, "/night/fees")
        + replay.reseated_conflicts(memory, games, document, players, club)
    )
    if conflicts:
        raise replay.conflicts_problem(conflicts)
    return replay.update_games(memory, games, document, user)


def _import_night(
    club, user, key: str, document: dict, players: dict, document_hash: str, renamed: bool
):
    """The night's part of an import: ``(outcome, games changed, the night's id)``;
    ``renamed``: the import created or renamed players (an update even with no game changed)."""
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
        return ImportOutcome.CREATED, len(games), imported.night_id
    changed = _update_night(imported, club, user, document, players)
    if changed or renamed:
        imported.document_hash = document_hash
        imported.save(update_fields=["games", "document_hash", "updated_at"])
    return (
        ImportOutcome.UPDATED if changed else ImportOutcome.UNCHANGED,
        changed,
        imported.night_id,
    )


def _refuse_open(document: dict) -> None:
    kind = document["origin"]["kind"]
    if document[kind]["status"] == "closed":
        return
    if kind == "night":
        raise Problem(
            code="exchange_night_open",
            pointer="/night/status",
            detail=gettext("Close the night before exporting it: an open night is not imported."),
        )
    raise Problem(
        code="exchange_event_open",
        pointer="/event/status",
        detail=gettext("Close the event before exporting it: an open event is not imported."),
    )


def _own(club, origin: dict) -> bool:
    """The file is one of this club's own nights or events."""
    if origin["site"] != site_key():
        return False
    model = Night if origin["kind"] == "night" else Tournament
    return model.objects.filter(pk=origin["id"], club=club).exists()


OWN_WORDS = {
    "night": gettext_lazy("This night is this club's own: it is not imported."),
    "event": gettext_lazy("This event is this club's own: it is not imported."),
}


def import_document(*, club: Club, user, document, document_hash: str) -> ImportRecord:
    """Import ``document`` into ``club`` (see the module's docstring); the stored log row."""
    check_document(document)
    _refuse_open(document)
    origin = document["origin"]
    kind = origin["kind"]
    key = f"{origin['site']}/{kind}/{origin['id']}"
    with transaction.atomic():
        Club.objects.select_for_update().filter(pk=club.pk).first()
        if _own(club, origin):
            own = {"code": f"exchange_own_{kind}", "pointer": "/origin", "detail": OWN_WORDS[kind]}
            raise replay.conflicts_problem([{**own, "detail": str(own["detail"])}])
        conflicts: list[dict] = []
        players, player_counts = resolve_players(
            club, origin["site"], document["players"], conflicts
        )
        if conflicts:
            raise replay.conflicts_problem(conflicts)
        renamed = bool(player_counts["created"] or player_counts["renamed"])
        if kind == "night":
            outcome, changed, night_id = _import_night(
                club, user, key, document, players, document_hash, renamed
            )
            place = {"night": night_id}
        else:
            outcome, changed, tournament_id = events.import_event(
                club=club,
                user=user,
                key=key,
                document=document,
                players=players,
                document_hash=document_hash,
                renamed=renamed,
            )
            place = {"night": None, "event": tournament_id}
        if outcome == ImportOutcome.UNCHANGED and renamed:
            outcome = ImportOutcome.UPDATED
        return ImportRecord.objects.create(
            club=club,
            origin=key,
            document_hash=document_hash,
            by=user if getattr(user, "is_authenticated", False) else None,
            outcome=outcome,
            summary={
                **place,
                "games": {"count": len(document["games"]), "changed": changed},
                "players": player_counts,
            },
        )
