"""The door code of an event: the credential behind the door's QR code, for self check-in.

What it holds: ``DoorCode`` — the event it opens (a tournament, or a club night:
``settlements.models.Night``; exactly one, ``DOOR_EVENT_XOR``), the SHA-256 of its token (the token
itself is never stored: it is an HMAC of the row's ``salt`` under ``SECRET_KEY``, so the console
can show the QR code again, ``tournaments.door.reveal_door_code``), when it expires, when it was
revoked, who made it. At most one code of an event is live: making a new one revokes the others.

What it does not do: check a player in (``tournaments.door`` for an event,
``settlements.attendance`` for a night) or render the QR code (``web``).

Terms:
- *token*: 32 bytes, URL-safe base64, carried in the QR code's URL (``/door/<token>/``).
- *live*: not revoked, not expired, and its event not closed.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models

# A door code opens one event: a tournament or a club night (as settlements.models.EVENT_XOR,
# which this floor may not import).
DOOR_EVENT_XOR = models.Q(tournament__isnull=False, night__isnull=True) | models.Q(
    tournament__isnull=True, night__isnull=False
)


class DoorCode(models.Model):
    tournament = models.ForeignKey(
        "tournaments.Tournament",
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="door_codes",
    )
    night = models.ForeignKey(
        "settlements.Night",
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="door_codes",
    )
    token_hash = models.CharField(max_length=64, unique=True)
    salt = models.CharField(max_length=32)
    expires_at = models.DateTimeField()
    revoked_at = models.DateTimeField(null=True, blank=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        app_label = "tournaments"
        ordering = ["-created_at", "-id"]
        constraints = [models.CheckConstraint(condition=DOOR_EVENT_XOR, name="door_code_event")]

    def __str__(self) -> str:
        event = (
            f"tournament {self.tournament_id}" if self.tournament_id else f"night {self.night_id}"
        )
        return f"door code of {event} until {self.expires_at:%Y-%m-%d %H:%M}"
