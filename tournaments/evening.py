"""The evening of a tournament: check in who is here, swap two entrants between tables of a
round not yet released, release a privately drawn round.

What it does: ``mark_present`` marks exactly the entrants present (the next draw uses only
them); ``swap_entrants`` trades two entrants' seats (and sides) at two tables of an unreleased
round before anything was played there, replacing those tables' unplayed games; ``release_round``
shows a privately drawn round to the players, for good. Each locks the tournament row
(``progress.lock_tournament``), refuses in one transaction (a ``config.problems.Problem``: 4xx,
stable code, JSON pointer) so a refusal stores nothing, keeps an audit entry and moves the
tournament's version (``services.bump_version``).

What it does not do: draw a round (``services.draw_next_round``), check who may call it (the views
do) or shape reads (``selectors``).

Terms: see ``tournaments.models``; *released*: a round whose ``released_at`` is set (a round drawn
in public is released when drawn).
"""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext

from config.problems import Problem
from tournaments import play, progress, rounds
from tournaments.models import (
    AuditEntry,
    AuditKind,
    Entrant,
    MatchEntrant,
    Round,
    Tournament,
    TournamentStatus,
)
from tournaments.services import bump_version, user_or_none


def mark_present(*, tournament_id: int, user, present_ids: list[int]) -> list[Entrant]:
    """Mark exactly ``present_ids`` as here tonight (the others absent); the next draw uses only
    those present. Refused for a closed tournament; an id that is not an entrant is a 400 at
    ``/present/<index>``."""
    with transaction.atomic():
        tournament = progress.lock_tournament(tournament_id)
        if tournament.status == TournamentStatus.CLOSED:
            raise Problem(code="tournament_closed", detail=gettext("The tournament is closed."))
        entrants = list(tournament.entrants.select_related("player", "team"))
        known = {entrant.pk for entrant in entrants}
        errors = [
            {
                "code": "unknown_entrant",
                "detail": f"No entrant {entrant_id} in this tournament.",
                "pointer": f"/present/{index}",
            }
            for index, entrant_id in enumerate(present_ids)
            if entrant_id not in known
        ]
        if errors:
            raise Problem(
                code="unknown_entrant",
                detail="; ".join(error["detail"] for error in errors),
                errors=errors,
            )
        wanted = set(present_ids)
        changed = [entrant for entrant in entrants if entrant.is_present != (entrant.pk in wanted)]
        for entrant in changed:
            entrant.is_present = entrant.pk in wanted
        Entrant.objects.bulk_update(changed, ["is_present"])
        if changed:
            AuditEntry.objects.create(
                tournament=tournament,
                kind=AuditKind.CHECK_IN,
                user=user_or_none(user),
                details={
                    "present": sorted(entrant.pk for entrant in changed if entrant.is_present),
                    "absent": sorted(entrant.pk for entrant in changed if not entrant.is_present),
                },
            )
            bump_version(tournament, [])
    return entrants


def _unreleased_round(tournament: Tournament, round_number: int) -> Round:
    round_ = tournament.rounds.filter(number=round_number).first()
    if round_ is None:
        raise Problem(
            code="not_found",
            detail=f"Tournament {tournament.pk} has no round {round_number}.",
        )
    if round_.released_at is not None:
        raise Problem(
            code="round_released",
            detail=f"Round {round_number} is released; its tables can no longer change.",
        )
    return round_


def swap_entrants(
    *, tournament_id: int, round_number: int, first_entrant_id: int, second_entrant_id: int, user
) -> Round:
    """Swap two entrants between two tables of a round not yet released, before anything was
    played there: each takes the other's seat (and side), the tables' unplayed games are
    replaced by games seating the new tables."""
    with transaction.atomic():
        tournament = progress.lock_tournament(tournament_id)
        round_ = _unreleased_round(tournament, round_number)
        slots = {
            slot.entrant_id: slot
            for slot in MatchEntrant.objects.select_related("match").filter(
                match__round=round_, entrant_id__in=[first_entrant_id, second_entrant_id]
            )
        }
        for pointer, entrant_id in (("/first", first_entrant_id), ("/second", second_entrant_id)):
            if entrant_id not in slots:
                raise Problem(
                    code="unknown_entrant",
                    pointer=pointer,
                    detail=f"Entrant {entrant_id} has no seat in round {round_number}.",
                )
        first, second = slots[first_entrant_id], slots[second_entrant_id]
        if first.match_id == second.match_id:
            raise Problem(
                code="same_table",
                pointer="/second",
                detail="Both entrants sit at the same table; pick another table's.",
            )
        matches = [first.match, second.match]
        if any(not match.is_bye and rounds.is_begun(match) for match in matches):
            raise Problem(
                code="match_begun",
                detail="A hand has been recorded at one of these tables.",
            )
        for match in matches:
            rounds.delete_unplayed_games(match)
        first.entrant_id, second.entrant_id = second_entrant_id, first_entrant_id
        MatchEntrant.objects.bulk_update([first, second], ["entrant"])
        for match in matches:
            match._history_user = user
            match.save(update_fields=["updated_at"])
        play.start_matches(matches, tournament, user)
        AuditEntry.objects.create(
            tournament=tournament,
            kind=AuditKind.ENTRANTS_SWAPPED,
            user=user_or_none(user),
            details={
                "round": round_number,
                "entrants": [first_entrant_id, second_entrant_id],
                "tables": [first.match.table, second.match.table],
            },
        )
        bump_version(tournament, [])
    return round_


def release_round(*, tournament_id: int, round_number: int, user) -> Round:
    """Show a privately drawn round to the players (their pages and the API); final."""
    with transaction.atomic():
        tournament = progress.lock_tournament(tournament_id)
        round_ = _unreleased_round(tournament, round_number)
        round_.released_at = timezone.now()
        round_._history_user = user
        round_.save(update_fields=["released_at"])
        AuditEntry.objects.create(
            tournament=tournament,
            kind=AuditKind.ROUND_RELEASED,
            user=user_or_none(user),
            details={"round": round_number},
        )
        bump_version(tournament, [])
    return round_
