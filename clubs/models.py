"""Clubs, the roles their members hold, their players and their teams.

What it does: defines the four records every other app hangs off — a ``Club`` (with its currency,
time zone, default game and default house rules), a ``Membership`` giving a user account a role in
a club, a ``Player`` (a person in a club's books, who may or may not have an account) and a
``Team`` (a named partnership of two or three of a club's players, kept in order by
``TeamMember``). Field-level checks (currency, time zone, game, house rules) live here so the admin
and the services apply the same ones.

What it does not do: workflows (``clubs.services``), query shape (``clubs.selectors``) or who may
do what (``clubs.permissions``). Database constraints back every uniqueness rule so a race cannot
store a duplicate, but callers should check first to give a clear error.

Terms:
- *role*: ``organiser`` (manages the club), ``scorekeeper`` (records results) or ``player``
  (reads the club's books).
- *house rule overrides*: the keys of the rules table (rules.md) a club sets differently from the
  engine's defaults for its default game. Only the overrides are stored; the *effective* rules are
  the engine's defaults with the overrides applied.
- *minor units*: money is stored as integers of the currency's smallest unit (cents for EUR);
  ``minor_unit_exponent`` is the number of decimal places (2 for EUR, 0 for JPY).
"""

from __future__ import annotations

import zoneinfo
from functools import lru_cache

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import models
from django.db.models.functions import Lower
from django.utils.translation import gettext_lazy

from config.problems import escape_pointer_segment
from rules_engine.errors import RulesError
from rules_engine.house_rules import ALL_KEYS, GAMES, HouseRules

# ISO 4217 codes the service accepts, with the number of decimal places of each currency's minor
# unit. A short list on purpose: adding a currency is one line, and an unknown code is refused
# rather than guessed.
CURRENCY_MINOR_UNIT_EXPONENTS: dict[str, int] = {
    "EUR": 2,
    "GBP": 2,
    "USD": 2,
    "CAD": 2,
    "AUD": 2,
    "NZD": 2,
    "CHF": 2,
    "SEK": 2,
    "NOK": 2,
    "DKK": 2,
    "PLN": 2,
    "CZK": 2,
    "ISK": 0,
    "JPY": 0,
    "KRW": 0,
}
CURRENCY_CHOICES = [(code, code) for code in sorted(CURRENCY_MINOR_UNIT_EXPONENTS)]


class GameType(models.TextChoices):
    """The games Jink scores (``rules_engine.GAMES``), with the names players use."""

    TWENTY_FIVE = "25", "Twenty-Five"
    FORTY_FIVE = "45", "Forty-Five"
    FIFTY_FIVE = "55", "Fifty-Five"
    ONE_HUNDRED_TEN = "110", "One Hundred and Ten"
    TWO_HUNDRED_TWENTY = "220", "Two Hundred and Twenty"
    AUCTION_FORTY_FIVE = "auction45", "Auction Forty-Fives"


GAME_CHOICES = GameType.choices

MIN_TEAM_SIZE = 2
MAX_TEAM_SIZE = 3


@lru_cache(maxsize=1)
def _known_time_zones() -> frozenset[str]:
    return frozenset(zoneinfo.available_timezones())


def validate_time_zone(value: str) -> None:
    """Refuse anything that is not an IANA time zone name known to this system's zoneinfo."""
    if value not in _known_time_zones():
        raise ValidationError(
            gettext_lazy("%(value)r is not an IANA time zone name (e.g. 'Europe/Dublin')."),
            code="invalid_time_zone",
            params={"value": value},
        )


def _unknown_house_rule(key: str) -> RulesError:
    if key == "game":
        detail = "game: set by the default game, not a house rule"
    else:
        detail = f"{key}: unknown house rule; known keys: {', '.join(ALL_KEYS)}"
    return RulesError("invalid_house_rule", detail, f"/{escape_pointer_segment(key)}")


def normalize_house_rule_overrides(game: str, overrides: dict) -> dict:
    """The overrides in the engine's canonical JSON form, after the engine validated them.

    Raises ``RulesError`` (code ``invalid_house_rule``, one entry per bad key, pointers "/<key>")
    when a key is unknown, does not apply to ``game`` or has a value out of range.
    """
    # Unknown keys are reported here rather than passed on as keyword arguments: a key named
    # like a parameter of for_game ("game", "cls") would otherwise be a TypeError, not an error.
    errors = [_unknown_house_rule(key) for key in overrides if key not in ALL_KEYS]
    known = {key: value for key, value in overrides.items() if key in ALL_KEYS}
    try:
        rules = HouseRules.for_game(game, **known)
        # to_dict leaves the classic-app options out at their default; an override names them.
        effective = {**{key: getattr(rules, key) for key in known}, **rules.to_dict()}
    except RulesError as error:
        errors.extend(error.errors)
    if errors:
        raise RulesError.combine(errors)
    return {key: effective[key] for key in overrides}


class Role(models.TextChoices):
    ORGANISER = "organiser", "Organiser"
    SCOREKEEPER = "scorekeeper", "Scorekeeper"
    PLAYER = "player", "Player"


class Club(models.Model):
    name = models.CharField(max_length=100)
    slug = models.SlugField(max_length=50, unique=True)
    currency = models.CharField(
        max_length=3, choices=CURRENCY_CHOICES, help_text="ISO 4217 code of the club's money."
    )
    time_zone = models.CharField(
        max_length=64, validators=[validate_time_zone], help_text="IANA name, e.g. Europe/Dublin."
    )
    default_game = models.CharField(max_length=10, choices=GAME_CHOICES, default="25")
    default_house_rules = models.JSONField(
        default=dict,
        blank=True,
        help_text="Only the house rules this club plays differently from the engine's defaults.",
    )
    public_standings = models.BooleanField(
        default=False,
        help_text="Anyone, even without an account, may read this club, its players and teams.",
    )
    confirm_hands = models.BooleanField(
        default=False,
        help_text="A hand entered at a table must be accepted by a player of another side, who is "
        "recorded with it (Bridgemate-style).",
    )
    require_two_factor = models.BooleanField(
        default=False,
        help_text="The club's organisers must sign in with a second factor (a code from an "
        "authenticator app) to use the console and the API's organiser actions.",
    )
    # Grows whenever a name the pages show changes (the club's, a player's, a team's or its
    # members; clubs.services): the live pages' entity tags read it, so a rename reaches them.
    names_version = models.PositiveIntegerField(default=0, editable=False)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["name", "id"]

    def __str__(self) -> str:
        return self.name

    @property
    def minor_unit_exponent(self) -> int:
        return CURRENCY_MINOR_UNIT_EXPONENTS[self.currency]

    def effective_house_rules(self) -> dict:
        """The engine's defaults for ``default_game`` with this club's overrides applied."""
        return HouseRules.for_game(self.default_game, **self.default_house_rules).to_dict()

    def clean(self) -> None:
        # The admin goes through here; the API validates in clubs.services with JSON pointers.
        if self.default_house_rules is None:  # an emptied admin field means "no overrides"
            self.default_house_rules = {}
        if not isinstance(self.default_house_rules, dict):
            raise ValidationError(
                {"default_house_rules": ValidationError("Must be a JSON object.", code="invalid")}
            )
        if self.default_game not in GAMES:
            return  # the field's own choices check reports it
        try:
            self.default_house_rules = normalize_house_rule_overrides(
                self.default_game, self.default_house_rules
            )
        except RulesError as error:
            raise ValidationError(
                {
                    "default_house_rules": [
                        ValidationError(single.detail, code=single.code) for single in error.errors
                    ]
                }
            ) from error


class Membership(models.Model):
    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="memberships")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="club_memberships"
    )
    role = models.CharField(max_length=16, choices=Role.choices)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["club_id", "id"]
        constraints = [
            models.UniqueConstraint(
                fields=["club", "user"],
                name="clubs_membership_unique_user",
                violation_error_code="unique",
                violation_error_message="This user already has a role in this club.",
            )
        ]

    def __str__(self) -> str:
        return f"{self.user} is {self.role} of {self.club}"


class Player(models.Model):
    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="players")
    display_name = models.CharField(max_length=80)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="players",
        help_text="The account of this person, if they have one.",
    )
    is_active = models.BooleanField(default=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["club_id", "display_name", "id"]
        constraints = [
            models.UniqueConstraint(
                Lower("display_name"),
                "club",
                name="clubs_player_unique_name",
                violation_error_code="unique",
                violation_error_message="A player with this name already exists in this club.",
            ),
            models.UniqueConstraint(
                fields=["club", "user"],
                condition=models.Q(user__isnull=False),
                name="clubs_player_unique_user",
                violation_error_code="unique",
                violation_error_message="This account is already linked to a player of this club.",
            ),
        ]

    def __str__(self) -> str:
        return self.display_name


class Team(models.Model):
    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="teams")
    name = models.CharField(max_length=80)
    members = models.ManyToManyField(Player, through="TeamMember", related_name="teams")
    is_active = models.BooleanField(default=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["club_id", "name", "id"]
        constraints = [
            models.UniqueConstraint(
                Lower("name"),
                "club",
                name="clubs_team_unique_name",
                violation_error_code="unique",
                violation_error_message="A team with this name already exists in this club.",
            )
        ]

    def __str__(self) -> str:
        return self.name

    def ordered_members(self) -> list[Player]:
        """The team's players in their order (uses ``team_members`` when prefetched)."""
        return [member.player for member in self.team_members.all()]


class TeamMember(models.Model):
    """One seat of a team's partnership; ``position`` keeps the members in a stable order."""

    team = models.ForeignKey(Team, on_delete=models.CASCADE, related_name="team_members")
    # RESTRICT, not PROTECT: a player in a team cannot be deleted on their own (clubs.services
    # deactivates them instead), but deleting the whole club still takes its teams and players.
    player = models.ForeignKey(Player, on_delete=models.RESTRICT, related_name="team_memberships")
    position = models.PositiveSmallIntegerField()

    class Meta:
        ordering = ["team_id", "position"]
        constraints = [
            models.UniqueConstraint(
                fields=["team", "player"], name="clubs_teammember_unique_player"
            ),
            models.UniqueConstraint(
                fields=["team", "position"], name="clubs_teammember_unique_position"
            ),
            models.CheckConstraint(
                condition=models.Q(position__lt=MAX_TEAM_SIZE),
                name="clubs_teammember_position_in_range",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.player} in {self.team}"

    def clean(self) -> None:
        # The admin cleans members before a new team is saved, so look at the team object.
        team = self._state.fields_cache.get("team") or (self.team if self.team_id else None)
        if team is not None and self.player_id and self.player.club_id != team.club_id:
            raise ValidationError(
                {
                    "player": ValidationError(
                        "The player belongs to another club.", code="other_club"
                    )
                }
            )


class PlayerInvitation(models.Model):
    """An organiser's offer to link a club's player to the account called ``username``.

    The link is made only when that account accepts (``clubs.invitations``): an organiser can no
    longer attach someone's account to a player without their consent, nor learn from the answer
    whether a username exists. One pending invitation per player; a new one replaces it.
    """

    player = models.OneToOneField(Player, on_delete=models.CASCADE, related_name="invitation")
    username = models.CharField(max_length=150, help_text="The account invited, as typed.")
    invited_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at", "id"]
        indexes = [models.Index(Lower("username"), name="clubs_invitation_username")]

    def __str__(self) -> str:
        return f"{self.username} invited to be {self.player}"
