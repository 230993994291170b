"""Writes of the hall screen: its link, its round clock, its leaders switch.

What it does: ``create_hall_link`` makes the event's one live hall link (token and short code
made by ``table_links.services.store_with_secrets``, the table links' one way to make a secret
link);
``revoke_hall_link`` ends it at once; ``update_hall_settings`` turns "hide the leaders while a
round is played" on or off; ``act_on_clock`` starts (``minutes``), pauses, resumes, extends
(``minutes``) or stops the round clock, stored as server timestamps (``hall.clock``). Each
serves an event (``tournament_id``) or a club night (``night_id``): exactly one. Each takes the
event's row lock (``tournaments.progress.lock_tournament``, a night's row with
``select_for_update``), bumps the hall's ``version`` (the screens' entity tag) where the screen
changes, and for a tournament writes one audit entry of the tournaments' audit (``hall_link``,
``hall_clock``, ``hall_leaders``); a night has no audit trail: its link keeps who made it and
when it was revoked, as its other rows do. Refusals are problems (``config.problems``) raised
before anything is stored.

What it does not do: check who may call it (organisers: the API views and the console, with
``clubs.permissions``) or read what the screen shows (``hall.selectors``).
"""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext, gettext_lazy

from config.problems import Problem
from hall import clock as hall_clock
from hall.models import HallLink, HallSettings
from settlements.models import Night, NightStatus
from table_links.services import store_with_secrets
from tournaments.models import AuditEntry, AuditKind, Tournament, TournamentStatus
from tournaments.progress import lock_tournament
from tournaments.services import user_or_none

CLOCK_ACTIONS = ("start", "pause", "resume", "extend", "stop")
_NEEDS_MINUTES = ("start", "extend")


def _audit(event, kind: str, user, details: dict) -> None:
    if isinstance(event, Tournament):
        AuditEntry.objects.create(
            tournament=event, kind=kind, user=user_or_none(user), details=details
        )


def _lock(tournament_id: int | None, night_id: int | None):
    """The event or the night, locked: ``(event, {"tournament": event} or {"night": event})``."""
    if (tournament_id is None) == (night_id is None):
        raise ValueError("name exactly one event: a tournament or a night")
    if tournament_id is not None:
        tournament = lock_tournament(tournament_id)
        return tournament, {"tournament": tournament}
    night = Night.objects.select_for_update().filter(pk=night_id).first()
    if night is None:
        raise Problem(code="not_found", detail=gettext("No night %(night)s.") % {"night": night_id})
    return night, {"night": night}


def _open(tournament_id: int | None, night_id: int | None):
    event, scope = _lock(tournament_id, night_id)
    if isinstance(event, Night) and event.status == NightStatus.CLOSED:
        raise Problem(
            code="night_closed",
            detail=gettext("The night is closed: its hall screen shows the winners."),
        )
    if isinstance(event, Tournament) and event.status == TournamentStatus.CLOSED:
        raise Problem(
            code="tournament_closed",
            detail=gettext("The event is closed: its hall screen shows the winners."),
        )
    return event, scope


def _settings_of(scope: dict) -> HallSettings:
    """The event's hall settings (made on the first change); the caller holds the lock."""
    settings, _made = HallSettings.objects.get_or_create(**scope)
    return settings


def create_hall_link(
    *, user, tournament_id: int | None = None, night_id: int | None = None
) -> tuple[HallLink, str, str]:
    """Make the event's hall link: ``(link, token, code)``. 409 ``hall_link_exists`` while a live
    one exists (revoke it first: a TV showing it would stop), 409 ``tournament_closed`` (or
    ``night_closed``) once the event is closed."""
    with transaction.atomic():
        event, scope = _open(tournament_id, night_id)
        if HallLink.objects.filter(revoked_at__isnull=True, **scope).exists():
            raise Problem(
                code="hall_link_exists",
                detail=gettext("The event already has a hall link: revoke it to make a new one."),
            )
        link, token, code = store_with_secrets(HallLink, created_by=user, **scope)
        _audit(event, AuditKind.HALL_LINK, user, {"made": link.pk})
    return link, token, code


def revoke_hall_link(
    *, user, tournament_id: int | None = None, night_id: int | None = None
) -> HallLink:
    """End the event's live hall link at once (404 ``not_found`` when it has none)."""
    with transaction.atomic():
        event, scope = _lock(tournament_id, night_id)
        link = HallLink.objects.filter(revoked_at__isnull=True, **scope).first()
        if link is None:
            raise Problem(code="not_found", detail=gettext("The event has no hall link."))
        link.revoked_at = timezone.now()
        link.save(update_fields=["revoked_at"])
        _audit(event, AuditKind.HALL_LINK, user, {"revoked": link.pk})
    return link


def check_minutes(minutes, pointer: str = "/minutes") -> int:
    """Whole minutes from 1 to ``hall.clock.MAX_MINUTES`` (400 ``invalid_minutes``)."""
    if (
        isinstance(minutes, bool)
        or not isinstance(minutes, int)
        or not 1 <= minutes <= hall_clock.MAX_MINUTES
    ):
        raise Problem(
            code="invalid_minutes",
            pointer=pointer,
            detail=gettext("Give whole minutes from 1 to %(most)s.")
            % {"most": hall_clock.MAX_MINUTES},
        )
    return minutes


def act_on_clock(
    *,
    user,
    action: str,
    minutes=None,
    tournament_id: int | None = None,
    night_id: int | None = None,
) -> HallSettings:
    """Start (``minutes``), pause, resume, extend (``minutes`` more) or stop the round clock.

    400 ``invalid_action`` for another action, 400 ``invalid_minutes`` (pointer ``/minutes``)
    for minutes missing or out of 1..240 where they are needed; 409 ``clock_not_running``
    (pause), ``clock_not_paused`` (resume), ``clock_not_set`` (extend an idle clock),
    ``tournament_closed`` (``night_closed``). A start is for the latest round drawn (a night has
    no rounds: its clock has none)."""
    if action not in CLOCK_ACTIONS:
        raise Problem(
            code="invalid_action",
            pointer="/action",
            detail=gettext("The clock's action is one of: %(actions)s.")
            % {"actions": ", ".join(CLOCK_ACTIONS)},
        )
    if action in _NEEDS_MINUTES:
        check_minutes(minutes)
    with transaction.atomic():
        event, scope = _open(tournament_id, night_id)
        settings = _settings_of(scope)
        settings = HallSettings.objects.select_for_update().get(pk=settings.pk)
        now = timezone.now()
        current = hall_clock.Clock(
            state=settings.clock_state,
            ends_at=settings.clock_ends_at,
            remaining_ms=settings.clock_remaining_ms,
        )
        try:
            if action == "start":
                after = hall_clock.start(current, now, minutes)
            elif action == "extend":
                after = hall_clock.extend(current, now, minutes)
            elif action == "pause":
                after = hall_clock.pause(current, now)
            elif action == "resume":
                after = hall_clock.resume(current, now)
            else:
                after = hall_clock.stop(current, now)
        except hall_clock.ClockError as error:
            raise Problem(code=error.code, detail=str(_CLOCK_REFUSALS[error.code])) from None
        settings.clock_state = after.state
        settings.clock_ends_at = after.ends_at
        settings.clock_remaining_ms = after.remaining_ms
        if action == "start" and isinstance(event, Tournament):
            settings.clock_round = (
                event.rounds.order_by("-number").values_list("number", flat=True).first()
            )
        elif action == "stop":
            settings.clock_round = None
        settings.version += 1
        settings.save()
        details = {"action": action}
        if minutes is not None and action in _NEEDS_MINUTES:
            details["minutes"] = minutes
        _audit(event, AuditKind.HALL_CLOCK, user, details)
    return settings


_CLOCK_REFUSALS = {
    "clock_not_running": gettext_lazy("The clock is not running."),
    "clock_not_paused": gettext_lazy("The clock is not paused."),
    "clock_not_set": gettext_lazy("The clock is not set: start it first."),
}


def update_hall_settings(
    *, user, hide_leaders: bool, tournament_id: int | None = None, night_id: int | None = None
) -> HallSettings:
    """Hide (True) or show the leaders on the hall screen while a round is played; a change
    bumps the screen's version and is audited, the same value again changes nothing. 400
    ``invalid`` (pointer ``/hide_leaders``) for anything but a boolean."""
    if not isinstance(hide_leaders, bool):
        raise Problem(
            code="invalid",
            pointer="/hide_leaders",
            detail=gettext("hide_leaders is true or false."),
        )
    with transaction.atomic():
        event, scope = _lock(tournament_id, night_id)
        settings = _settings_of(scope)
        if settings.hide_leaders != hide_leaders:
            settings.hide_leaders = hide_leaders
            settings.version += 1
            settings.save(update_fields=["hide_leaders", "version", "updated_at"])
            _audit(event, AuditKind.HALL_LEADERS, user, {"hide_leaders": hide_leaders})
    return settings
