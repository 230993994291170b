"""The hall screen of an event — a tournament or a club night: its link, its clock and what it
hides.

Every row names exactly one event: a tournament or a night (``settlements.models.Night``),
``settlements.models.EVENT_XOR``.

What it holds:
- ``HallLink``: the credential a TV opens the hall page with (``/h/<token>/`` or the short code
  typed at ``/h/``): read only, no login, revocable; at most one live link per event. Its token
  and short code are derived from a random ``salt`` under ``SECRET_KEY`` exactly as a table
  link's are (``table_links.services.derive_secrets``); only their SHA-256 hashes are stored.
  It ends with the event: once the event is closed it still shows the winners for the evening
  (``hall.selectors.HALL_AFTER_CLOSE``), then opens nothing (``hall.selectors.is_link_over``).
- ``HallSettings``: one row per event (made on the first change): the round clock, stored as
  server timestamps so every screen computes the same remaining time (``hall.clock``), the
  organiser's "hide the leaders while a round is played" switch, and a ``version`` bumped by
  every change (the screen's entity tag). Its key is its own ``id`` (it was the tournament's
  before nights had halls: migration 0002 moved it, keeping every row).

What it does not do: decide what the screen shows (``hall.selectors``) or change anything
(``hall.services``).

Terms:
- *clock*: the round clock; *idle* (not set), *running* (it reaches zero at ``clock_ends_at``)
  or *paused* (``clock_remaining_ms`` left). A running clock past its end shows 0:00.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models

from settlements.models import EVENT_XOR


class ClockState(models.TextChoices):
    IDLE = "idle", "Not set"
    RUNNING = "running", "Running"
    PAUSED = "paused", "Paused"


class HallLink(models.Model):
    tournament = models.ForeignKey(
        "tournaments.Tournament",
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="hall_links",
    )
    night = models.ForeignKey(
        "settlements.Night",
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="hall_links",
    )
    token_hash = models.CharField(max_length=64, unique=True)
    code_hash = models.CharField(max_length=64, unique=True)
    salt = models.CharField(max_length=32)
    revoked_at = models.DateTimeField(null=True, blank=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        constraints = [
            models.CheckConstraint(condition=EVENT_XOR, name="hall_link_event"),
            models.UniqueConstraint(
                fields=["tournament"],
                condition=models.Q(revoked_at__isnull=True),
                name="hall_one_live_link_per_event",
            ),
            models.UniqueConstraint(
                fields=["night"],
                condition=models.Q(revoked_at__isnull=True),
                name="hall_one_live_link_per_night",
            ),
        ]

    def __str__(self) -> str:
        return f"Hall link {self.pk} ({event_words(self)})"


def event_words(row) -> str:
    if row.tournament_id:
        return f"tournament {row.tournament_id}"
    return f"night {row.night_id}"


class HallSettings(models.Model):
    tournament = models.OneToOneField(
        "tournaments.Tournament",
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="hall_settings",
    )
    night = models.OneToOneField(
        "settlements.Night",
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="hall_settings",
    )
    hide_leaders = models.BooleanField(
        default=False, help_text="Hide the leaders on the hall screen while a round is played."
    )
    clock_state = models.CharField(
        max_length=8, choices=ClockState.choices, default=ClockState.IDLE
    )
    clock_round = models.PositiveSmallIntegerField(
        null=True, blank=True, help_text="The round the clock was started for."
    )
    clock_ends_at = models.DateTimeField(
        null=True, blank=True, help_text="Running: when the clock reaches zero."
    )
    clock_remaining_ms = models.PositiveIntegerField(
        null=True, blank=True, help_text="Paused: the time left, in milliseconds."
    )
    version = models.PositiveIntegerField(default=1, help_text="Bumped on every change (ETag).")
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        verbose_name_plural = "hall settings"
        constraints = [
            models.CheckConstraint(condition=EVENT_XOR, name="hall_settings_event"),
            models.CheckConstraint(
                condition=models.Q(clock_state="idle")
                | models.Q(clock_state="running", clock_ends_at__isnull=False)
                | models.Q(clock_state="paused", clock_remaining_ms__isnull=False),
                name="hall_clock_consistent",
            ),
        ]

    def __str__(self) -> str:
        return f"hall of {event_words(self)}"
