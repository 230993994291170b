"""Template filters of the console: a problem's messages for one field; a dict lookup; a code's
name in the reader's language (``web.console.labels``)."""

from django import template

from web.console.labels import label_of

register = template.Library()


@register.filter
def problem_for(problem, field: str) -> list[str]:
    """The messages of ``problem`` (a ``ProblemShown`` or None) for ``field``."""
    if problem is None:
        return []
    return problem.by_field.get(field, [])


@register.filter
def get_item(mapping, key):
    return mapping.get(key) if mapping else None


@register.filter(name="label_of")
def label_of_filter(code, table: str) -> str:
    """``{{ event.game|label_of:"game" }}``: a stored code's name in the reader's language."""
    return label_of(code, table)
