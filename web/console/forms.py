"""The console's forms: shapes and types only; every rule is the services' (their problems are
shown beside the field their pointer names).

What it does: one small form per action of a page, the house-rules form built from the engine's
own definitions (``rules_engine.house_rule_definitions``), and the new-event form whose options
carry the formats they apply to (``data-formats``) so a small script can hide the others.

What it does not do: validate domain rules (the services do) or write anything.
"""

from __future__ import annotations

from decimal import Decimal

from django import forms
from django.utils.translation import gettext, gettext_lazy

from clubs.models import GAME_CHOICES, Role
from config.problems import Problem
from config.words import PRIVILEGED_TRUMPS, rule_label, rule_value
from rules_engine.house_rule_definitions import definitions_for
from tournaments.configuration import FORMAT_OPTIONS
from tournaments.models import EntrantKind, Format, MatchRule
from tournaments.services import DEFAULTS as TOURNAMENT_DEFAULTS
from web.pages import labels as page_labels

# The choices the console shows by their translated name (the models keep English labels).
GAMES = [(code, page_labels.GAME_NAMES[code]) for code, _ in GAME_CHOICES]
ROLES = [(code, page_labels.ROLES[code]) for code, _ in Role.choices]
FORMATS = [(code, page_labels.FORMATS[code]) for code, _ in Format.choices]
ENTRANT_KINDS = [
    (EntrantKind.PLAYER, gettext_lazy("Players")),
    (EntrantKind.TEAM, gettext_lazy("Teams")),
]
MATCH_RULES = [
    (MatchRule.BEST_OF, gettext_lazy("Best of N games")),
    (MatchRule.FIRST_TO, gettext_lazy("First to K game wins")),
]


class InviteForm(forms.Form):
    identifier = forms.CharField(label=gettext_lazy("Username or e-mail"), max_length=254)
    role = forms.ChoiceField(label=gettext_lazy("Role"), choices=ROLES, initial=Role.PLAYER)


class RoleForm(forms.Form):
    membership = forms.IntegerField(widget=forms.HiddenInput)
    role = forms.ChoiceField(choices=ROLES)


class AddPlayerForm(forms.Form):
    name = forms.CharField(label=gettext_lazy("Name"), max_length=80)


class PastePlayersForm(forms.Form):
    names = forms.CharField(
        label=gettext_lazy("Names, one a line"),
        widget=forms.Textarea(attrs={"rows": 8}),
        max_length=20000,
    )

    def lines(self) -> list[str]:
        return self.cleaned_data["names"].splitlines()


class MergeForm(forms.Form):
    keep = forms.IntegerField(label=gettext_lazy("Keep this record"))
    merged = forms.IntegerField(label=gettext_lazy("Merge this record into it"))


class ImportPlayersForm(forms.Form):
    file = forms.FileField(label=gettext_lazy("CSV file with a 'name' column"))


def _money_field(label) -> forms.DecimalField:
    return forms.DecimalField(
        label=label,
        required=False,
        min_value=Decimal("0"),
        max_digits=12,
        decimal_places=2,
        widget=forms.NumberInput(attrs={"step": "0.01", "inputmode": "decimal"}),
    )


class EventForm(forms.Form):
    """A tournament or a club night. Defaults: a 45 drive of pairs, two pairs (four players) to
    a table, three games."""

    kind = forms.ChoiceField(
        label=gettext_lazy("What"),
        choices=[
            ("tournament", gettext_lazy("A tournament or drive: a draw, tables, standings")),
            ("night", gettext_lazy("A club night of free games: settle up at the end")),
        ],
        initial="tournament",
    )
    name = forms.CharField(label=gettext_lazy("Name"), max_length=120)
    game = forms.ChoiceField(label=gettext_lazy("Game"), choices=GAMES, initial="45")
    format = forms.ChoiceField(label=gettext_lazy("Format"), choices=FORMATS, initial=Format.DRIVE)
    entrant_kind = forms.ChoiceField(
        label=gettext_lazy("Entrants"), choices=ENTRANT_KINDS, initial=EntrantKind.TEAM
    )
    table_size = forms.IntegerField(
        label=gettext_lazy("Entrants per table (a pair counts once)"),
        min_value=2,
        max_value=10,
        initial=2,
    )
    sides_per_table = forms.IntegerField(
        label=gettext_lazy("Partners: sides per table (individuals)"),
        required=False,
        min_value=2,
        max_value=5,
    )
    movement = forms.ChoiceField(
        label=gettext_lazy("Movement"),
        choices=[
            ("losers_stay", gettext_lazy("Losers stay")),
            ("losers_down", gettext_lazy("Losers move down")),
        ],
        initial="losers_stay",
        required=False,
    )
    advancing_per_table = forms.IntegerField(
        label=gettext_lazy("Go through (or move up) per table"),
        required=False,
        min_value=1,
        max_value=9,
    )
    min_table_size = forms.IntegerField(
        label=gettext_lazy("Smallest short table"), required=False, min_value=2, max_value=10
    )
    match_rule = forms.ChoiceField(
        label=gettext_lazy("Match rule"), choices=MATCH_RULES, initial=MatchRule.BEST_OF
    )
    match_games = forms.IntegerField(
        label=gettext_lazy("Games (N or K)"), min_value=1, max_value=15, initial=1
    )
    round_count = forms.IntegerField(
        label=gettext_lazy("Rounds (games in a drive)"),
        required=False,
        min_value=1,
        max_value=50,
        initial=3,
    )
    third_place_match = forms.BooleanField(label=gettext_lazy("Third place match"), required=False)
    bye_rule = forms.ChoiceField(
        label=gettext_lazy("A bye counts as"),
        choices=[
            ("win", gettext_lazy("A win")),
            ("draw", gettext_lazy("A draw")),
            ("loss", gettext_lazy("A loss")),
        ],
        initial="win",
        required=False,
    )
    tie_breaks = forms.CharField(
        label=gettext_lazy("Tie breaks"),
        required=False,
        help_text=gettext_lazy("Comma-separated; empty = the format's default."),
    )
    stake = _money_field(gettext_lazy("Stake per game"))
    entry_fee = _money_field(gettext_lazy("Entry fee"))
    prize_split = forms.CharField(
        label=gettext_lazy("Prize split of the entry fees, % by place"),
        required=False,
        max_length=100,
        help_text=gettext_lazy(
            "e.g. 50, 30, 20 (best place first); empty: no prizes, the fees stay with the club."
        ),
    )
    is_public = forms.BooleanField(label=gettext_lazy("Public results"), required=False)
    private_draws = forms.BooleanField(
        label=gettext_lazy("Keep each draw private until I release it"),
        required=False,
        initial=True,
    )
    auto_advance = forms.BooleanField(
        label=gettext_lazy("Draw the next round by itself"), required=False, initial=False
    )

    # Fields a club night takes (the others are a tournament's, required only for one).
    NIGHT_FIELDS = frozenset({"kind", "name", "entry_fee", "prize_split"})
    TOURNAMENT_REQUIRED = (
        "game",
        "format",
        "entrant_kind",
        "table_size",
        "match_rule",
        "match_games",
    )

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        for name in self.TOURNAMENT_REQUIRED:
            self.fields[name].required = False

    def clean(self):
        cleaned = super().clean()
        if cleaned.get("kind") == "tournament":
            for name in self.TOURNAMENT_REQUIRED:
                if cleaned.get(name) in (None, ""):
                    self.add_error(name, gettext("A tournament needs this."))
        return cleaned

    def prize_percentages(self) -> list:
        """The prize split as whole numbers; anything else is passed on for the service to
        refuse with its own problem (``invalid_prize_split``)."""
        parts = [part.strip() for part in self.cleaned_data["prize_split"].split(",")]
        return [int(part) if part.isdigit() else part for part in parts if part]

    def format_options(self) -> dict[str, str]:
        """Field name -> the formats it applies to, space-separated (for ``data-formats``)."""
        return {option: " ".join(formats) for option, formats in FORMAT_OPTIONS.items()}

    def values(self, exponent: int) -> dict:
        """The settings for ``tournaments.services.create_tournament``: options that do not
        apply to the chosen format are left out (the service would refuse them)."""
        data = dict(self.cleaned_data)
        chosen = data["format"]
        values = {}
        for name, value in data.items():
            if name in ("stake", "entry_fee", "tie_breaks", "kind", "prize_split"):
                continue
            if name in FORMAT_OPTIONS and chosen not in FORMAT_OPTIONS[name]:
                continue
            if value in (None, "") and name in TOURNAMENT_DEFAULTS:
                continue  # hidden or left empty: the service's default
            values[name] = value
        for name in ("stake", "entry_fee"):
            if data[name] is not None:
                values[f"{name}_minor"] = to_minor(data[name], exponent, name)
        breaks = [part.strip() for part in (data["tie_breaks"] or "").split(",") if part.strip()]
        if breaks:
            values["tie_breaks"] = breaks
        return values


class HouseRulesForm(forms.Form):
    """One field per house rule that applies to ``game``, from the engine's definitions; the
    initial values are the club's effective rules, the engine's default named in the help."""

    def __init__(self, *args, game: str, current: dict, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.game = game
        self.definitions = [d for d in definitions_for(game) if d.applies]
        for definition in self.definitions:
            value = current.get(definition.key)
            help_text = gettext("Default: %(value)s") % {
                "value": rule_value(definition.default, definition.key)
            }
            if definition.kind == "number":
                field = forms.IntegerField(min_value=0, initial=value)
            elif definition.kind == "number_or_none":
                field = forms.IntegerField(min_value=1, required=False, initial=value)
            elif definition.kind == "yes_no":
                field = forms.BooleanField(required=False, initial=value)
            elif definition.kind == "choice":
                field = forms.ChoiceField(
                    choices=[(choice, rule_value(choice)) for choice in definition.choices],
                    initial=value,
                )
            elif definition.kind == "subset":
                field = forms.MultipleChoiceField(
                    choices=[(choice, PRIVILEGED_TRUMPS[choice]) for choice in definition.choices],
                    widget=forms.CheckboxSelectMultiple,
                    required=False,
                    initial=list(value or []),
                )
            else:  # numbers: a list of bids
                field = forms.CharField(
                    initial=", ".join(str(number) for number in value or []),
                    help_text=gettext("Comma-separated"),
                )
            field.label = rule_label(game, definition.key)
            field.help_text = help_text
            self.fields[definition.key] = field

    def overrides(self) -> dict:
        """The values that differ from the engine's defaults (only these are stored)."""
        result = {}
        for definition in self.definitions:
            value = self.cleaned_data[definition.key]
            if definition.kind == "numbers":
                value = [int(part) for part in value.split(",") if part.strip().isdigit()]
            if definition.kind == "subset":
                value = sorted(value)
                default = sorted(definition.default or [])
            else:
                default = definition.default
                if isinstance(default, tuple):
                    default = list(default)
            if value != default:
                result[definition.key] = value
        return result


def to_minor(amount: Decimal | None, exponent: int, field: str) -> int | None:
    """A decimal amount in minor units; more decimal places than the currency has are refused
    (400 ``invalid_amount`` at ``/<field>``) rather than rounded."""
    if amount is None:
        return None
    minor = amount.scaleb(exponent)
    if minor != minor.to_integral_value():
        raise Problem(
            code="invalid_amount",
            pointer=f"/{field}",
            detail=gettext("%(amount)s has more decimal places than the currency has.")
            % {"amount": amount},
        )
    return int(minor)


SEAT_PLACES = 6  # the most players a game of the engine seats
SIDES = [
    ("alone", gettext_lazy("Each for themselves")),
    ("partners", gettext_lazy("Two sides: partners sit in alternate places")),
    ("pairs", gettext_lazy("Pairs: partners sit across the table")),
]


class NightGameForm(forms.Form):
    """A game at a table of a club night: the table, the game, the players clockwise by name,
    the sides, who deals first and the stake (``settlements.night_tables.start_night_game``)."""

    table = forms.IntegerField(label=gettext_lazy("Table"), min_value=1, max_value=99)
    game = forms.ChoiceField(label=gettext_lazy("Game"), choices=GAMES)
    sides = forms.ChoiceField(label=gettext_lazy("Sides"), choices=SIDES, initial="alone")
    first_dealer = forms.TypedChoiceField(
        label=gettext_lazy("Deals first"), required=False, coerce=int, empty_value=None
    )
    stake = _money_field(gettext_lazy("Stake per game (each losing player pays)"))

    def __init__(self, *args, players=(), **kwargs) -> None:
        super().__init__(*args, **kwargs)
        choices = [("", gettext("— nobody —"))] + [
            (str(player.pk), player.display_name) for player in players
        ]
        for place in range(1, SEAT_PLACES + 1):
            self.fields[f"place_{place}"] = forms.TypedChoiceField(
                label=gettext("Place %(number)s") % {"number": place},
                choices=choices,
                required=False,
                coerce=int,
                empty_value=None,
            )
        self.fields["first_dealer"].choices = [("", gettext("The player in place 1"))] + choices[1:]

    def place_fields(self) -> list:
        return [self[f"place_{place}"] for place in range(1, SEAT_PLACES + 1)]

    def game_arguments(self, exponent: int, names: dict[int, str]) -> dict:
        """The keyword arguments of ``start_night_game`` (but the night and the user); a first
        dealer who is not at the table is refused (400 at ``/first_dealer``), in names."""
        data = self.cleaned_data
        seats = [
            data[f"place_{place}"]
            for place in range(1, SEAT_PLACES + 1)
            if data.get(f"place_{place}") is not None
        ]
        teams = None
        if data["sides"] != "alone" and (len(seats) < 4 or len(seats) % 2):
            raise Problem(
                code="invalid_sides",
                pointer="/sides",
                detail=gettext(
                    "Partners need an even number of players, four or more; %(count)s are chosen."
                )
                % {"count": len(seats)},
            )
        if data["sides"] == "partners":
            teams = [list(range(0, len(seats), 2)), list(range(1, len(seats), 2))]
        elif data["sides"] == "pairs":
            half = len(seats) // 2
            teams = [[seat, seat + half] for seat in range(half)]
        first_dealer = 0
        if data.get("first_dealer") is not None:
            if data["first_dealer"] not in seats:
                raise Problem(
                    code="invalid_first_dealer",
                    pointer="/first_dealer",
                    detail=gettext("%(name)s is not at this table: choose one of its players.")
                    % {"name": names.get(data["first_dealer"], data["first_dealer"])},
                )
            first_dealer = seats.index(data["first_dealer"])
        return {
            "table_number": data["table"],
            "game": data["game"],
            "seat_player_ids": seats,
            "teams": teams,
            "first_dealer": first_dealer,
            "stake_minor": to_minor(data.get("stake"), exponent, "stake"),
        }
