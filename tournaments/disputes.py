"""A table in dispute: flag a match as disputed with a short note, and resolve it.

What it does: ``flag_dispute`` marks a match disputed (the note, who, when) and
``resolve_dispute`` clears the flag; each writes an ``AuditEntry`` (``dispute_flagged``,
``dispute_resolved`` with the round, the table, the note and the resolution) in the same
transaction, under the tournament's lock, and bumps the match's history. A dispute does not stop
the table: hands are still recorded and corrected through games; the flag tells the organiser
to come and look, and the live board shows it until it is resolved.

What it does not do: decide who may flag or resolve (the API view and the console page check:
scorers flag, organisers resolve), or change any score.
"""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext

from config.problems import Problem
from tournaments import progress
from tournaments.models import AuditEntry, AuditKind, Match

NOTE_LENGTH = 200


def _clean_note(note: object, *, required: bool) -> str:
    if note is None:
        note = ""
    if not isinstance(note, str):
        raise Problem(code="invalid", pointer="/note", detail=gettext("The note must be text."))
    note = note.strip()
    if required and not note:
        raise Problem(
            code="required",
            pointer="/note",
            detail=gettext("Say in a few words what is disputed."),
        )
    if len(note) > NOTE_LENGTH:
        raise Problem(
            code="invalid",
            pointer="/note",
            detail=gettext("The note is %(length)s characters; at most %(limit)s.")
            % {"length": len(note), "limit": NOTE_LENGTH},
        )
    return note


def _locked_match(match_id: int) -> Match:
    match = Match.objects.select_related("round").filter(pk=match_id).first()
    if match is None:
        raise Problem(
            code="not_found",
            detail=gettext("No match %(match)s.") % {"match": match_id},
        )
    progress.lock_tournament(match.tournament_id)
    return Match.objects.select_for_update().select_related("round").get(pk=match_id)


def _user_or_none(user):
    return user if getattr(user, "is_authenticated", False) else None


def flag_dispute(*, match_id: int, user, note: object) -> Match:
    """Mark the match disputed with ``note`` (1–200 characters); a new note replaces the old."""
    note = _clean_note(note, required=True)
    with transaction.atomic():
        match = _locked_match(match_id)
        if match.is_bye:
            raise Problem(code="bye", detail=gettext("A bye has no table to dispute."))
        match.dispute_note = note
        match.disputed_at = timezone.now()
        match.disputed_by = _user_or_none(user)
        match._history_user = _user_or_none(user)
        match.save(update_fields=["dispute_note", "disputed_at", "disputed_by", "updated_at"])
        AuditEntry.objects.create(
            tournament_id=match.tournament_id,
            kind=AuditKind.DISPUTE_FLAGGED,
            user=_user_or_none(user),
            match=match,
            details={"round": match.round.number, "table": match.table, "note": note},
        )
    return match


def resolve_dispute(*, match_id: int, user, resolution: object = "") -> tuple[Match, bool]:
    """Clear the match's dispute; ``(match, whether it was disputed)``. Resolving a match that
    is not disputed changes nothing and writes no audit entry (a repeated request is harmless)."""
    resolution = _clean_note(resolution, required=False)
    with transaction.atomic():
        match = _locked_match(match_id)
        if match.disputed_at is None:
            return match, False
        note = match.dispute_note
        match.dispute_note = ""
        match.disputed_at = None
        match.disputed_by = None
        match._history_user = _user_or_none(user)
        match.save(update_fields=["dispute_note", "disputed_at", "disputed_by", "updated_at"])
        AuditEntry.objects.create(
            tournament_id=match.tournament_id,
            kind=AuditKind.DISPUTE_RESOLVED,
            user=_user_or_none(user),
            match=match,
            details={
                "round": match.round.number,
                "table": match.table,
                "note": note,
                "resolution": resolution,
            },
        )
    return match, True
