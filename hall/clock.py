"""The round clock's arithmetic, pure: what a start, a pause, a resume or an extension makes of
the stored clock, and the time left at a moment.

What it does: ``Clock`` is the stored state (``state``, ``ends_at`` when running,
``remaining_ms`` when paused); ``start``, ``pause``, ``resume`` and ``extend`` return the clock
after the action at ``now`` (the server's time), or raise ``ClockError`` with a stable code when
the action does not apply (``clock_not_running``, ``clock_not_paused``, ``clock_not_set``);
``remaining_ms`` is the time left at ``now`` (never below zero). Screens compute the same from
the stored timestamps and the server's time they are sent.

What it does not do: store, check who may act, or translate (``hall.services``).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import datetime, timedelta

IDLE, RUNNING, PAUSED = "idle", "running", "paused"
MAX_MINUTES = 240
ENDING_MS = 120_000  # the last two minutes stand out on the screen


class ClockError(Exception):
    def __init__(self, code: str) -> None:
        super().__init__(code)
        self.code = code


@dataclass(frozen=True)
class Clock:
    state: str = IDLE
    ends_at: datetime | None = None
    remaining_ms: int | None = None


def remaining_ms(clock: Clock, now: datetime) -> int | None:
    """Milliseconds left at ``now``; None for a clock not set."""
    if clock.state == RUNNING:
        return max(0, int((clock.ends_at - now) / timedelta(milliseconds=1)))
    if clock.state == PAUSED:
        return clock.remaining_ms
    return None


def start(clock: Clock, now: datetime, minutes: int) -> Clock:
    """A clock of ``minutes`` from ``now``, whatever it was (a restart)."""
    return Clock(state=RUNNING, ends_at=now + timedelta(minutes=minutes))


def pause(clock: Clock, now: datetime) -> Clock:
    if clock.state != RUNNING:
        raise ClockError("clock_not_running")
    return Clock(state=PAUSED, remaining_ms=remaining_ms(clock, now))


def resume(clock: Clock, now: datetime) -> Clock:
    if clock.state != PAUSED:
        raise ClockError("clock_not_paused")
    return Clock(state=RUNNING, ends_at=now + timedelta(milliseconds=clock.remaining_ms))


def extend(clock: Clock, now: datetime, minutes: int) -> Clock:
    """``minutes`` more: a running clock past its end runs again from ``now``."""
    if clock.state == RUNNING:
        return replace(clock, ends_at=max(clock.ends_at, now) + timedelta(minutes=minutes))
    if clock.state == PAUSED:
        return replace(clock, remaining_ms=clock.remaining_ms + minutes * 60_000)
    raise ClockError("clock_not_set")


def stop(clock: Clock, now: datetime) -> Clock:
    return Clock()
