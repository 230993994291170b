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

from clubs.models import GAME_CHOICES, Role
from config.problems import Problem
from rules_engine.house_rule_definitions import definitions_for
from tournaments.configuration import FORMAT_OPTIONS
from tournaments.models import EntrantKind, Format, MatchRule
from tournaments.services import DEFAULTS as TOURNAMENT_DEFAULTS


class InviteForm(forms.Form):
    identifier = forms.CharField(label="Username or e-mail", max_length=254)
    role = forms.ChoiceField(choices=Role.choices, initial=Role.PLAYER)


class RoleForm(forms.Form):
    membership = forms.IntegerField(widget=forms.HiddenInput)
    role = forms.ChoiceField(choices=Role.choices)


class AddPlayerForm(forms.Form):
    name = forms.CharField(label="Name", max_length=80)


class PastePlayersForm(forms.Form):
    names = forms.CharField(
        label="Names, one a line", widget=forms.Textarea(attrs={"rows": 8}), max_length=20000
    )

    def lines(self) -> list[str]:
        return self.cleaned_data["names"].splitlines()


class MergeForm(forms.Form):
    keep = forms.IntegerField(label="Keep this record")
    merged = forms.IntegerField(label="Merge this record into it")


class ImportPlayersForm(forms.Form):
    file = forms.FileField(label="CSV file with a 'name' column")


def _money_field(label: str) -> forms.DecimalField:
    return forms.DecimalField(
        label=label, required=False, min_value=Decimal("0"), max_digits=12, decimal_places=2,
        widget=forms.NumberInput(attrs={"step": "0.01", "inputmode": "decimal"}),
    )


class EventForm(forms.Form):
    """A tournament or a club night. Defaults: a 45 drive of pairs, two pairs (four players) to
    a table, three games."""

    kind = forms.ChoiceField(
        label="What",
        choices=[("tournament", "A tournament or drive: a draw, tables, standings"),
                 ("night", "A club night of free games: settle up at the end")],
        initial="tournament",
    )
    name = forms.CharField(max_length=120)
    game = forms.ChoiceField(choices=GAME_CHOICES, initial="45")
    format = forms.ChoiceField(choices=Format.choices, initial=Format.DRIVE)
    entrant_kind = forms.ChoiceField(
        label="Entrants", choices=EntrantKind.choices, initial=EntrantKind.TEAM
    )
    table_size = forms.IntegerField(
        label="Entrants per table (a pair counts once)", min_value=2, max_value=10, initial=2
    )
    sides_per_table = forms.IntegerField(
        label="Partners: sides per table (individuals)", required=False, min_value=2, max_value=5
    )
    movement = forms.ChoiceField(
        choices=[("losers_stay", "Losers stay"), ("losers_down", "Losers move down")],
        initial="losers_stay", required=False,
    )
    advancing_per_table = forms.IntegerField(
        label="Go through (or move up) per table", required=False, min_value=1, max_value=9
    )
    min_table_size = forms.IntegerField(
        label="Smallest short table", required=False, min_value=2, max_value=10
    )
    match_rule = forms.ChoiceField(choices=MatchRule.choices, initial=MatchRule.BEST_OF)
    match_games = forms.IntegerField(label="Games (N or K)", min_value=1, max_value=15, initial=1)
    round_count = forms.IntegerField(
        label="Rounds (games in a drive)", required=False, min_value=1, max_value=50, initial=3
    )
    third_place_match = forms.BooleanField(required=False)
    bye_rule = forms.ChoiceField(
        label="A bye counts as", choices=[("win", "A win"), ("draw", "A draw"), ("loss", "A loss")],
        initial="win", required=False,
    )
    tie_breaks = forms.CharField(
        required=False, help_text="Comma-separated; empty = the format's default."
    )
    stake = _money_field("Stake per game")
    entry_fee = _money_field("Entry fee")
    prize_split = forms.CharField(
        label="Prize split of the entry fees, % by place", required=False, max_length=100,
        help_text="e.g. 50, 30, 20 (best place first); empty: no prizes, the fees stay with "
        "the club.",
    )
    is_public = forms.BooleanField(label="Public results", required=False)
    private_draws = forms.BooleanField(
        label="Keep each draw private until I release it", required=False, initial=True
    )
    auto_advance = forms.BooleanField(
        label="Draw the next round by itself", required=False, initial=False
    )

    # Fields a club night takes (the others are a tournament's, required only for one).
    NIGHT_FIELDS = frozenset({"kind", "name", "entry_fee", "prize_split"})
    TOURNAMENT_REQUIRED = ("game", "format", "entrant_kind", "table_size", "match_rule",
                           "match_games")

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        for name in self.TOURNAMENT_REQUIRED:
            self.fields[name].required = False

    def clean(self):
        cleaned = super().clean()
        if cleaned.get("kind") == "tournament":
            for name in self.TOURNAMENT_REQUIRED:
                if cleaned.get(name) in (None, ""):
                    self.add_error(name, "A tournament needs this.")
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
            help_text = f"Default: {_shown(definition.default)}"
            if definition.kind == "number":
                field = forms.IntegerField(min_value=0, initial=value)
            elif definition.kind == "number_or_none":
                field = forms.IntegerField(min_value=1, required=False, initial=value)
            elif definition.kind == "yes_no":
                field = forms.BooleanField(required=False, initial=value)
            elif definition.kind == "choice":
                field = forms.ChoiceField(
                    choices=[(choice, choice.replace("_", " ")) for choice in definition.choices],
                    initial=value,
                )
            elif definition.kind == "subset":
                field = forms.MultipleChoiceField(
                    choices=[(choice, choice) for choice in definition.choices],
                    widget=forms.CheckboxSelectMultiple, required=False, initial=list(value or []),
                )
            else:  # numbers: a list of bids
                field = forms.CharField(
                    initial=", ".join(str(number) for number in value or []),
                    help_text="Comma-separated",
                )
            field.label = definition.meaning
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


def _shown(value) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    if value is None:
        return "none"
    if isinstance(value, (list, tuple, frozenset, set)):
        return ", ".join(str(item) for item in sorted(value, key=str)) or "none"
    return str(value).replace("_", " ")


def to_minor(amount: Decimal | None, exponent: int, field: str) -> int | None:
    """A decimal amount in minor units; more decimal places than the currency has are refused
    (400 ``invalid_amount`` at ``/<field>``) rather than rounded."""
    if amount is None:
        return None
    minor = amount.scaleb(exponent)
    if minor != minor.to_integral_value():
        raise Problem(status=400, code="invalid_amount", pointer=f"/{field}",
                      detail=f"{amount} has more decimal places than the currency has.")
    return int(minor)
