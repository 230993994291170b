"""Club nights, prize splits, and the stored versions of an event's settle-up with its transfers.

What it holds:
- ``Night``: an explicit club night that an organiser opens and closes; the club's games of that
  evening outside any tournament belong to it through ``NightGame`` (the link is owned here, never
  a field on ``games.Game``). A game started at one of the night's physical tables
  (``settlements.night_tables.start_night_game``) is linked at once, with its ``table_number``.
- ``PrizeSplit``: the percentages per place of an event's prize pool (a tournament or a night).
- ``Settlement``: one stored *version* of an event's settle-up — what each player's stakes, entry
  fee and prize came to (``lines``), and the transfers that clear what changed since the version
  before (``SettlementTransfer``). Versions are never rewritten; a correction adds a version.
- ``SettlementTransfer``: one payment between two players (or a player and the club), of a kind
  (``pot``: prize and entry fee with the club; ``stakes``: between players; ``all``: everything
  between players); it can be marked paid, with who marked it and when. A later version
  *supersedes* every transfer still open (``superseded_by``): only the latest version's transfers
  are open; a paid transfer never changes.
- ``NightAttendance``: a player checked in at a night's door — at the door's tablet (``door``) or
  from their own phone with the night's door code (``phone``), when, and by whom (the organiser;
  none for a phone). One row a player and night (a double tap or two phones find it). The row is
  the check-in's record, as a night's other changes are (``opened_by``, ``closed_by``, a fee's
  ``marked_by``): nights have no audit trail of their own.
- ``EntryFeePayment``: how a player's entry fee of an event was taken: at the door in cash, by
  card, or owed (then a transfer to the club in the settle-up).
- ``SettleUpRule``: a club's choice to settle everything between players (no pot at the door).
- ``SettleUpMail``: the record that a player's settle-up e-mail of a version was sent, so it is sent
  once.

What it does not do: compute anything (``settlements.computation``), decide workflows
(``settlements.services``, ``settlements.settle_up``) or know what a game or a tournament is
beyond a foreign key.

Terms:
- *event*: a tournament or a night; every row below names exactly one of the two.
- *net*: what a player receives (+) or pays (-) over the whole event, in minor units:
  stakes + prize - entry fee; the club's net is the part of the fees it keeps.
- *settled before*: what the transfers already paid (of any earlier version) moved for each party;
  *difference*: what is still to settle, which the version's own transfers move.
- *table* (of a night): table *N* of the room, 1-based; a night's table link
  (``table_links.models.TableLink.night``) follows the games started at it.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models

EVENT_XOR = models.Q(tournament__isnull=False, night__isnull=True) | models.Q(
    tournament__isnull=True, night__isnull=False
)


class NightStatus(models.TextChoices):
    OPEN = "open", "Open"
    CLOSED = "closed", "Closed"


class Night(models.Model):
    """One evening of a club's games outside any tournament."""

    club = models.ForeignKey("clubs.Club", on_delete=models.PROTECT, related_name="nights")
    name = models.CharField(max_length=120)
    status = models.CharField(max_length=8, choices=NightStatus.choices, default=NightStatus.OPEN)
    entry_fee_minor = models.BigIntegerField(
        null=True, blank=True, help_text="What each player of the night pays into the prize pool."
    )
    opened_at = models.DateTimeField()
    opened_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
    )
    closed_at = models.DateTimeField(null=True, blank=True)
    closed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
    )
    games = models.ManyToManyField("games.Game", through="NightGame", related_name="+")

    class Meta:
        ordering = ["-opened_at", "-id"]
        constraints = [
            # One open night per club: a new game outside tournaments has one night to join.
            models.UniqueConstraint(
                fields=["club"],
                condition=models.Q(status="open"),
                name="settlements_night_one_open_per_club",
            )
        ]

    def __str__(self) -> str:
        return self.name


class NightGame(models.Model):
    night = models.ForeignKey(Night, on_delete=models.CASCADE, related_name="night_games")
    game = models.OneToOneField("games.Game", on_delete=models.CASCADE, related_name="+")
    table_number = models.PositiveSmallIntegerField(
        null=True,
        blank=True,
        help_text="1-based: the physical table of the night the game is played at (empty: a "
        "game started elsewhere, linked when the night closed).",
    )
    added_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["night_id", "game_id"]
        indexes = [models.Index(fields=["night", "table_number"], name="settlements_night_table")]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(table_number__isnull=True) | models.Q(table_number__gte=1),
                name="settlements_night_table_from_one",
            )
        ]

    def __str__(self) -> str:
        return f"{self.night}: game {self.game_id}"


class CheckInAt(models.TextChoices):
    DOOR = "door", "At the door"
    PHONE = "phone", "From the player's phone"


class NightAttendance(models.Model):
    """A player checked in at a night (settlements.attendance writes it)."""

    night = models.ForeignKey(Night, on_delete=models.CASCADE, related_name="attendance")
    player = models.ForeignKey("clubs.Player", on_delete=models.PROTECT, related_name="+")
    at = models.CharField(max_length=8, choices=CheckInAt.choices)
    checked_in_at = models.DateTimeField()
    by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        help_text="Who checked the player in (empty: the player's own phone, signed out).",
    )

    class Meta:
        ordering = ["night_id", "checked_in_at", "id"]
        verbose_name_plural = "night attendance"
        constraints = [
            models.UniqueConstraint(
                fields=["night", "player"], name="settlements_attendance_once_per_night"
            )
        ]

    def __str__(self) -> str:
        return f"{self.player_id} at night {self.night_id} ({self.at})"


class PrizeSplit(models.Model):
    """Percentages of an event's prize pool per place: ``[50, 30, 20]`` = 1st 50 %, ..."""

    tournament = models.OneToOneField(
        "tournaments.Tournament",
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="+",
    )
    night = models.OneToOneField(
        Night, on_delete=models.CASCADE, null=True, blank=True, related_name="prize_split"
    )
    percentages = models.JSONField(help_text="Whole percentages per place, best first; sum 100.")
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        constraints = [models.CheckConstraint(condition=EVENT_XOR, name="settlements_split_event")]

    def __str__(self) -> str:
        return f"prize split {self.percentages}"


class Settlement(models.Model):
    """One version of an event's settle-up (1, 2, ...); never changed once stored."""

    club = models.ForeignKey("clubs.Club", on_delete=models.PROTECT, related_name="+")
    tournament = models.ForeignKey(
        "tournaments.Tournament",
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="+",
    )
    night = models.ForeignKey(
        Night, on_delete=models.CASCADE, null=True, blank=True, related_name="settlements"
    )
    version = models.PositiveIntegerField()
    lines = models.JSONField(
        help_text="Per party: player id (null = the club), stakes, entry fee, prize, net, "
        "settled before, difference — all in minor units."
    )
    details = models.JSONField(
        default=dict, help_text="Pot, prize split, places, remainder rule, exactness."
    )
    fingerprint = models.CharField(
        max_length=64, help_text="SHA-256 of the nets: the same nets never store a new version."
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["tournament_id", "night_id", "version"]
        constraints = [
            models.CheckConstraint(condition=EVENT_XOR, name="settlements_settlement_event"),
            models.UniqueConstraint(
                fields=["tournament", "version"],
                condition=models.Q(tournament__isnull=False),
                name="settlements_settlement_unique_tournament_version",
            ),
            models.UniqueConstraint(
                fields=["night", "version"],
                condition=models.Q(night__isnull=False),
                name="settlements_settlement_unique_night_version",
            ),
        ]

    def __str__(self) -> str:
        event = (
            f"tournament {self.tournament_id}" if self.tournament_id else f"night {self.night_id}"
        )
        return f"settlement of {event}, version {self.version}"


class TransferKind(models.TextChoices):
    POT = "pot", "Prize and entry fee"
    STAKES = "stakes", "Stakes"
    ALL = "all", "Stakes, prize and entry fee"


class SettlementTransfer(models.Model):
    """``payer`` pays ``payee`` ``amount_minor``; a null player is the club."""

    settlement = models.ForeignKey(Settlement, on_delete=models.CASCADE, related_name="transfers")
    payer = models.ForeignKey(
        "clubs.Player", on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    payee = models.ForeignKey(
        "clubs.Player", on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    amount_minor = models.BigIntegerField()
    kind = models.CharField(max_length=8, choices=TransferKind.choices, default=TransferKind.ALL)
    paid_at = models.DateTimeField(null=True, blank=True)
    paid_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
    )
    superseded_by = models.ForeignKey(
        Settlement,
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="superseded_transfers",
        help_text="The later version that replaced this transfer while it was open.",
    )

    class Meta:
        ordering = ["settlement_id", "-amount_minor", "id"]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(amount_minor__gt=0), name="settlements_transfer_positive"
            ),
            models.CheckConstraint(
                condition=models.Q(payer__isnull=False) | models.Q(payee__isnull=False),
                name="settlements_transfer_not_club_to_club",
            ),
            models.CheckConstraint(
                condition=models.Q(paid_at__isnull=True) | models.Q(superseded_by__isnull=True),
                name="settlements_transfer_paid_never_superseded",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.payer or 'the club'} pays {self.payee or 'the club'} {self.amount_minor}"


class SettleUpMail(models.Model):
    """A player's settle-up e-mail for one version: created before sending, marked when sent."""

    settlement = models.ForeignKey(Settlement, on_delete=models.CASCADE, related_name="mails")
    player = models.ForeignKey("clubs.Player", on_delete=models.PROTECT, related_name="+")
    address = models.EmailField()
    sent_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["settlement", "player"], name="settlements_mail_once_per_player"
            )
        ]

    def __str__(self) -> str:
        return f"settle-up of {self.player_id} for {self.settlement}"


class FeeStatus(models.TextChoices):
    CASH = "cash", "Paid in cash"
    CARD = "card", "Paid by card"
    OWED = "owed", "Owed"


PAID_AT_DOOR = (FeeStatus.CASH, FeeStatus.CARD)


class EntryFeePayment(models.Model):
    """How one player's entry fee of an event was taken (a player without a row owes it)."""

    club = models.ForeignKey("clubs.Club", on_delete=models.PROTECT, related_name="+")
    tournament = models.ForeignKey(
        "tournaments.Tournament",
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="+",
    )
    night = models.ForeignKey(
        Night, on_delete=models.CASCADE, null=True, blank=True, related_name="fee_payments"
    )
    player = models.ForeignKey("clubs.Player", on_delete=models.PROTECT, related_name="+")
    status = models.CharField(max_length=8, choices=FeeStatus.choices)
    amount_minor = models.BigIntegerField(help_text="The fee taken (or owed), in minor units.")
    marked_at = models.DateTimeField()
    marked_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
    )

    class Meta:
        ordering = ["tournament_id", "night_id", "player_id"]
        constraints = [
            models.CheckConstraint(condition=EVENT_XOR, name="settlements_fee_event"),
            models.CheckConstraint(
                condition=models.Q(amount_minor__gte=0), name="settlements_fee_not_negative"
            ),
            models.UniqueConstraint(
                fields=["tournament", "player"],
                condition=models.Q(tournament__isnull=False),
                name="settlements_fee_once_per_tournament",
            ),
            models.UniqueConstraint(
                fields=["night", "player"],
                condition=models.Q(night__isnull=False),
                name="settlements_fee_once_per_night",
            ),
        ]

    def __str__(self) -> str:
        return f"entry fee of {self.player_id}: {self.status} {self.amount_minor}"


class SettleUpRule(models.Model):
    """A club's settle-up rule: the pot at the door (default, no row) or everything between
    players (for games without a pot)."""

    club = models.OneToOneField("clubs.Club", on_delete=models.CASCADE, related_name="+")
    between_players = models.BooleanField(
        default=False, help_text="Settle entry fees and prizes between players: no pot."
    )
    updated_at = models.DateTimeField(auto_now=True)

    def __str__(self) -> str:
        return f"settle-up rule of {self.club_id}: between players {self.between_players}"
