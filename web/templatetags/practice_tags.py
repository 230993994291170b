"""Template filters of the practice table: the name of a practice game's rules, translated."""

from django import template
from django.utils.translation import gettext_lazy

register = template.Library()

# The rules a practice game is played by: a preset's or the engine's defaults (a club's rules
# are named by the club's name, which is data).
RULES_NAMES = {
    "classic_45": gettext_lazy("the classic app's rules"),
    "standard": gettext_lazy("standard rules"),
}


@register.filter
def rules_label(rules_name: str) -> str:
    return str(RULES_NAMES.get(rules_name, rules_name))
