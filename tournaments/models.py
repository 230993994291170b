"""Tournaments, their entrants, rounds and matches, and the audit trail of resets.

What it does: stores what an organiser configured (``Tournament``), who is playing (``Entrant``: a
club player or a club team, with an optional seed), the rounds drawn (``Round``), the tables of each
round (``Match``) with the entrants in seat order and each one's result (``MatchEntrant``), the
link of each game to its match (``MatchGame``), an explicit audit record (``AuditEntry``) of the
organisers' actions on the evening's results (a round drawn, released or its entrants swapped,
who is present, dependent matches reset, a dispute flagged or resolved, the close; the hall
screen's link, round clock and leaders switch, written by ``hall.services``), and the
stored standings (``StandingsSnapshot``). ``Round`` and ``Match``
also keep a full django-simple-history trail.

What it does not do: drawing, pairing, advancing and ranking (pure modules in
``tournaments.draw``, chosen by the format's policy in ``tournaments.formats``), the workflows
around them (``tournaments.services``) or the games themselves
(``games.Game`` knows nothing of tournaments: ``MatchGame`` links each game played for a match to
it, one match per game).

Terms:
- *entrant*: one competitor of a tournament — an individual player or a fixed team.
- *table size*: the number of entrants at one match's table (2 for a head-to-head match; 4 for a
  25 drive of individuals at tables of four; 2 for a 2 v 2 auction 45 match between two teams).
- *match*: the games between the entrants of one table in one round; decided by ``match_rule``
  (``best_of`` N games or ``first_to`` K game wins), or after exactly one game in a drive.
- *position*: an entrant's place in a match's seat order (0-based). Individuals sit in that order;
  a team's players alternate with the other teams' players so partners are never neighbours.
- *source match / source place*: in a knockout a slot of a later match is filled by the entrant
  finishing ``source_place`` (1 = winner) in ``source_match``; that is what "depends on" means.
- *minor units*: money as integers of the club currency's smallest unit.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from simple_history.models import HistoricalRecords

from clubs.models import GAME_CHOICES


class Format(models.TextChoices):
    KNOCKOUT = "knockout", "Knockout"
    ROUND_ROBIN = "round_robin", "Round robin"
    SWISS = "swiss", "Swiss"
    DRIVE = "drive", "Drive"


class EntrantKind(models.TextChoices):
    PLAYER = "player", "Players"
    TEAM = "team", "Teams"


class MatchRule(models.TextChoices):
    BEST_OF = "best_of", "Best of N games"
    FIRST_TO = "first_to", "First to K game wins"


class TournamentStatus(models.TextChoices):
    REGISTRATION = "registration", "Registration"
    IN_PROGRESS = "in_progress", "In progress"
    FINISHED = "finished", "Finished"
    CLOSED = "closed", "Closed"


class RoundStatus(models.TextChoices):
    IN_PROGRESS = "in_progress", "In progress"
    COMPLETE = "complete", "Complete"


class MatchStatus(models.TextChoices):
    PENDING = "pending", "Waiting for entrants"
    IN_PROGRESS = "in_progress", "In progress"
    DECIDED = "decided", "Decided"


class Tournament(models.Model):
    club = models.ForeignKey("clubs.Club", on_delete=models.PROTECT, related_name="tournaments")
    name = models.CharField(max_length=120)
    game = models.CharField(max_length=10, choices=GAME_CHOICES)
    house_rules = models.JSONField(
        default=dict, blank=True, help_text="Overrides of the game's house rules for every game."
    )
    format = models.CharField(max_length=16, choices=Format.choices)
    entrant_kind = models.CharField(
        max_length=8, choices=EntrantKind.choices, default=EntrantKind.PLAYER
    )
    table_size = models.PositiveSmallIntegerField(
        default=2,
        help_text="Entrants per table (not seats: a team takes as many seats as players).",
    )
    advancing_per_table = models.PositiveSmallIntegerField(
        null=True,
        blank=True,
        help_text="Knockout: entrants of each table who go through (default 1). Drive: winners "
        "who move up (default one side, or half the table).",
    )
    sides_per_table = models.PositiveSmallIntegerField(
        null=True,
        blank=True,
        help_text="Drive of individuals: partner them into this many sides for each game "
        "(progressive partners); empty = everyone for themselves.",
    )
    movement = models.CharField(
        max_length=16,
        choices=[("losers_stay", "Losers stay"), ("losers_down", "Losers move down")],
        default="losers_stay",
        help_text="Drive: where the losers of a table go.",
    )
    min_table_size = models.PositiveSmallIntegerField(
        null=True,
        blank=True,
        help_text="Swiss and round robin at tables of more than two: short tables of at least "
        "this many replace byes when they can.",
    )
    match_rule = models.CharField(
        max_length=10, choices=MatchRule.choices, default=MatchRule.BEST_OF
    )
    match_games = models.PositiveSmallIntegerField(
        default=1, help_text="N of best-of-N or K of first-to-K."
    )
    round_count = models.PositiveSmallIntegerField(
        null=True, blank=True, help_text="Swiss and drive: the number of rounds to play."
    )
    third_place_match = models.BooleanField(default=False)
    bye_rule = models.CharField(
        max_length=20, default="win", help_text="Swiss: how a bye is scored (see docs)."
    )
    tie_breaks = models.JSONField(
        default=list, blank=True, help_text="Ordered tie-break names; empty = the format's default."
    )
    stake_minor = models.BigIntegerField(
        null=True, blank=True, help_text="What each loser pays per game, in minor units."
    )
    entry_fee_minor = models.BigIntegerField(null=True, blank=True)
    is_public = models.BooleanField(default=False)
    private_draws = models.BooleanField(
        default=False,
        help_text="Each round drawn stays hidden from players until an organiser releases it.",
    )
    auto_advance = models.BooleanField(
        default=True,
        help_text="Draw the next round by itself when a round completes (knockouts always fill).",
    )
    status = models.CharField(
        max_length=16, choices=TournamentStatus.choices, default=TournamentStatus.REGISTRATION
    )
    lots_seed = models.BigIntegerField(
        help_text="Seed for every random choice (drawing of lots, random pairings): reruns agree."
    )
    draw_order = models.JSONField(
        default=list,
        blank=True,
        help_text="Entrant ids in the order given to the draw (seed order), fixed at round 1.",
    )
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
    )
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)
    closed_at = models.DateTimeField(null=True, blank=True)
    version = models.PositiveIntegerField(default=1, help_text="Bumped on every change (ETag).")
    data_version = models.PositiveIntegerField(
        default=1,
        help_text="Bumped, in the same transaction, by every change the standings are computed "
        "from (a result, a round, an entrant, a setting); the standings snapshot records the "
        "data version it was computed from.",
    )

    class Meta:
        ordering = ["-created_at", "-id"]
        indexes = [models.Index(fields=["club", "status"])]

    def __str__(self) -> str:
        return self.name


class Entrant(models.Model):
    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="entrants")
    player = models.ForeignKey(
        "clubs.Player",
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="tournament_entries",
    )
    team = models.ForeignKey(
        "clubs.Team",
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="tournament_entries",
    )
    seed = models.PositiveSmallIntegerField(null=True, blank=True, help_text="1 = top seed.")
    is_present = models.BooleanField(
        default=True,
        help_text="Checked in for the next draw: only entrants present are drawn.",
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["tournament_id", "seed", "id"]
        constraints = [
            models.CheckConstraint(
                condition=(
                    models.Q(player__isnull=False, team__isnull=True)
                    | models.Q(player__isnull=True, team__isnull=False)
                ),
                name="tournaments_entrant_player_xor_team",
            ),
            models.UniqueConstraint(
                fields=["tournament", "player"],
                condition=models.Q(player__isnull=False),
                name="tournaments_entrant_unique_player",
            ),
            models.UniqueConstraint(
                fields=["tournament", "team"],
                condition=models.Q(team__isnull=False),
                name="tournaments_entrant_unique_team",
            ),
            models.UniqueConstraint(
                fields=["tournament", "seed"],
                condition=models.Q(seed__isnull=False),
                name="tournaments_entrant_unique_seed",
            ),
        ]

    def __str__(self) -> str:
        return str(self.player if self.player_id else self.team)

    @property
    def name(self) -> str:
        return self.player.display_name if self.player_id else self.team.name


class RoundQuerySet(models.QuerySet):
    def released(self):
        return self.filter(released_at__isnull=False)


class Round(models.Model):
    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="rounds")
    number = models.PositiveSmallIntegerField(help_text="1-based.")
    status = models.CharField(
        max_length=16, choices=RoundStatus.choices, default=RoundStatus.IN_PROGRESS
    )
    drawn_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
    )
    created_at = models.DateTimeField(auto_now_add=True)
    completed_at = models.DateTimeField(null=True, blank=True)
    released_at = models.DateTimeField(
        null=True,
        blank=True,
        help_text="When players could first see the round; empty = private to the organisers.",
    )
    history = HistoricalRecords()
    objects = RoundQuerySet.as_manager()

    class Meta:
        ordering = ["tournament_id", "number"]
        constraints = [
            models.UniqueConstraint(
                fields=["tournament", "number"], name="tournaments_round_unique_number"
            )
        ]

    def __str__(self) -> str:
        return f"{self.tournament} round {self.number}"

    @property
    def is_released(self) -> bool:
        return self.released_at is not None


class Match(models.Model):
    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="matches")
    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="matches")
    table = models.PositiveSmallIntegerField(help_text="1-based table number within the round.")
    status = models.CharField(
        max_length=16, choices=MatchStatus.choices, default=MatchStatus.PENDING
    )
    is_bye = models.BooleanField(default=False, help_text="A lone entrant, decided at the draw.")
    is_third_place = models.BooleanField(default=False)
    result = models.JSONField(
        default=dict, blank=True, help_text="The decision of tournaments.draw.matches, as data."
    )
    decided_at = models.DateTimeField(null=True, blank=True)
    # A dispute at the table (tournaments.disputes): flagged by a scorer with a short note,
    # resolved by an organiser; both are audit entries too.
    dispute_note = models.CharField(max_length=200, blank=True, default="")
    disputed_at = models.DateTimeField(null=True, blank=True)
    disputed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
    )
    updated_at = models.DateTimeField(auto_now=True)
    # The match's games, through the link tournaments owns; no accessor on Game (games does not
    # know tournaments): from a game, go through ``Game.match_link`` (a ``MatchGame``).
    games = models.ManyToManyField("games.Game", through="MatchGame", related_name="+", blank=True)
    history = HistoricalRecords()

    class Meta:
        ordering = ["round_id", "table"]
        verbose_name_plural = "matches"
        constraints = [
            models.UniqueConstraint(
                fields=["round", "table"], name="tournaments_match_unique_table"
            )
        ]
        indexes = [models.Index(fields=["tournament", "status"])]

    def __str__(self) -> str:
        return f"{self.round} table {self.table}"


class MatchGame(models.Model):
    """A game played for a match: the link between games and tournaments, owned by tournaments.

    One row per game (a game belongs to at most one match); deleting the match is refused while
    it has games, deleting a game removes its link. Created with the game, in the same
    transaction (``tournaments.game_hooks.link_games``, called by ``games.services``).
    """

    match = models.ForeignKey(Match, on_delete=models.PROTECT, related_name="match_games")
    game = models.OneToOneField("games.Game", on_delete=models.CASCADE, related_name="match_link")

    class Meta:
        ordering = ["match_id", "game_id"]

    def __str__(self) -> str:
        return f"game {self.game_id} of match {self.match_id}"


class MatchEntrant(models.Model):
    """One entrant's place at a match's table, and that entrant's result in the match."""

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="slots")
    position = models.PositiveSmallIntegerField(help_text="0-based seat order at the table.")
    side = models.PositiveSmallIntegerField(
        null=True,
        blank=True,
        help_text="Index of the side this entrant plays on when entrants are partnered at the "
        "table (a drive's progressive partners); empty = the entrant is a side of its own.",
    )
    entrant = models.ForeignKey(
        Entrant,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="match_slots",
        help_text="Empty until the source match is decided.",
    )
    source_match = models.ForeignKey(
        Match,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="dependent_slots",
    )
    source_place = models.PositiveSmallIntegerField(
        null=True, blank=True, help_text="1 = the source match's winner, 2 = runner-up, ..."
    )
    games_won = models.PositiveSmallIntegerField(default=0)
    points_for = models.IntegerField(default=0)
    points_against = models.IntegerField(default=0)
    tricks_won = models.PositiveIntegerField(default=0)
    place = models.PositiveSmallIntegerField(
        null=True, blank=True, help_text="Finishing place at the table once decided (1 = won)."
    )
    advances = models.BooleanField(default=False)

    class Meta:
        ordering = ["match_id", "position"]
        constraints = [
            models.UniqueConstraint(
                fields=["match", "position"], name="tournaments_matchentrant_unique_position"
            ),
            models.UniqueConstraint(
                fields=["match", "entrant"],
                condition=models.Q(entrant__isnull=False),
                name="tournaments_matchentrant_unique_entrant",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.match} position {self.position}: {self.entrant or 'to be decided'}"


class AuditKind(models.TextChoices):
    ROUND_DRAWN = "round_drawn", "Round drawn"
    DEPENDENTS_RESET = "dependents_reset", "Dependent matches reset"
    CLOSED = "closed", "Tournament closed"
    CHECK_IN = "check_in", "Entrants checked in"
    ENTRANTS_SWAPPED = "entrants_swapped", "Entrants swapped between tables"
    ROUND_RELEASED = "round_released", "Round released"
    DISPUTE_FLAGGED = "dispute_flagged", "Table disputed"
    DISPUTE_RESOLVED = "dispute_resolved", "Dispute resolved"
    HALL_LINK = "hall_link", "Hall link made or revoked"
    HALL_CLOCK = "hall_clock", "Round clock started, paused, resumed, extended or stopped"
    HALL_LEADERS = "hall_leaders", "Leaders hidden or shown on the hall screen"


class AuditEntry(models.Model):
    """Who did what to a tournament's results, and when (kept even when matches are deleted)."""

    tournament = models.ForeignKey(
        Tournament, on_delete=models.CASCADE, related_name="audit_entries"
    )
    kind = models.CharField(max_length=24, choices=AuditKind.choices)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
    )
    match = models.ForeignKey(
        Match, on_delete=models.SET_NULL, null=True, blank=True, related_name="audit_entries"
    )
    details = models.JSONField(default=dict, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["tournament_id", "created_at", "id"]
        verbose_name_plural = "audit entries"

    def __str__(self) -> str:
        return f"{self.tournament}: {self.kind} at {self.created_at:%Y-%m-%d %H:%M}"


class StandingsSnapshot(models.Model):
    """The stored standings of a tournament, recomputed by a job (``tournaments.snapshots``).

    ``version`` counts the recomputations that stored something (the API's ``ETag``);
    ``data_version`` is the ``Tournament.data_version`` it was computed from: behind the
    tournament's means a newer recomputation is pending (``stale``).
    """

    tournament = models.OneToOneField(
        Tournament, on_delete=models.CASCADE, primary_key=True, related_name="standings_snapshot"
    )
    version = models.PositiveIntegerField(default=1)
    data_version = models.PositiveIntegerField()
    body = models.JSONField(help_text="compute_standings' result without computed_at and etag.")
    computed_at = models.DateTimeField()

    def __str__(self) -> str:
        return f"standings of {self.tournament_id}, version {self.version}"


# The door's code lives in its own module; imported here so Django registers it with the app.
from tournaments.door_models import DoorCode  # noqa: E402, F401
