"""Standings that explain themselves: which figures decided each place, and why ties split.

What it does: ``standings_view`` turns ``tournaments.standings.compute_standings`` into rows for
the event page: the figures of the tournament's tie-break chain first (they decide the order;
the others collapse into a detail row on a phone), and under an entrant ranked below another it
was level with on the chain's first criterion, a note "Level with Ann on match wins and games
won; split by points difference (25 to 15)". Before any match is played it says "not started"
and lists the entrants in the draw's order instead of a ranking made by lots.

What it does not do: rank (``tournaments.draw.ranking`` did, and recorded the values each
criterion compared: ``tie_break_values``).

Terms: *chain* — the tournament's ordered tie-break criteria; *deciding criterion* of a row —
the first criterion of the chain on which it differs from the row above.
"""

from __future__ import annotations

from django.utils.text import format_lazy
from django.utils.translation import gettext as _
from django.utils.translation import pgettext

from web.pages.labels import TIE_BREAKS, format_number

# Figures shown in the table (besides rank and name), by the key of a standings row.
FIGURES = (
    ("matches_played", "P"),
    ("match_wins", "W"),
    ("match_draws", "D"),
    ("match_losses", "L"),
    ("match_points", "Pts"),
    ("games_won", "G"),
    ("points_for", "For"),
    ("points_difference", "+/−"),
    ("tricks_won", "Tricks"),
)
# Criteria without a figure column of their own: shown in the notes only.
NOTE_ONLY = {"head_to_head", "lots", "buchholz"}


def _headings() -> dict[str, tuple[str, str]]:
    """Column key -> (short heading, full name) in the active language."""
    return {
        "matches_played": (pgettext("column", "P"), _("Matches played")),
        "match_wins": (pgettext("column", "W"), _("Matches won")),
        "match_draws": (pgettext("column", "D"), _("Matches drawn")),
        "match_losses": (pgettext("column", "L"), _("Matches lost")),
        "match_points": (pgettext("column", "Pts"), _("Match points")),
        "games_won": (pgettext("column", "G"), _("Games won")),
        "points_for": (pgettext("column", "For"), _("Points scored")),
        "points_difference": (pgettext("column", "+/−"), _("Points difference")),
        "tricks_won": (pgettext("column", "Tricks"), _("Tricks won")),
    }


def _criterion_name(name: str) -> str:
    return str(TIE_BREAKS.get(name, (name, name))[0])


def _list(names: list[str]) -> str:
    if len(names) == 1:
        return names[0]
    return format_lazy(_("{first} and {last}"), first=", ".join(names[:-1]), last=names[-1])


def _note(above: dict, row: dict, chain: list[str]) -> tuple[str | None, str | None]:
    """The note under ``row`` and its deciding criterion (None when the first criterion or a
    knockout's stage decided: the table says that plainly)."""
    if above["rank"] == row["rank"]:
        return _("Level with %(name)s on everything: they share the place.") % {
            "name": above["entrant"]["name"]
        }, None
    level = []
    for criterion in chain:
        mine = row["tie_break_values"].get(criterion)
        theirs = above["tie_break_values"].get(criterion)
        if mine is None or theirs is None:
            return None, None
        if mine == theirs:
            level.append(criterion)
            continue
        if not level:
            return None, criterion
        values = {
            "name": above["entrant"]["name"],
            "level": _list([_criterion_name(name) for name in level]),
            "split": _criterion_name(criterion),
        }
        if criterion in ("lots", "head_to_head"):
            return _("Level with %(name)s on %(level)s; split by %(split)s.") % values, criterion
        return _(
            "Level with %(name)s on %(level)s; split by %(split)s (%(theirs)s to %(mine)s)."
        ) % {**values, "theirs": format_number(theirs), "mine": format_number(mine)}, criterion
    return None, None


def standings_view(standings: dict, *, winners: list[int], me: int | None,
                   is_team: bool) -> dict:
    """``{"is_started", "columns", "rows", "chain"}`` for the event page."""
    rows = standings["standings"]
    chain = list(standings["tie_breaks"])
    headings = _headings()
    is_started = any(row["matches_played"] or row["byes"] for row in rows)
    keys = [key for key, _short in FIGURES if key != "tricks_won" or "tricks_won" in chain]
    # The chain's figures come first and (up to three) stay visible on a phone; the rest fold
    # into the detail row.
    chained = [criterion for criterion in chain if criterion in headings]
    order = ["matches_played", *chained] + [key for key in keys if key not in chained
                                            and key != "matches_played"]
    visible = {"matches_played", *chained[:3]}
    columns = [
        {"key": key, "short": headings[key][0], "name": headings[key][1],
         "is_extra": key not in visible}
        for key in order
    ]
    output = []
    for index, row in enumerate(rows):
        note, decider = (None, None)
        if is_started and index > 0:
            note, decider = _note(rows[index - 1], row, chain)
        output.append(
            {
                "rank": row["rank"] if is_started else None,
                "name": row["entrant"]["name"],
                "entrant_id": row["entrant"]["id"],
                "cells": [
                    {"key": column["key"], "value": format_number(row[column["key"]]),
                     "is_extra": column["is_extra"], "is_decider": column["key"] == decider,
                     "name": column["name"]}
                    for column in columns
                ],
                "figures": {key: row[key] for key, _short in FIGURES},
                "note": note,
                "is_winner": row["entrant"]["id"] in winners,
                "is_me": me is not None and row["entrant"]["id"] == me,
            }
        )
    if not is_started:
        output.sort(key=lambda line: (line["name"].casefold(), line["entrant_id"]))
    return {
        "is_started": is_started,
        "columns": columns,
        "rows": output,
        "chain": [_criterion_name(name) for name in chain],
        "entrant_heading": _("Team") if is_team else _("Player"),
    }
