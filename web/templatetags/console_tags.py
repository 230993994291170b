"""Template filters of the console: a problem's messages for one field; a dict lookup."""

from django import template

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
