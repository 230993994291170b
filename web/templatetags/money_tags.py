"""The ``|money`` filter: ``{{ amount_minor|money:club }}`` is ``games.money.format_money`` in a
template ("€0.20" / "0,20 €"); ``|signed_money`` adds ``+`` to positive amounts."""

from django import template

from games.money import format_money

register = template.Library()


@register.filter
def money(amount_minor, club) -> str:
    return format_money(amount_minor, club)


@register.filter
def signed_money(amount_minor, club) -> str:
    return format_money(amount_minor, club, signed=True)
