"""Rows of the exchange app: this site's identity, the import mappings and the import log.

What it does: ``ExchangeSite`` is this database's stable identity (one row, made on the first
export: its ``key`` is the ``origin.site`` of every document exported from here).
``ImportedPlayer`` maps a player of an exporting site (its ``site`` key and its own id there) to
a club player, stored on the first import that names them, with the name the file gave them then.
``ImportedNight`` is a night imported into a club: its origin, the night it became, the games it
became (``games``: source game id -> ``{"game": local id, "version": the game's version after the
import}``, to see a local change since) and the fees as imported. ``ImportedEvent`` is the same
for an event: the tournament it became, its games, and its draw as imported. ``ImportRecord``
logs each import asked for (club, origin, the document's hash, who, when, what it did).

What it does not do: import (``exchange.services``) or check documents (``exchange.schema``).

Terms: *origin* — ``"<site key>/<night|event>/<id>"``: the exporting site and the night's or the
event's id there.
"""

from __future__ import annotations

import uuid

from django.conf import settings
from django.db import models


class ExchangeSite(models.Model):
    """This database's identity in exchange documents (one row)."""

    key = models.UUIDField(default=uuid.uuid4, unique=True, editable=False)
    created_at = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return str(self.key)


class ImportedPlayer(models.Model):
    """A player of another site (``site``, ``source_id``) is this club player, in ``club``."""

    club = models.ForeignKey("clubs.Club", on_delete=models.CASCADE, related_name="+")
    site = models.CharField(max_length=64)
    source_id = models.BigIntegerField()
    player = models.ForeignKey("clubs.Player", on_delete=models.CASCADE, related_name="+")
    name = models.CharField(max_length=120, help_text="The name the file gave at the last import.")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["club", "site", "source_id"], name="exchange_player_once_per_club"
            )
        ]

    def __str__(self) -> str:
        return f"{self.site}/{self.source_id} -> {self.player_id}"


class ImportedNight(models.Model):
    """A night of another site imported into ``club`` as ``night``."""

    club = models.ForeignKey("clubs.Club", on_delete=models.CASCADE, related_name="+")
    origin = models.CharField(max_length=200)
    night = models.OneToOneField("settlements.Night", on_delete=models.CASCADE, related_name="+")
    games = models.JSONField(default=dict)
    fees = models.JSONField(default=list)
    document_hash = models.CharField(max_length=64)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["club", "origin"], name="exchange_night_once_per_club")
        ]

    def __str__(self) -> str:
        return f"{self.origin} -> night {self.night_id}"


class ImportedEvent(models.Model):
    """An event (a tournament) of another site imported into ``club`` as ``tournament``:
    ``games`` as ``ImportedNight.games``; ``draw`` the draw as imported (entrants and each
    round's matches, by source ids: ``exchange.events``), to tell a corrected file from a
    redrawn one; ``fees`` the fees as imported."""

    club = models.ForeignKey("clubs.Club", on_delete=models.CASCADE, related_name="+")
    origin = models.CharField(max_length=200)
    tournament = models.OneToOneField(
        "tournaments.Tournament", on_delete=models.CASCADE, related_name="+"
    )
    games = models.JSONField(default=dict)
    draw = models.JSONField(default=dict)
    fees = models.JSONField(default=list)
    document_hash = models.CharField(max_length=64)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["club", "origin"], name="exchange_event_once_per_club")
        ]

    def __str__(self) -> str:
        return f"{self.origin} -> tournament {self.tournament_id}"


class ImportOutcome(models.TextChoices):
    CREATED = "created", "created"
    UPDATED = "updated", "updated"
    UNCHANGED = "unchanged", "unchanged"


class ImportRecord(models.Model):
    """One import that was stored (a refused one stores nothing, this row neither)."""

    club = models.ForeignKey("clubs.Club", on_delete=models.CASCADE, related_name="+")
    origin = models.CharField(max_length=200)
    document_hash = models.CharField(max_length=64)
    by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    at = models.DateTimeField(auto_now_add=True)
    outcome = models.CharField(max_length=12, choices=ImportOutcome.choices)
    summary = models.JSONField(default=dict)

    class Meta:
        ordering = ["-at", "-id"]

    def __str__(self) -> str:
        return f"{self.origin} ({self.outcome})"
