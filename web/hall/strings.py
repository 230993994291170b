"""The words of the hall screen's modules (static/hall/*.js), translated for the page.

What it does: ``STRINGS`` lists every English string the modules show with ``t("…")``, each
marked with ``gettext_noop`` so that ``makemessages`` collects it; ``hall_strings()`` gives
``{English: translation}`` in the active language, which the page renders with ``json_script``
("hall-strings": JSON, not a script, so the strict CSP allows it) — the score pad's way
(web/scorepad/strings.py, static/table/words.js's ``translator``).

What it does not do: run gettext in the browser. ``tests/hall/test_pages.py`` checks that this
list and the modules' ``t("…")`` agree.
"""

from __future__ import annotations

from django.utils.translation import gettext, gettext_noop

STRINGS: tuple[str, ...] = (
    gettext_noop("Final results"),
    gettext_noop("Round %(number)s of %(total)s"),
    gettext_noop("Round %(number)s"),
    gettext_noop("Bye"),
    gettext_noop("Table %(table)s"),
    gettext_noop("seat %(seat)s"),
    gettext_noop("Page %(page)s of %(count)s"),
    gettext_noop("Find your seat"),
    gettext_noop("Every table has finished this round."),
    gettext_noop("Name"),
    gettext_noop("Wins"),
    gettext_noop("Points"),
    gettext_noop("Place %(place)s"),
    gettext_noop("Places %(first)s–%(last)s"),
    gettext_noop("Prizes"),
    gettext_noop("Welcome! The draw appears here as soon as it is released."),
    gettext_noop("Checked in: %(count)s"),
    gettext_noop("The leaders are shown at the end of the round."),
    gettext_noop("Leaders"),
    gettext_noop("Still playing"),
    gettext_noop("Winners"),
    gettext_noop("This hall link has ended."),
    # a club night's screen
    gettext_noop("Every table has finished its game."),
    gettext_noop("Games"),
    gettext_noop("Net"),
    gettext_noop("Welcome! The tables appear here as soon as the first game starts."),
    gettext_noop("The leaders are shown later tonight."),
)


def hall_strings() -> dict[str, str]:
    """Every string of the hall screen, English -> the active language's translation."""
    return {text: gettext(text) for text in STRINGS}
