"""What the browser tests check on every page: axe-core's findings, small touch targets, fit.

What it gives: ``violations(page)`` runs axe-core (``axe.min.js`` shipped by the
``axe-playwright-python`` package, evaluated through the browser's protocol — not an inline
``<script>``, so the pages' strict Content-Security-Policy stays on) and lists every violation,
whatever its impact, as "rule: first targets"; ``small_targets(page)`` lists the links, buttons,
fields and toggles under 44 px high (the skip link is off screen until focused);
``sideways(page)`` is how far the page scrolls sideways (0: it fits its viewport).

What it does not do: open pages or decide which pages to check (the tests do).
"""

from __future__ import annotations

from functools import cache
from pathlib import Path


@cache
def axe_source() -> str:
    import axe_playwright_python

    return (Path(axe_playwright_python.__file__).parent / "axe.min.js").read_text(encoding="utf-8")


def with_axe(context):
    """``context`` with axe-core loaded into each page it opens (once per page load)."""
    context.add_init_script(axe_source())
    return context


def violations(page) -> list[str]:
    if not page.evaluate("typeof axe !== 'undefined'"):
        page.evaluate(axe_source())
    result = page.evaluate("async () => await axe.run(document, {resultTypes: ['violations']})")
    return [
        f"{violation['id']} ({violation['impact']}): "
        f"{[node['target'] for node in violation['nodes']][:3]}"
        for violation in result["violations"]
    ]


def small_targets(page) -> list[str]:
    """A field inside its label is as big as the label (a tap on the label works it)."""
    return page.evaluate(
        """() => Array.from(document.querySelectorAll('a, button, select, input, summary'))
          .filter(element => !element.classList.contains('skip-link'))
          .filter(element => element.getClientRects().length > 0)
          .map(element => [element, (element.tagName === 'INPUT' && element.closest('label'))
                                    || element])
          .filter(([element, target]) => target.getBoundingClientRect().height < 44)
          .map(([element, target]) => `target-size: ${element.tagName}`
               + ` ${element.textContent.trim()}`
               + ` ${Math.round(target.getBoundingClientRect().height)}px`)"""
    )


def sideways(page) -> int:
    return page.evaluate(
        "document.documentElement.scrollWidth - document.documentElement.clientWidth"
    )
