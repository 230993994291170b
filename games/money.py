"""Money in the API: decimal strings in a club's currency, stored as integer minor units.

What it does: converts between the API's decimal strings ("0.20") and integer minor units (20)
given the currency's minor-unit exponent (2 for EUR, 0 for JPY), exactly and without floats, and
refuses amounts of more than ``MAX_DIGITS`` digits in minor units. ``amount_string`` is the one
way the API, the exports and the stored documents write an amount: a decimal string in the club's
currency, None kept.

The one rule for an amount a person types (``AMOUNT_PATTERN``): ASCII digits, optionally a point
and more digits, optionally a leading minus where negative amounts are allowed, optionally
surrounded by spaces. Nothing else: no exponent ("1e5"), no digit separators ("1_000", "1,000"),
no plus sign, no leading point (".5"), no NaN or Infinity, though Python's ``Decimal`` reads
them all; such a text is refused, never stored as the number Python would make of it.

``format_money`` is the one way an amount is shown to a person (pages, console, e-mails, charts'
labels): in the club's currency and the active language ("€0.20" in English, "0,20 €" in French);
the template filter ``|money`` (``web.templatetags.money_tags``) calls it.

What it does not do: know currencies beyond their symbol (``clubs.models`` holds the exponents)
or round anything: an amount finer than the minor unit ("0.205" EUR) is refused, never rounded.
"""

from __future__ import annotations

import re
from decimal import Decimal, InvalidOperation, localcontext

from django.utils.formats import number_format
from django.utils.translation import gettext

# Amounts are accepted below 10**MAX_DIGITS minor units (ten billion euros): far above any
# stake, far below the 64-bit columns that store amounts and their sums.
MAX_DIGITS = 12
AMOUNT_PATTERN = re.compile(r"\s*-?[0-9]+(?:\.[0-9]+)?\s*", re.ASCII)
# Longer texts are refused before the pattern runs (the bound on digits is MAX_DIGITS anyway;
# this leaves room for trailing zeros such as "0.2000").
MAX_TEXT_LENGTH = 64


# Symbols for the currencies whose symbol is unambiguous; other currencies show their ISO code.
CURRENCY_SYMBOLS = {"EUR": "€", "GBP": "£", "USD": "$"}


class InvalidAmount(ValueError):
    """The text is not an amount of money in this currency; the message says why."""


def minor_to_decimal_string(amount_minor: int, exponent: int) -> str:
    """``20, 2 -> "0.20"``; ``-5, 2 -> "-0.05"``; ``300, 0 -> "300"``."""
    sign = "-" if amount_minor < 0 else ""
    digits = str(abs(amount_minor))
    if exponent == 0:
        return sign + digits
    digits = digits.rjust(exponent + 1, "0")
    return f"{sign}{digits[:-exponent]}.{digits[-exponent:]}"


def amount_string(amount_minor: int | None, club) -> str | None:
    """An amount as the API writes it: a decimal string in ``club``'s currency (``20`` in a EUR
    club -> ``"0.20"``); None stays None. ``club`` is anything with ``minor_unit_exponent``. The
    one way the API, the exports and the stored documents write an amount; ``format_money`` is
    the one way a page shows it to a person."""
    if amount_minor is None:
        return None
    return minor_to_decimal_string(amount_minor, club.minor_unit_exponent)


def decimal_string_to_minor(text: object, exponent: int, *, allow_negative: bool = False) -> int:
    """``"0.20", 2 -> 20``. Raises ``InvalidAmount`` for anything else than such a string."""
    if not isinstance(text, str):
        raise InvalidAmount('an amount is a decimal string such as "0.20"')
    if len(text) > MAX_TEXT_LENGTH or not AMOUNT_PATTERN.fullmatch(text):
        raise InvalidAmount(
            f'{text[:MAX_TEXT_LENGTH]!r} is not a decimal amount such as "0.20" (digits, '
            "optionally a point and more digits; no exponent, separator or plus sign)"
        )
    try:
        value = Decimal(text.strip())
    except InvalidOperation as error:
        raise InvalidAmount(f'{text!r} is not a decimal amount such as "0.20"') from error
    if not value.is_finite():
        raise InvalidAmount(f"{text!r} is not a finite amount")
    if value.is_zero():
        return 0  # "-0" and "0.000" too
    if value < 0 and not allow_negative:
        raise InvalidAmount("an amount may not be negative")
    # Bounds first, by the position of the leading digit (no arithmetic, so "1e999999999" and
    # "1e-999999999" cannot overflow or underflow the decimal context).
    magnitude = value.adjusted() + exponent  # the leading digit is at 10**magnitude minor units
    if magnitude >= MAX_DIGITS:
        raise InvalidAmount(f"{text!r} is too large: amounts have at most {MAX_DIGITS} digits")
    if magnitude < 0:
        raise InvalidAmount(_too_fine(text, exponent))
    # Enough precision for every digit given: "1.000000000000000000000000000001" must not be
    # rounded to 1 by the default 28 digits and then pass as a whole number of minor units.
    with localcontext(prec=len(value.as_tuple().digits) + exponent + 2):
        scaled = value.scaleb(exponent)
        if scaled != scaled.to_integral_value():
            raise InvalidAmount(_too_fine(text, exponent))
    return int(scaled)


def _too_fine(text: str, exponent: int) -> str:
    return f"{text!r} has more than {exponent} decimal place(s), finer than the currency allows"


def format_money(amount_minor: int | None, club, *, signed: bool = False) -> str:
    """``20`` in a EUR club -> ``"€0.20"`` (English) or ``"0,20 €"`` (French), in the active
    language; ``signed`` adds ``+`` to positive amounts; None gives "". ``club`` is anything with
    ``currency`` and ``minor_unit_exponent``."""
    if amount_minor is None:
        return ""
    exponent = club.minor_unit_exponent
    amount = Decimal(abs(amount_minor)).scaleb(-exponent)
    number = number_format(amount, decimal_pos=exponent, use_l10n=True, force_grouping=True)
    symbol = CURRENCY_SYMBOLS.get(club.currency)
    if symbol:
        # Translators: where the currency symbol goes ("€0.20" or "0,20 €").
        text = gettext("%(symbol)s%(amount)s") % {"symbol": symbol, "amount": number}
    else:
        text = f"{number}\u00a0{club.currency}"
    if amount_minor < 0:
        return f"-{text}"
    return f"+{text}" if signed and amount_minor > 0 else text
