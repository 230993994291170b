"""Leagues: a federation's season of fixtures between its member clubs' teams.

What it holds:
- ``League``: one season of one federation (``slug`` unique inside it), the variant played, the
  tables of a fixture (``tables_per_fixture``) and the shape of a table (``team_format``: one
  side of ``n`` players per team, "2v2" = a pair of each team at each table), the points for a
  win, a draw and a loss (win >= draw >= loss), the season's first and last day.
- ``LeagueTeam``: a member club's team in one league: a name, its ``captain`` (a player of the
  club; the captain's account is the one that enters and accepts results) and its ``players``.
- ``Fixture``: two teams in a round, at the home team's club, on a ``date``. ``status``:
  ``scheduled``, ``postponed`` (a new date; ``original_date`` keeps the first), ``entered`` (one
  captain entered the result, the other has not answered), ``disputed`` (the other captain
  disputed it: ``dispute_reason``; either captain may enter it again), ``played`` (accepted: it
  counts in the table), ``walkover`` (given by the federation's organisers to ``walkover_to``:
  counts as a win by every table). ``home_score``/``away_score`` are tables won.
- ``FixtureTable``: one table of a fixture entered from the table app: the ``games.Game`` played
  there (one fixture table per game, a database constraint), which side of it was the home team,
  and who won. A fixture entered on paper has no tables, only its final scores.
- ``Penalty``: points taken off a team by the federation's organisers, with a reason (never
  blank: a database constraint) that the table shows.

What it does not do: workflows (``leagues.services``), the order of the table
(``leagues.standings``), the fixture list's pairings (``leagues.schedule``).

Terms: *tables won* — a fixture's score: a table is won by the side whose game it won; *result*
— the scores entered by a captain; *accepted* — confirmed by the other captain.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import F, Q
from django.utils.translation import gettext_lazy

from clubs.models import GameType


class TeamFormat(models.TextChoices):
    SINGLES = "1v1", gettext_lazy("One player of each team at a table")
    PAIRS = "2v2", gettext_lazy("A pair of each team at a table")
    TRIPLES = "3v3", gettext_lazy("Three players of each team at a table")


class League(models.Model):
    federation = models.ForeignKey(
        "federations.Federation", on_delete=models.CASCADE, related_name="leagues"
    )
    name = models.CharField(max_length=120)
    slug = models.SlugField(max_length=50)
    variant = models.CharField(max_length=16, choices=GameType.choices, default=GameType.FORTY_FIVE)
    team_format = models.CharField(max_length=3, choices=TeamFormat.choices, default="2v2")
    tables_per_fixture = models.PositiveSmallIntegerField(default=2)
    points_win = models.PositiveSmallIntegerField(default=2)
    points_draw = models.PositiveSmallIntegerField(default=1)
    points_loss = models.PositiveSmallIntegerField(default=0)
    season_start = models.DateField()
    season_end = models.DateField()
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["federation_id", "-season_start", "name", "id"]
        constraints = [
            models.UniqueConstraint(fields=["federation", "slug"], name="leagues_league_slug"),
            models.CheckConstraint(
                condition=Q(season_end__gte=F("season_start")), name="leagues_league_season"
            ),
            models.CheckConstraint(
                condition=Q(tables_per_fixture__gte=1, tables_per_fixture__lte=20),
                name="leagues_league_tables",
            ),
            models.CheckConstraint(
                condition=Q(points_win__gte=F("points_draw"), points_draw__gte=F("points_loss")),
                name="leagues_league_points_order",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.name} ({self.federation})"

    @property
    def players_per_side(self) -> int:
        return int(self.team_format.split("v")[0])


class LeagueTeam(models.Model):
    league = models.ForeignKey(League, on_delete=models.CASCADE, related_name="teams")
    club = models.ForeignKey("clubs.Club", on_delete=models.PROTECT, related_name="league_teams")
    name = models.CharField(max_length=80)
    captain = models.ForeignKey("clubs.Player", on_delete=models.PROTECT, related_name="+")
    players = models.ManyToManyField("clubs.Player", related_name="league_teams", blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["league_id", "name", "id"]
        constraints = [
            models.UniqueConstraint(fields=["league", "name"], name="leagues_team_unique_name")
        ]

    def __str__(self) -> str:
        return self.name


class FixtureStatus(models.TextChoices):
    SCHEDULED = "scheduled", gettext_lazy("Scheduled")
    POSTPONED = "postponed", gettext_lazy("Postponed")
    ENTERED = "entered", gettext_lazy("Result entered")
    DISPUTED = "disputed", gettext_lazy("Result disputed")
    PLAYED = "played", gettext_lazy("Played")
    WALKOVER = "walkover", gettext_lazy("Walkover")


OPEN_STATUSES = (FixtureStatus.SCHEDULED, FixtureStatus.POSTPONED, FixtureStatus.DISPUTED)
COUNTED_STATUSES = (FixtureStatus.PLAYED, FixtureStatus.WALKOVER)


class Fixture(models.Model):
    league = models.ForeignKey(League, on_delete=models.CASCADE, related_name="fixtures")
    round = models.PositiveSmallIntegerField()
    home = models.ForeignKey(LeagueTeam, on_delete=models.CASCADE, related_name="home_fixtures")
    away = models.ForeignKey(LeagueTeam, on_delete=models.CASCADE, related_name="away_fixtures")
    date = models.DateField()
    original_date = models.DateField(
        null=True, blank=True, help_text="The first date, when the fixture was postponed."
    )
    status = models.CharField(
        max_length=12, choices=FixtureStatus.choices, default=FixtureStatus.SCHEDULED
    )
    home_score = models.PositiveSmallIntegerField(null=True, blank=True)
    away_score = models.PositiveSmallIntegerField(null=True, blank=True)
    walkover_to = models.ForeignKey(
        LeagueTeam, on_delete=models.CASCADE, null=True, blank=True, related_name="+"
    )
    entered_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    entered_for = models.ForeignKey(
        LeagueTeam,
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="+",
        help_text="The team whose captain entered the result (the other one accepts).",
    )
    entered_at = models.DateTimeField(null=True, blank=True)
    accepted_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    accepted_at = models.DateTimeField(null=True, blank=True)
    dispute_reason = models.CharField(max_length=500, blank=True)

    class Meta:
        ordering = ["league_id", "round", "date", "id"]
        constraints = [
            models.CheckConstraint(condition=~Q(home=F("away")), name="leagues_fixture_two_teams"),
            models.UniqueConstraint(
                fields=["league", "home", "away"], name="leagues_fixture_once_at_each_home"
            ),
            models.UniqueConstraint(
                fields=["league", "round", "home"], name="leagues_fixture_home_once_a_round"
            ),
            models.UniqueConstraint(
                fields=["league", "round", "away"], name="leagues_fixture_away_once_a_round"
            ),
            models.CheckConstraint(
                condition=Q(home_score__isnull=True, away_score__isnull=True)
                | Q(home_score__isnull=False, away_score__isnull=False),
                name="leagues_fixture_both_scores",
            ),
            models.CheckConstraint(
                condition=~Q(status__in=["entered", "played", "walkover"])
                | Q(home_score__isnull=False),
                name="leagues_fixture_result_has_scores",
            ),
            models.CheckConstraint(
                condition=(
                    Q(status="walkover", walkover_to__isnull=False)
                    & (Q(walkover_to=F("home")) | Q(walkover_to=F("away")))
                )
                | (~Q(status="walkover") & Q(walkover_to__isnull=True)),
                name="leagues_fixture_walkover_to_a_side",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.home} v {self.away} (round {self.round})"

    @property
    def counts(self) -> bool:
        """Whether the table counts it: accepted, or a walkover."""
        return self.status in COUNTED_STATUSES


class TableWinner(models.TextChoices):
    HOME = "home", gettext_lazy("Home")
    AWAY = "away", gettext_lazy("Away")


class FixtureTable(models.Model):
    fixture = models.ForeignKey(Fixture, on_delete=models.CASCADE, related_name="tables")
    number = models.PositiveSmallIntegerField()
    game = models.OneToOneField("games.Game", on_delete=models.PROTECT, related_name="league_table")
    home_side = models.PositiveSmallIntegerField(help_text="The game's side the home team held.")
    winner = models.CharField(max_length=4, choices=TableWinner.choices)

    class Meta:
        ordering = ["fixture_id", "number"]
        constraints = [
            models.UniqueConstraint(fields=["fixture", "number"], name="leagues_table_number"),
            models.CheckConstraint(condition=Q(number__gte=1), name="leagues_table_from_one"),
        ]

    def __str__(self) -> str:
        return f"{self.fixture}, table {self.number}"


class Penalty(models.Model):
    league = models.ForeignKey(League, on_delete=models.CASCADE, related_name="penalties")
    team = models.ForeignKey(LeagueTeam, on_delete=models.CASCADE, related_name="penalties")
    points = models.PositiveSmallIntegerField(help_text="Points taken off the team.")
    reason = models.CharField(max_length=300)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["league_id", "created_at", "id"]
        verbose_name_plural = "penalties"
        constraints = [
            models.CheckConstraint(condition=Q(points__gte=1), name="leagues_penalty_points"),
            models.CheckConstraint(condition=~Q(reason=""), name="leagues_penalty_reason"),
        ]

    def __str__(self) -> str:
        return f"-{self.points} {self.team}: {self.reason}"
