"""Federations: bodies above the clubs (a county board, a regional association, a league).

What it holds:
- ``Federation``: a name, a ``slug`` (its URL), the levy it charges its member clubs per
  player-session (``levy_rate_minor`` in the minor units of ``currency``).
- ``FederationRole``: a user's role in a federation; today one role, ``organiser`` (runs the
  federation's records: invitations, players, links, merges, the levy report).
- ``FederationMembership``: one spell of a club in a federation. The federation invites
  (``invited_at``/``invited_by``), the club's organiser accepts (``accepted_at``/``accepted_by``);
  the club (or the federation) ends it (``left_at``/``left_by``). A re-joining club gets a new
  row, so every spell stays on record. At most one open row (``left_at`` empty) per club and
  federation (a database constraint). States: *invited* (not accepted, not left), *member*
  (accepted, not left), *ended* (left; never accepted = a declined or withdrawn invitation).
- ``FederationPlayer``: one person across the federation's member clubs. The public choices are
  the player's: ``name_shown`` (the whole display name, or only its initials) and
  ``ranking_shown`` (whether rankings list them at all). ``merged_into``: set when this player
  was merged into another (its links moved there); a merged player is kept for the un-merge and
  is left out of every list (``FederationPlayer.objects.active()``).
- ``PlayerLink``: a club's ``clubs.Player`` is this federation player. ``how``: ``organiser``
  (made by a federation organiser), ``invitation`` (the club organiser accepted a
  ``PlayerLinkInvitation``), ``same_account`` (the same user account is the club player's
  ``user`` at two member clubs). ``unlinked_at``: an ended link is kept; the *current* links are
  ``PlayerLink.objects.current()`` — at most one per club player and federation (a database
  constraint).
- ``PlayerLinkInvitation``: a federation organiser's proposal that a club player is a federation
  player, pending until the club's organiser accepts (a link is made) or declines (deleted).
- ``FederationAuditEntry``: who did what to the federation's records (kind, user, details), the
  shape of ``tournaments.AuditEntry``. An unlink, a merge and an un-merge read their details back.

The federation events (a county championship at a host club) are ``federations.event_models``
(``FederationEvent``, ``FederationNomination``, ``FederationEventEntrant``), imported here so
Django finds them.

What it does not do: workflows (``federations.services``: every write), reads
(``federations.selectors``), the levy (``federations.levy``), or anything of a club's own records.

Terms: *member club* — a club with an accepted, not ended membership; *current link* — a
``PlayerLink`` with no ``unlinked_at``; *minor units* — as in ``clubs.models``.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models.functions import Lower
from django.utils.translation import gettext_lazy

from clubs.models import CURRENCY_CHOICES, CURRENCY_MINOR_UNIT_EXPONENTS


class Federation(models.Model):
    name = models.CharField(max_length=120)
    slug = models.SlugField(max_length=50, unique=True)
    currency = models.CharField(
        max_length=3, choices=CURRENCY_CHOICES, help_text="ISO 4217 code of the levy's money."
    )
    levy_rate_minor = models.PositiveIntegerField(
        default=0, help_text="What a member club owes per player-session, in minor units."
    )
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["name", "id"]
        constraints = [
            models.UniqueConstraint(
                Lower("name"),
                name="federations_federation_unique_name",
                violation_error_code="unique",
                violation_error_message="A federation with this name already exists.",
            )
        ]

    def __str__(self) -> str:
        return self.name

    @property
    def minor_unit_exponent(self) -> int:
        return CURRENCY_MINOR_UNIT_EXPONENTS[self.currency]


class FederationRoleKind(models.TextChoices):
    ORGANISER = "organiser", "Organiser"


class FederationRole(models.Model):
    federation = models.ForeignKey(Federation, on_delete=models.CASCADE, related_name="roles")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="federation_roles"
    )
    role = models.CharField(
        max_length=16, choices=FederationRoleKind.choices, default=FederationRoleKind.ORGANISER
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["federation_id", "id"]
        constraints = [
            models.UniqueConstraint(
                fields=["federation", "user"], name="federations_role_unique_user"
            )
        ]

    def __str__(self) -> str:
        return f"{self.user} is {self.role} of {self.federation}"


class FederationMembership(models.Model):
    federation = models.ForeignKey(Federation, on_delete=models.CASCADE, related_name="memberships")
    club = models.ForeignKey(
        "clubs.Club", on_delete=models.CASCADE, related_name="federation_memberships"
    )
    invited_at = models.DateTimeField()
    invited_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    accepted_at = models.DateTimeField(null=True, blank=True)
    accepted_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    left_at = models.DateTimeField(null=True, blank=True)
    left_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )

    class Meta:
        ordering = ["federation_id", "club_id", "invited_at", "id"]
        constraints = [
            models.UniqueConstraint(
                fields=["federation", "club"],
                condition=models.Q(left_at__isnull=True),
                name="federations_membership_one_open",
            ),
            models.CheckConstraint(
                condition=models.Q(accepted_at__isnull=True)
                | models.Q(accepted_at__gte=models.F("invited_at")),
                name="federations_membership_accepted_after_invited",
            ),
            models.CheckConstraint(
                condition=models.Q(left_at__isnull=True)
                | models.Q(left_at__gte=models.F("invited_at")),
                name="federations_membership_left_after_invited",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.club} in {self.federation} ({self.state})"

    @property
    def state(self) -> str:
        """``invited``, ``member`` or ``ended``."""
        if self.left_at is not None:
            return "ended"
        return "member" if self.accepted_at is not None else "invited"


class NameShown(models.TextChoices):
    FULL = "full", "Full name"
    INITIALS = "initials", "Initials only"


class FederationPlayerQuerySet(models.QuerySet):
    def active(self):
        """The players not merged into another."""
        return self.filter(merged_into__isnull=True)


class FederationPlayer(models.Model):
    federation = models.ForeignKey(Federation, on_delete=models.CASCADE, related_name="players")
    display_name = models.CharField(max_length=80)
    name_shown = models.CharField(
        max_length=8,
        choices=NameShown.choices,
        default=NameShown.FULL,
        help_text="What public pages show: the whole name or its initials (the player's choice).",
    )
    ranking_shown = models.BooleanField(
        default=True, help_text="Whether public rankings list this player (the player's choice)."
    )
    merged_into = models.ForeignKey(
        "self", on_delete=models.PROTECT, null=True, blank=True, related_name="merged_players"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    objects = FederationPlayerQuerySet.as_manager()

    class Meta:
        ordering = ["federation_id", "display_name", "id"]

    def __str__(self) -> str:
        return self.display_name

    @property
    def public_name(self) -> str:
        """What public pages show: the display name, or its initials ("Mary Byrne" -> "M. B.")."""
        if self.name_shown == NameShown.FULL:
            return self.display_name
        return " ".join(f"{word[0].upper()}." for word in self.display_name.split()) or "?"


class LinkHow(models.TextChoices):
    ORGANISER = "organiser", "By a federation organiser"
    INVITATION = "invitation", "By invitation, accepted by the club"
    SAME_ACCOUNT = "same_account", "The same account at two clubs"
    EVENT = "event", "Made for a federation event's entrant"


class PlayerLinkQuerySet(models.QuerySet):
    def current(self):
        """The links in force (not unlinked)."""
        return self.filter(unlinked_at__isnull=True)


class PlayerLink(models.Model):
    federation = models.ForeignKey(
        Federation, on_delete=models.CASCADE, related_name="player_links"
    )
    federation_player = models.ForeignKey(
        FederationPlayer, on_delete=models.CASCADE, related_name="links"
    )
    player = models.ForeignKey(
        "clubs.Player", on_delete=models.CASCADE, related_name="federation_links"
    )
    how = models.CharField(max_length=16, choices=LinkHow.choices)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    unlinked_at = models.DateTimeField(null=True, blank=True)
    unlinked_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )

    objects = PlayerLinkQuerySet.as_manager()

    class Meta:
        ordering = ["federation_id", "federation_player_id", "id"]
        constraints = [
            models.UniqueConstraint(
                fields=["federation", "player"],
                condition=models.Q(unlinked_at__isnull=True),
                name="federations_link_one_current",
            )
        ]

    def __str__(self) -> str:
        return f"{self.player} is {self.federation_player}"


class PlayerLinkInvitation(models.Model):
    federation = models.ForeignKey(
        Federation, on_delete=models.CASCADE, related_name="link_invitations"
    )
    federation_player = models.ForeignKey(
        FederationPlayer, on_delete=models.CASCADE, related_name="link_invitations"
    )
    player = models.ForeignKey("clubs.Player", on_delete=models.CASCADE, related_name="+")
    invited_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["federation_id", "created_at", "id"]
        constraints = [
            models.UniqueConstraint(
                fields=["federation", "player"], name="federations_link_invitation_unique"
            )
        ]

    def __str__(self) -> str:
        return f"{self.player} invited to be {self.federation_player}"


class FederationAuditKind(models.TextChoices):
    FEDERATION_CREATED = "federation_created", gettext_lazy("Federation created")
    FEDERATION_CHANGED = "federation_changed", gettext_lazy("Federation changed")
    CLUB_INVITED = "club_invited", gettext_lazy("Club invited")
    INVITATION_WITHDRAWN = "invitation_withdrawn", gettext_lazy("Invitation withdrawn")
    CLUB_ACCEPTED = "club_accepted", gettext_lazy("Club joined")
    CLUB_DECLINED = "club_declined", gettext_lazy("Club declined")
    CLUB_LEFT = "club_left", gettext_lazy("Club left")
    PLAYER_CREATED = "player_created", gettext_lazy("Player created")
    LINKED = "linked", gettext_lazy("Player linked")
    LINK_INVITED = "link_invited", gettext_lazy("Link proposed to the club")
    LINK_DECLINED = "link_declined", gettext_lazy("Link declined by the club")
    UNLINKED = "unlinked", gettext_lazy("Player unlinked")
    MERGED = "merged", gettext_lazy("Players merged")
    UNMERGED = "unmerged", gettext_lazy("Merge undone")
    PRIVACY_CHANGED = "privacy_changed", gettext_lazy("Public choices changed")
    EVENT_CREATED = "event_created", gettext_lazy("Event created")
    EVENT_CHANGED = "event_changed", gettext_lazy("Event changed")
    NOMINATED = "nominated", gettext_lazy("Player nominated")
    NOMINATION_WITHDRAWN = "nomination_withdrawn", gettext_lazy("Nomination withdrawn")
    ENTRANTS_SELECTED = "entrants_selected", gettext_lazy("Entrants selected")
    EVENT_TOURNAMENT_CREATED = "event_tournament", gettext_lazy("Event's tournament created")

    # the federation's leagues (leagues.services, docs/leagues.md)
    LEAGUE_CREATED = "league_created", gettext_lazy("League created")
    LEAGUE_TEAM_ADDED = "league_team_added", gettext_lazy("Team entered in a league")
    LEAGUE_PLAYER_ADDED = "league_player_added", gettext_lazy("Player added to a league team")
    LEAGUE_PLAYER_REMOVED = "league_player_removed", gettext_lazy("Player taken off a league team")
    FIXTURES_GENERATED = "fixtures_generated", gettext_lazy("League fixtures drawn")
    FIXTURE_POSTPONED = "fixture_postponed", gettext_lazy("Fixture postponed")
    FIXTURE_WALKOVER = "fixture_walkover", gettext_lazy("Walkover given")
    RESULT_ENTERED = "result_entered", gettext_lazy("Fixture result entered")
    RESULT_ACCEPTED = "result_accepted", gettext_lazy("Fixture result accepted")
    RESULT_DISPUTED = "result_disputed", gettext_lazy("Fixture result disputed")
    PENALTY_GIVEN = "penalty_given", gettext_lazy("Penalty given")

    ORGANISER_ADDED = "organiser_added", gettext_lazy("Organiser added")
    ORGANISER_REMOVED = "organiser_removed", gettext_lazy("Organiser removed")


class FederationAuditEntry(models.Model):
    """Who did what to a federation's records, and when (the shape of tournaments.AuditEntry)."""

    federation = models.ForeignKey(
        Federation, on_delete=models.CASCADE, related_name="audit_entries"
    )
    kind = models.CharField(max_length=24, choices=FederationAuditKind.choices)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    details = models.JSONField(default=dict, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["federation_id", "created_at", "id"]
        verbose_name_plural = "federation audit entries"

    def __str__(self) -> str:
        return f"{self.federation}: {self.kind} at {self.created_at:%Y-%m-%d %H:%M}"


from federations.event_models import (  # noqa: E402  (the events' models, registered with the app)
    EventStatus,
    FederationEvent,
    FederationEventEntrant,
    FederationNomination,
    SelectionRule,
)

__all__ = [
    "EventStatus",
    "Federation",
    "FederationAuditEntry",
    "FederationAuditKind",
    "FederationEvent",
    "FederationEventEntrant",
    "FederationMembership",
    "FederationNomination",
    "FederationPlayer",
    "FederationRole",
    "FederationRoleKind",
    "LinkHow",
    "NameShown",
    "PlayerLink",
    "PlayerLinkInvitation",
    "SelectionRule",
]
