"""Database models of games: a game, its seats and sides, its hands, its ledger, idempotency keys.

What it holds: a ``Game`` (the frozen house rules, the seating, the running totals and the engine
state needed to record the next hand without replaying history), its ``GameSeat`` and ``GameSide``
rows, one ``Hand`` per hand recorded (the record as entered and the engine's result), the
``LedgerEntry`` rows booking a finished game's stake, and ``IdempotencyRecord`` (the stored first
response of a creating ``POST``, used by ``config/idempotency.py``). Games and hands keep an
audit history (django-simple-history); a hand's history rows also keep the table link each change
came through (``HandHistoryBase``, copied from the hand by ``_stamp_table_link``, a receiver of
simple-history's ``pre_create_historical_record``).

What it does not do: check any rule (``rules_engine``), decide workflows (``games/services``) or
shape queries (``games/selectors.py``). Models hold data and small derived helpers only.

Terms:
- *variant*: which game of the family is played (``Game.variant``: "25", "45", ...); the API's
  field and the column keep the name ``game``.
- *seat*: 0..n-1 clockwise; *side*: the seats that pool their points (a partnership, or one
  player when everybody plays for themselves); sides are numbered 0..m-1.
- *version*: bumped on every change to a game or any of its hands; the game's ``ETag``.
- *minor units*: integer cents (or the club currency's smallest unit); money is never a float.
- *engine state*: what the engine needs to continue a game (totals, next dealer, hands played,
  finished, winner, double stake and any engine-specific extras) — stored on the game so that
  recording a hand costs the same whether it is the first or the hundredth.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.dispatch import receiver
from simple_history.models import HistoricalRecords
from simple_history.signals import pre_create_historical_record

from clubs.models import GameType


class GameStatus(models.TextChoices):
    IN_PROGRESS = "in_progress", "In progress"
    FINISHED = "finished", "Finished"


class Game(models.Model):
    """One game to a target score, at one table of one club."""

    club = models.ForeignKey("clubs.Club", on_delete=models.PROTECT, related_name="games")
    # The variant ("25", "45", ...): the API and the column keep the name "game".
    variant = models.CharField(max_length=16, choices=GameType.choices, db_column="game")
    house_rules = models.JSONField(help_text="The full frozen rules (HouseRules.to_dict()).")
    first_dealer = models.PositiveSmallIntegerField()
    side_of_seat = models.JSONField(
        default=list,
        help_text="Side index of each seat: a copy of the seats' sides, so that recording a hand "
        "needs no join.",
    )
    stake_minor = models.BigIntegerField(
        null=True, blank=True, help_text="What each loser pays, in the club currency's minor units."
    )
    status = models.CharField(
        max_length=16, choices=GameStatus.choices, default=GameStatus.IN_PROGRESS, db_index=True
    )
    winner_side = models.PositiveSmallIntegerField(null=True, blank=True)
    double_stake = models.BooleanField(default=False)
    totals = models.JSONField(default=list, help_text="Points per side, by side index.")
    next_dealer = models.PositiveSmallIntegerField()
    hands_played = models.PositiveIntegerField(default=0)
    engine_state = models.JSONField(
        default=dict, blank=True, help_text="Engine-specific state needed to record the next hand."
    )
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)
    updated_at = models.DateTimeField(auto_now=True)
    version = models.PositiveIntegerField(default=1)

    history = HistoricalRecords(excluded_fields=["updated_at"])

    class Meta:
        ordering = ["-created_at", "-id"]
        indexes = [models.Index(fields=["club", "status", "created_at"])]

    def __str__(self) -> str:
        return f"Game {self.pk} ({self.variant}, {self.status})"

    @property
    def etag(self) -> str:
        """The strong entity tag of the game and of each of its hands (RFC 9110 quoted form)."""
        return f'"{self.pk}-{self.version}"'

    @property
    def is_finished(self) -> bool:
        return self.status == GameStatus.FINISHED

    def ordered_seats(self) -> list[GameSeat]:
        """Seats by index (uses a ``seats`` prefetch when the selector made one)."""
        return sorted(self.seats.all(), key=lambda seat: seat.seat)

    def seat_players(self) -> list:
        """The players by seat, clockwise from seat 0."""
        return [seat.player for seat in self.ordered_seats()]

    def sides_as_seats(self) -> list[list[int]]:
        """Each side's seat indices, sides by index, seats ascending."""
        sides: dict[int, list[int]] = {}
        for seat in self.ordered_seats():
            sides.setdefault(seat.side, []).append(seat.seat)
        return [sides[index] for index in sorted(sides)]


class GameSeat(models.Model):
    """Who sits in one seat of a game, and which side they play for."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="seats")
    seat = models.PositiveSmallIntegerField()
    player = models.ForeignKey("clubs.Player", on_delete=models.PROTECT, related_name="game_seats")
    side = models.PositiveSmallIntegerField()

    class Meta:
        ordering = ["game", "seat"]
        constraints = [
            models.UniqueConstraint(fields=["game", "seat"], name="games_seat_unique_per_game"),
            models.UniqueConstraint(fields=["game", "player"], name="games_player_once_per_game"),
        ]

    def __str__(self) -> str:
        return f"Game {self.game_id} seat {self.seat}"


class GameSide(models.Model):
    """One side of a game, optionally playing as one of the club's teams."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="sides")
    index = models.PositiveSmallIntegerField()
    team = models.ForeignKey(
        "clubs.Team", null=True, blank=True, on_delete=models.PROTECT, related_name="game_sides"
    )

    class Meta:
        ordering = ["game", "index"]
        constraints = [
            models.UniqueConstraint(fields=["game", "index"], name="games_side_unique_per_game"),
        ]

    def __str__(self) -> str:
        return f"Game {self.game_id} side {self.index}"


class HandHistoryBase(models.Model):
    """What each audit row of a hand adds: the table link through which that change (recording,
    correction, recomputation or undo) came, or null (a logged-in user or an API client). The
    services set it as ``_history_table_link_id`` on the hand; ``_stamp_table_link`` copies it."""

    history_table_link = models.ForeignKey(
        "tables.TableLink",
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        db_constraint=False,
        related_name="+",
    )

    class Meta:
        abstract = True


class Hand(models.Model):
    """One recorded hand: the record as the scorekeeper entered it, and the engine's result."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="hands")
    number = models.PositiveIntegerField(help_text="1-based, in the order the hands were played.")
    dealer = models.PositiveSmallIntegerField()
    record = models.JSONField(help_text="The hand record exactly as entered.")
    result = models.JSONField(help_text="The engine's HandResult.to_dict().")
    totals_after = models.JSONField(help_text="Points per side after this hand.")
    state_after = models.JSONField(
        default=dict, help_text="The game's engine state after this hand (used by undo)."
    )
    entered_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    entered_at = models.DateTimeField(auto_now_add=True)
    confirmed_by = models.ForeignKey(
        "clubs.Player",
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="+",
        help_text="The player of another side who accepted the hand (clubs with confirm_hands).",
    )
    accepted_by_organiser = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
        help_text="The organiser whose own entry from the console stood as the acceptance "
        "(a paper table in a club with confirm_hands).",
    )
    scored_by = models.ForeignKey(
        "clubs.Player",
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="+",
        help_text="The player the table's tablet named as having entered this version.",
    )
    table_link = models.ForeignKey(
        "tables.TableLink",
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
        help_text="The table link through which the hand was recorded (null: not through one).",
    )
    updated_at = models.DateTimeField(auto_now=True)

    history = HistoricalRecords(excluded_fields=["updated_at"], bases=[HandHistoryBase])

    class Meta:
        ordering = ["game", "number"]
        constraints = [
            models.UniqueConstraint(fields=["game", "number"], name="games_hand_number_unique"),
        ]
        # the games with a hand entered since a time (the rankings' new games after a night)
        indexes = [models.Index(fields=["entered_at"], name="games_hand_entered_at")]

    def __str__(self) -> str:
        return f"Game {self.game_id} hand {self.number}"


class LedgerReason(models.TextChoices):
    STAKE = "stake", "Stake"
    REVERSAL = "reversal", "Reversal of an earlier booking"


class LedgerEntry(models.Model):
    """One player's share of a game's stake: positive receives, negative pays.

    Entries are never edited or deleted: a result change books reversing entries and then the new
    result, so the entries of one game always sum to zero and the history stays readable.
    """

    club = models.ForeignKey("clubs.Club", on_delete=models.PROTECT, related_name="ledger_entries")
    game = models.ForeignKey(Game, on_delete=models.PROTECT, related_name="ledger_entries")
    player = models.ForeignKey(
        "clubs.Player", on_delete=models.PROTECT, related_name="ledger_entries"
    )
    amount_minor = models.BigIntegerField()
    reason = models.CharField(max_length=16, choices=LedgerReason.choices)
    booking = models.PositiveIntegerField(
        help_text="Which booking of this game the entry belongs to (1, 2, ...)."
    )
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["game", "booking", "id"]
        verbose_name_plural = "ledger entries"
        indexes = [models.Index(fields=["club", "player"])]

    def __str__(self) -> str:
        return f"Game {self.game_id}: player {self.player_id} {self.amount_minor:+d}"


class IdempotencyRecord(models.Model):
    """The first response to a creating request sent with an ``Idempotency-Key``.

    Kept seven days (``games.tasks.purge_idempotency_records_task``); see ``config/idempotency.py``.
    ``scope`` is who sent the key ("user:<id>"), so two clients never collide on a key.
    """

    scope = models.CharField(max_length=64)
    key = models.CharField(max_length=255)
    fingerprint = models.CharField(
        max_length=64, help_text="SHA-256 of the method, path and body of the first request."
    )
    method = models.CharField(max_length=8)
    path = models.CharField(max_length=512)
    response_status = models.PositiveSmallIntegerField()
    response_body = models.JSONField(null=True)
    response_headers = models.JSONField(default=dict)
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["scope", "key"], name="idempotency_key_unique"),
        ]

    def __str__(self) -> str:
        return f"{self.scope} {self.key}"


@receiver(pre_create_historical_record, sender=Hand.history.model)
def _stamp_table_link(sender, instance, history_instance, **kwargs) -> None:
    history_instance.history_table_link_id = getattr(instance, "_history_table_link_id", None)
