"""The console's words for what the apps store as codes, in the reader's language.

What it does: translated names for the codes the console shows that the player pages do not
(entrant kinds, a night's status, audit entries, the state of a table on the board), next to
``web.pages.labels``'s (games, formats, statuses, roles), all looked up by
``console_tags.label_of``.

What it does not do: translate people's, clubs' or events' names (data, not words).
"""

from __future__ import annotations

from django.utils.translation import gettext_lazy, pgettext_lazy

from web.pages import labels as page_labels

ENTRANT_KINDS = {"player": gettext_lazy("players"), "team": gettext_lazy("teams")}
NIGHT_STATUSES = {
    "open": pgettext_lazy("night", "Open"),
    "closed": pgettext_lazy("night", "Closed"),
}
AUDIT_KINDS = {
    "round_drawn": gettext_lazy("Round drawn"),
    "dependents_reset": gettext_lazy("Dependent matches reset"),
    "closed": gettext_lazy("Tournament closed"),
    "check_in": gettext_lazy("Entrants checked in"),
    "entrants_swapped": gettext_lazy("Entrants swapped between tables"),
    "round_released": gettext_lazy("Round released"),
    "dispute_flagged": gettext_lazy("Table disputed"),
    "dispute_resolved": gettext_lazy("Dispute resolved"),
}

TABLES = {
    "game": page_labels.GAME_NAMES,
    "format": page_labels.FORMATS,
    "tournament_status": page_labels.TOURNAMENT_STATUSES,
    "role": page_labels.ROLES,
    "entrant_kind": ENTRANT_KINDS,
    "night_status": NIGHT_STATUSES,
    "audit": AUDIT_KINDS,
}


def label_of(code: str | None, table: str) -> str:
    """``code``'s translated name in the table called ``table``; the code when it has none."""
    return page_labels.label(TABLES[table], code)
