"""The words and figures of the player pages in the reader's language.

What it does: translated names for what the apps store as codes (game types, statuses, formats,
round names, tie-break criteria), and numbers formatted for the active locale with its decimal
mark (``format_number``). Money is not formatted here: ``games.money.format_money`` is the one
formatter ("€0.20" in English, "0,20 €" in French), in templates the ``|money`` filter
(``web.templatetags.money_tags``).

What it does not do: choose the language (``LocaleMiddleware`` does, from the switch on the
page or the browser's ``Accept-Language``) or translate people's names and club data.

Terms: *minor units* — the integer amounts the ledger stores (cents); the club's
``minor_unit_exponent`` says how many decimals its currency has.
"""

from __future__ import annotations

from decimal import Decimal

from django.utils.formats import number_format
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, pgettext_lazy

GAME_NAMES = {
    "25": gettext_lazy("Twenty-Five"),
    "45": gettext_lazy("Forty-Five"),
    "55": gettext_lazy("Fifty-Five"),
    "110": gettext_lazy("One Hundred and Ten"),
    "220": gettext_lazy("Two Hundred and Twenty"),
    "auction45": gettext_lazy("Auction Forty-Fives"),
}
GAME_STATUSES = {
    "in_progress": pgettext_lazy("game", "In progress"),
    "finished": pgettext_lazy("game", "Finished"),
}
TOURNAMENT_STATUSES = {
    "registration": gettext_lazy("Registration"),
    "in_progress": pgettext_lazy("tournament", "In progress"),
    "finished": pgettext_lazy("tournament", "Finished"),
    "closed": gettext_lazy("Closed"),
}
ROUND_STATUSES = {
    "in_progress": pgettext_lazy("round", "In progress"),
    "complete": gettext_lazy("Complete"),
    "waiting": gettext_lazy("Not started"),
}
MATCH_STATUSES = {
    "pending": gettext_lazy("Waiting for entrants"),
    "in_progress": pgettext_lazy("table", "In progress"),
    "decided": gettext_lazy("Decided"),
    "bye": gettext_lazy("Bye"),
    "walkover": gettext_lazy("Walkover"),
    "waiting": gettext_lazy("Waiting"),
}
FORMATS = {
    "knockout": gettext_lazy("Knockout"),
    "round_robin": gettext_lazy("Round robin"),
    "swiss": gettext_lazy("Swiss"),
    "drive": gettext_lazy("Drive"),
}
ROLES = {
    "organiser": gettext_lazy("Organiser"),
    "scorekeeper": gettext_lazy("Scorekeeper"),
    "player": gettext_lazy("Player"),
}
# Each criterion: its name in a sentence ("level on match wins") and its column heading.
TIE_BREAKS = {
    "match_points": (gettext_lazy("match points"), pgettext_lazy("column", "Pts")),
    "match_wins": (gettext_lazy("match wins"), pgettext_lazy("column", "W")),
    "games_won": (gettext_lazy("games won"), pgettext_lazy("column", "G")),
    "points_for": (gettext_lazy("points scored"), pgettext_lazy("column", "For")),
    "points_difference": (gettext_lazy("points difference"), pgettext_lazy("column", "+/−")),
    "tricks_won": (gettext_lazy("tricks won"), pgettext_lazy("column", "Tricks")),
    "head_to_head": (gettext_lazy("their meetings"), pgettext_lazy("column", "H2H")),
    "buchholz": (gettext_lazy("opponents' match points"), pgettext_lazy("column", "Opp")),
    "lots": (gettext_lazy("drawing of lots"), pgettext_lazy("column", "Lots")),
}


def label(table: dict, code: str | None) -> str:
    """``code``'s translated name in ``table``; the code itself when it has none."""
    if code is None:
        return ""
    return str(table.get(code, code))


def game_name(code: str) -> str:
    return label(GAME_NAMES, code)


def round_name(number: int, rounds_total: int | None, table_size: int) -> str:
    """ "Final", "Semi-finals", ... for a bracket (``rounds_total``: its planned rounds, None
    without one, ``tournaments.selectors.knockout_round_total``) of tables of two, else
    "Round n" (the API's English names: ``tournaments.selectors.round_name``)."""
    if rounds_total and table_size == 2:
        from_end = rounds_total - number
        if from_end == 0:
            return _("Final")
        if from_end == 1:
            return _("Semi-finals")
        if from_end == 2:
            return _("Quarter-finals")
    return _("Round %(number)s") % {"number": number}


def format_number(value) -> str:
    """An integer as it is, a fraction with the locale's decimal mark ("2.5" / "2,5")."""
    if isinstance(value, float):
        if value == int(value):
            return str(int(value))
        return number_format(Decimal(str(value)), use_l10n=True)
    return str(value)
