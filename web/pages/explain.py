"""Standings that explain themselves: which figures decided each place, and why ties split.

What it does: ``standings_view`` turns a tournament's standings (as
``tournaments.standings.compute_standings`` builds them; the event page reads the stored snapshot,
``tournaments.snapshots.read_standings``) into rows for the event page: each entrant's place
("=1" when shared: level on every criterion before lots,
which only order the list), the figures the format ranks by — a knockout's round reached, then
the figures of the tournament's tie-break chain — and the other figures one tap away (hidden
columns, or a detail row on a phone, shown by the "All figures" disclosure); under an entrant
placed below another it was level with on the chain's first criterion, a note "Level with Ann
on match wins and games won; split by points difference (25 to 15)" (entrants sharing a place
need none: "=2" says it). Before any match is
played it says "not started" and lists the entrants by name instead of a ranking made by lots.

What it does not do: rank (``tournaments.draw.ranking`` did, and recorded the values each
criterion compared: ``tie_break_values``; ``tournaments.standings`` gave the places).

Terms: *chain* — the tournament's ordered tie-break criteria; *deciding criterion* of a row —
the first criterion of the chain on which it differs from the row above; *shared place* —
two or more entrants with the same ``place`` (``tournaments.standings``).
"""

from __future__ import annotations

from collections import Counter

from django.utils.text import format_lazy
from django.utils.translation import gettext as _
from django.utils.translation import pgettext

from tournaments.standings import place_of
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
    ("buchholz", "Opp"),
)
# Figures shown only when the chain ranks by them (they mean little otherwise).
ONLY_WHEN_RANKED = {"tricks_won", "buchholz"}


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
        "buchholz": (pgettext("column", "Opp"), _("Opponents' match points")),
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
    if place_of(above) == place_of(row):
        # A shared place says so itself ("=2"): no note under each of its rows.
        return None, None
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


def place_text(place: int, is_shared: bool) -> str:
    """ "=3" for a shared place, "3" otherwise."""
    return f"={place}" if is_shared else str(place)


def standings_view(
    standings: dict,
    *,
    winners: list[int],
    me: int | None,
    is_team: bool,
    stages: dict[int, str] | None = None,
) -> dict:
    """``{"is_started", "columns", "extra_columns", "rows", "chain", "has_lots", …}`` for the
    event page; ``stages`` (a knockout's): entrant id -> the round it reached, in words."""
    rows = standings["standings"]
    chain = list(standings["tie_breaks"])
    headings = _headings()
    is_started = any(row["matches_played"] or row["byes"] for row in rows)
    chained = [criterion for criterion in chain if criterion in headings]
    others = [key for key, _short in FIGURES if key not in chained and key not in ONLY_WHEN_RANKED]
    columns = [
        {"key": key, "short": headings[key][0], "name": headings[key][1], "is_extra": False}
        for key in chained
    ] + [
        {"key": key, "short": headings[key][0], "name": headings[key][1], "is_extra": True}
        for key in others
    ]
    shared = Counter(place_of(row) for row in rows)
    output = []
    for index, row in enumerate(rows):
        note, decider = (None, None)
        if is_started and index > 0:
            note, decider = _note(rows[index - 1], row, chain)
        place = place_of(row)
        entrant_id = row["entrant"]["id"]
        output.append(
            {
                "place": place if is_started else None,
                "place_text": place_text(place, shared[place] > 1) if is_started else None,
                "is_shared": is_started and shared[place] > 1,
                "name": row["entrant"]["name"],
                "entrant_id": entrant_id,
                "stage": (stages or {}).get(entrant_id, ""),
                "cells": [
                    {
                        "key": column["key"],
                        "value": format_number(row[column["key"]]),
                        "is_extra": column["is_extra"],
                        "is_decider": column["key"] == decider,
                        "name": column["name"],
                    }
                    for column in columns
                ],
                "figures": {key: row[key] for key, _short in FIGURES},
                "note": note,
                "is_winner": entrant_id in winners,
                "is_me": me is not None and entrant_id == me,
            }
        )
    if not is_started:
        output.sort(key=lambda line: (line["name"].casefold(), line["entrant_id"]))
    # On a phone a knockout's round reached shows under the first name of each group reached.
    for index, line in enumerate(output):
        line["stage_starts"] = index == 0 or line["stage"] != output[index - 1]["stage"]
    ranked_by = [name for name in chain if name != "lots"]
    return {
        "is_started": is_started,
        "columns": columns,
        "main_columns": [column for column in columns if not column["is_extra"]],
        "extra_columns": [column for column in columns if column["is_extra"]],
        "has_stages": stages is not None,
        "rows": output,
        "chain": [_criterion_name(name) for name in ranked_by],
        "has_lots": "lots" in chain,
        "has_shared": any(row["is_shared"] for row in output),
        "entrant_heading": _("Team") if is_team else _("Player"),
    }
