"""The practice table's rows: a ``PracticeGame`` and its finished ``PracticeHand`` records.

What it does: stores what a practice game needs to go on and to be replayed: the frozen house
rules, who sits where (the person at ``human_seat``, computer players of ``levels`` elsewhere),
the totals, the current hand's dealer, shuffle (``deck``, a fresh ``secrets`` shuffle) and
``moves`` so far; each finished hand as the engine-checked card-by-card record with its shuffle.

What it does not do: check moves (``services.py`` through the engine and ``computer_players``).

Terms: *player*: the account playing (None in the anonymous trial, which is kept by
``session_key``); *seat*: 0..seat_count-1 clockwise, as in the engine.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models


class PracticeStatus(models.TextChoices):
    IN_PROGRESS = "in_progress", "In progress"
    FINISHED = "finished", "Finished"


class PracticeGame(models.Model):
    player = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="practice_games",
    )
    session_key = models.CharField(max_length=40, blank=True, db_index=True)
    club = models.ForeignKey(
        "clubs.Club", null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    game = models.CharField(max_length=10)
    rules_name = models.CharField(
        max_length=40, help_text="classic_45, a club's name, or the engine's defaults."
    )
    house_rules = models.JSONField()
    seat_count = models.PositiveSmallIntegerField(default=3)
    human_seat = models.PositiveSmallIntegerField(default=0)
    levels = models.JSONField(help_text='Per seat: "human" or a computer level.')
    first_dealer = models.PositiveSmallIntegerField()
    seed = models.BigIntegerField(help_text="Seeds the computer players' choices.")
    totals = models.JSONField(help_text="Per seat, after the finished hands.")
    status = models.CharField(
        max_length=20, choices=PracticeStatus.choices, default=PracticeStatus.IN_PROGRESS
    )
    winner = models.SmallIntegerField(null=True, blank=True)
    dealer = models.PositiveSmallIntegerField(help_text="The current hand's dealer.")
    deck = models.JSONField(help_text="The current hand's shuffle (52 cards).")
    moves = models.JSONField(default=list, help_text="The current hand's moves so far.")
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        indexes = [models.Index(fields=["player", "status"])]

    def __str__(self) -> str:
        return f"Practice {self.game} #{self.pk}"

    @property
    def finished(self) -> bool:
        return self.status == PracticeStatus.FINISHED


class PracticeHand(models.Model):
    practice_game = models.ForeignKey(PracticeGame, on_delete=models.CASCADE, related_name="hands")
    number = models.PositiveSmallIntegerField()
    deck = models.JSONField(help_text="The shuffle the hand was dealt from.")
    record = models.JSONField(help_text="The card-by-card record the engine checked.")
    points = models.JSONField(help_text="Per seat.")
    result = models.JSONField(help_text="The engine's HandResult.to_dict().")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["practice_game", "number"]
        constraints = [
            models.UniqueConstraint(
                fields=["practice_game", "number"], name="practice_hand_number_unique"
            )
        ]

    def __str__(self) -> str:
        return f"{self.practice_game} hand {self.number}"
