"""A tournament's rounds stored as another site drew them (an exchange import): writes beside
``services.py``.

What it does:
- ``store_drawn_round(tournament_id=, number=, tables=, user=, draw_order=)`` stores round
  ``number`` with exactly the given tables (``DrawnTable``: table number, entrants in seat order,
  their sides, bye, third-place match, and where each entrant came from), without asking the
  format's policy to draw anything; round 1 also fixes the given draw order and puts the
  tournament in progress, as a draw does. An audit entry (``round_drawn``, ``imported``) and the
  standings' note follow, as for any round drawn.
- ``settle_drawn_round(tournament_id=, number=, user=)`` recomputes each match of the round from
  its games (``progress.refresh_match``, the same recomputation as any match's) once they have
  been played, and writes the round's status; after the last round the tournament is finished
  (its close is ``services.close_tournament``, as any event's). A match its games leave
  undecided is returned (its id), never started again. ``result_of`` is a match's result
  recomputed from its games, read only (an importer compares it with the origin's).

What it does not do: check the draw against the format (the origin's draw is the record), read
exchange files (``exchange.events``), or start games (the importer creates each match's games
through ``games.services`` with the match's terms).

A table the draw's types refuse (sides that do not split it, an entrant twice) is the draw's
own problem (``bridge.draw_problem``), never a 500.

Locks: each function takes the tournament row's lock (``progress.lock_tournament``) inside its
own transaction (nested in the caller's).
"""

from __future__ import annotations

from dataclasses import dataclass

from django.db import transaction
from django.utils import timezone

from tournaments import bridge, play, progress, rounds, snapshots
from tournaments.changes import TournamentChangeKind
from tournaments.draw.errors import DrawError
from tournaments.draw.types import Table
from tournaments.models import AuditEntry, AuditKind, Match, MatchStatus, Round, TournamentStatus
from tournaments.services import user_or_none


@dataclass(frozen=True)
class DrawnTable:
    """One match as drawn: ``sources`` maps an entrant id to ``(round number, table, place)`` of
    the match it came from (a knockout's later rounds)."""

    table: int
    entrants: tuple[int, ...]
    sides: tuple[tuple[int, ...], ...] = ()
    is_bye: bool = False
    is_third_place: bool = False
    sources: dict[int, tuple[int, int, int | None]] | None = None


def _sources(tournament, tables: list[DrawnTable]) -> dict[tuple[int, int], Match]:
    wanted = {
        (source[0], source[1]) for table in tables for source in (table.sources or {}).values()
    }
    if not wanted:
        return {}
    matches = Match.objects.filter(
        tournament=tournament, round__number__in={number for number, _ in wanted}
    ).select_related("round")
    return {(match.round.number, match.table): match for match in matches}


def store_drawn_round(
    *, tournament_id: int, number: int, tables: list[DrawnTable], user, draw_order=None
) -> tuple[Round, list[Match]]:
    """Store round ``number`` as drawn (see the module docstring); the round and its matches in
    ``tables``' order."""
    with transaction.atomic():
        tournament = progress.lock_tournament(tournament_id)
        if number == 1:
            rounds.start_tournament(tournament)
            if draw_order:
                tournament.draw_order = list(draw_order)
                tournament.save(update_fields=["draw_order"])
        round_ = bridge.create_round(tournament, number, user)
        if round_.released_at is None:
            # An imported round was played: it is everyone's to see.
            round_.released_at = timezone.now()
            round_.save(update_fields=["released_at"])
        by_key = _sources(tournament, tables)
        try:
            seated = [
                Table(tuple(table.entrants), tuple(tuple(side) for side in table.sides))
                for table in tables
            ]
        except DrawError as error:
            raise bridge.draw_problem(error) from error
        new = [
            bridge.NewMatch(
                round_,
                table.table,
                drawn,
                is_bye=table.is_bye,
                is_third_place=table.is_third_place,
                sources={
                    entrant: (by_key[(source[0], source[1])], source[2])
                    for entrant, source in (table.sources or {}).items()
                    if (source[0], source[1]) in by_key
                },
            )
            for table, drawn in zip(tables, seated, strict=True)
        ]
        matches = bridge.create_matches(new, user=user)
        AuditEntry.objects.create(
            tournament=tournament,
            kind=AuditKind.ROUND_DRAWN,
            user=user_or_none(user),
            details={"round": number, "imported": True},
        )
        snapshots.note_standings_moved(
            tournament,
            kinds=(TournamentChangeKind.ROUND_DRAWN,),
            round_number=number,
            actor=user,
        )
    return round_, matches


def result_of(match: Match, tournament) -> dict | None:
    """The match's result recomputed from its games now (``progress.read_match``), as stored
    (``bridge.result_to_json``); None while undecided. Reads only."""
    if match.is_bye or any(slot.entrant_id is None for slot in match.slots.all()):
        return None
    try:
        reading = progress.read_match(match, tournament)
    except DrawError as error:
        raise bridge.draw_problem(error) from error
    return bridge.result_to_json(reading.result) if reading.result is not None else None


def settle_drawn_round(*, tournament_id: int, number: int, user, last: bool) -> list[int]:
    """Recompute the matches of round ``number`` from their games and write the round's status
    (the tournament finished after the ``last`` round); the ids of the matches left undecided."""
    with transaction.atomic():
        tournament = progress.lock_tournament(tournament_id)
        ids = list(
            Match.objects.filter(tournament=tournament, round__number=number)
            .order_by("table")
            .values_list("pk", flat=True)
        )
        undecided = []
        match_ids = []
        for match in play.load_matches(ids):
            if match.is_bye:
                continue
            try:
                if progress.read_match(match, tournament).result is None:
                    undecided.append(match.pk)
                    continue
                progress.refresh_match(match, tournament, user)
            except DrawError as error:
                raise bridge.draw_problem(error) from error
            match_ids.append(match.pk)
        if undecided:
            return undecided
        rounds.update_round_status(tournament, user, number)
        if (
            last
            and not Match.objects.filter(tournament=tournament)
            .exclude(status=MatchStatus.DECIDED)
            .exists()
        ):
            rounds.set_tournament_status(tournament, TournamentStatus.FINISHED)
        snapshots.note_standings_moved(
            tournament,
            kinds=(TournamentChangeKind.MATCH_DECIDED,),
            match_ids=tuple(match_ids),
            actor=user,
        )
    return []
