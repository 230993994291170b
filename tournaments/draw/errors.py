"""The draw's one error and the checks of plain input every draw module shares.

What it does: ``DrawError`` is what every draw module raises on bad input, with a stable ``code``
(one of ``ERROR_CODES``) and an English ``detail`` built from an ``N_`` template (translated by
``config.problems.localized_detail``); ``check_entrant_id``, ``check_entrants`` and
``check_count`` check an entrant id, a list of them and a count, raising it.

What it does not do: turn the error into an API problem (``tournaments.bridge.draw_problem``).
It imports nothing from Django.
"""

from __future__ import annotations

from collections.abc import Iterable

ERROR_CODES = frozenset(
    {
        "duplicate_entrant",  # an entrant appears twice where it may appear once
        "invalid_entrant",  # not an int id, or an id the tournament does not know
        "too_few_entrants",  # fewer entrants than the table size needs
        "invalid_entrant_count",  # a count the format cannot use (a drive needs full tables)
        "invalid_table_size",  # table size, advancing count or sides that do not fit together
        "invalid_option",  # an unknown mode, tie-break, movement, or a number out of range
        "invalid_result",  # a result that does not fit its table or cannot decide what it must
        "round_incomplete",  # a draw asked for before every table of the last round has a result
        "match_decided",  # a game recorded for a match that was already decided
        "tournament_complete",  # a draw asked for after the last round or game
    }
)


def N_(message: str) -> str:
    """Mark ``message`` (a template with ``%(name)s`` parameters) for translation; no-op
    (``makemessages -k N_`` collects it; ``config.problems.localized_detail`` translates)."""
    return message


class DrawError(ValueError):
    """Bad input to the draw: ``code`` is one of ``ERROR_CODES`` and stable; ``detail`` is English.

    Clients switch on ``code``; ``detail`` names the offending value for a human.
    """

    def __init__(self, code: str, detail: str, *, params: dict | None = None) -> None:
        if code not in ERROR_CODES:
            raise ValueError(f"unknown DrawError code {code!r}")
        # ``detail`` is a template (``N_``, rules_engine.errors) when ``params`` is given.
        self.template = detail
        self.params = dict(params) if params is not None else None
        if self.params is not None:
            detail = detail % self.params
        super().__init__(detail)
        self.code = code
        self.detail = detail

    def as_dict(self) -> dict:
        return {"code": self.code, "detail": self.detail}

    def __repr__(self) -> str:
        return f"DrawError({self.code!r}, {self.detail!r})"


def check_entrant_id(value: object) -> int:
    """``value`` as an entrant id, or ``DrawError("invalid_entrant")`` (bools are not ids)."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise DrawError(
            "invalid_entrant", N_("entrant ids are ints, got %(value)r"), params={"value": value}
        )
    return value


def check_entrants(entrants: Iterable[object], *, minimum: int = 1) -> tuple[int, ...]:
    """The entrant ids as a tuple, in the given order (for formats that seed: seed 1 first).

    Raises ``invalid_entrant`` for a non-int, ``duplicate_entrant`` for a repeat, and
    ``too_few_entrants`` when fewer than ``minimum`` are given.
    """
    if isinstance(entrants, str | bytes) or not isinstance(entrants, Iterable):
        raise DrawError("invalid_entrant", N_("entrants must be a sequence of int ids"))
    checked = tuple(check_entrant_id(entrant) for entrant in entrants)
    seen: set[int] = set()
    for entrant in checked:
        if entrant in seen:
            raise DrawError(
                "duplicate_entrant",
                N_("entrant %(entrant)s is listed more than once"),
                params={"entrant": entrant},
            )
        seen.add(entrant)
    if len(checked) < minimum:
        raise DrawError(
            "too_few_entrants",
            N_("%(checked_count)s entrants given, at least %(minimum)s needed"),
            params={"checked_count": len(checked), "minimum": minimum},
        )
    return checked


def check_count(name: str, value: object, *, minimum: int = 1) -> int:
    """``value`` as an int of at least ``minimum``, else ``DrawError("invalid_option")``."""
    if isinstance(value, bool) or not isinstance(value, int) or value < minimum:
        raise DrawError(
            "invalid_option",
            N_("%(name)s must be an int >= %(minimum)s, got %(value)r"),
            params={"name": name, "minimum": minimum, "value": value},
        )
    return value
