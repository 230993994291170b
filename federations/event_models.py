"""Federation events: a county championship that takes its entrants from the member clubs.

What it holds:
- ``FederationEvent``: a federation's event, run at a ``host_club`` (a member club) in one of the
  tournament formats (``format``, ``game`` — the variant — and ``settings``: the tournament
  settings as ``tournaments.services.create_tournament`` takes them, checked when stored), on a
  ``date``. Its entrants come from the member clubs by ``rule``: ``top_n`` (the first ``quota``
  players of each member club's season table, the calendar year ``season_year`` or, when empty,
  the current one at selection) or ``nominations`` (each member club's organisers nominate up to
  ``quota`` of their players). ``status``: ``draft`` (nominations open), ``selected`` (the
  entrants are computed and stored), ``created`` (the host club's tournament exists:
  ``tournament``; nothing changes any more).
- ``FederationNomination``: a member club's organiser puts one of the club's players forward
  (``player``; ``federation_player`` the federation player they were linked to then, if any), in
  the club's ``order`` (1 first).
- ``FederationEventEntrant``: one selected entrant: the club it comes from, the club ``player``,
  its federation player (if linked), its ``place`` at the club (the season table's order or the
  nomination order), its ``seed`` in the event, and once the tournament is created the
  ``host_player`` that enters it (the club player itself at the host club, else the host club's
  record linked to the same federation player).

What it does not do: select or create anything (``federations.events``).
"""

from __future__ import annotations

from django.conf import settings as django_settings
from django.db import models
from django.utils.translation import gettext_lazy

from clubs.models import GAME_CHOICES
from federations.models import Federation, FederationPlayer
from tournaments.models import Format


class SelectionRule(models.TextChoices):
    TOP_N = "top_n", gettext_lazy("The top of each club's season table")
    NOMINATIONS = "nominations", gettext_lazy("Nominated by the clubs")


class EventStatus(models.TextChoices):
    DRAFT = "draft", gettext_lazy("Draft")
    SELECTED = "selected", gettext_lazy("Entrants selected")
    CREATED = "created", gettext_lazy("Tournament created")


class FederationEvent(models.Model):
    federation = models.ForeignKey(Federation, on_delete=models.CASCADE, related_name="events")
    name = models.CharField(max_length=120)
    host_club = models.ForeignKey("clubs.Club", on_delete=models.PROTECT, related_name="+")
    game = models.CharField(max_length=10, choices=GAME_CHOICES, help_text="The variant.")
    format = models.CharField(max_length=16, choices=Format.choices)
    settings = models.JSONField(
        default=dict, blank=True, help_text="Tournament settings (table size, match rule, ...)."
    )
    date = models.DateField()
    rule = models.CharField(max_length=16, choices=SelectionRule.choices)
    quota = models.PositiveSmallIntegerField(
        help_text="Top N of each club's season table, or nominations per club."
    )
    season_year = models.PositiveSmallIntegerField(
        null=True, blank=True, help_text="top_n: the season (calendar year); empty = current."
    )
    status = models.CharField(max_length=10, choices=EventStatus.choices, default="draft")
    selected_season_year = models.PositiveSmallIntegerField(null=True, blank=True)
    selected_at = models.DateTimeField(null=True, blank=True)
    tournament = models.ForeignKey(
        "tournaments.Tournament",
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
    )
    created_by = models.ForeignKey(
        django_settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["federation_id", "-date", "-id"]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(quota__gte=1), name="federations_event_quota_positive"
            )
        ]

    def __str__(self) -> str:
        return f"{self.name} ({self.federation})"


class FederationNomination(models.Model):
    event = models.ForeignKey(FederationEvent, on_delete=models.CASCADE, related_name="nominations")
    club = models.ForeignKey("clubs.Club", on_delete=models.PROTECT, related_name="+")
    player = models.ForeignKey("clubs.Player", on_delete=models.PROTECT, related_name="+")
    federation_player = models.ForeignKey(
        FederationPlayer, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    order = models.PositiveSmallIntegerField()
    nominated_by = models.ForeignKey(
        django_settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["event_id", "club_id", "order", "id"]
        constraints = [
            models.UniqueConstraint(fields=["event", "player"], name="federations_nomination_once"),
            models.UniqueConstraint(
                fields=["event", "club", "order"], name="federations_nomination_order"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.player} for {self.event}"


class FederationEventEntrant(models.Model):
    event = models.ForeignKey(FederationEvent, on_delete=models.CASCADE, related_name="entrants")
    club = models.ForeignKey("clubs.Club", on_delete=models.PROTECT, related_name="+")
    player = models.ForeignKey("clubs.Player", on_delete=models.PROTECT, related_name="+")
    federation_player = models.ForeignKey(
        FederationPlayer, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    place = models.PositiveSmallIntegerField(help_text="1 = the club's first.")
    seed = models.PositiveSmallIntegerField(help_text="1 = the event's top seed.")
    host_player = models.ForeignKey(
        "clubs.Player", on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )

    class Meta:
        ordering = ["event_id", "seed"]
        constraints = [
            models.UniqueConstraint(fields=["event", "seed"], name="federations_entrant_seed"),
            models.UniqueConstraint(fields=["event", "player"], name="federations_entrant_once"),
        ]

    def __str__(self) -> str:
        return f"{self.player} in {self.event} (seed {self.seed})"
