"""A game's link to the match it is played for, kept by the app above games (tournaments).

What it does: games does not know tournaments, yet its API takes and shows ``tournament_match``
(api.md). The app that owns matches lists one object in ``JINK_GAME_MATCH_LINKS``
(config/settings.py, a dotted path; ``tournaments.game_hooks.MATCH_LINKS``) with four methods,
and games reaches it only through this module:

- ``load_terms(club=, match_ids=)`` -> ``{match_id: MatchTerms}`` for the club's matches among
  the ids (one query); an id missing from the answer is ``400 invalid_tournament_match``;
- ``link_games(links=[(game, match_id), …])`` stores the links, inside the transaction that
  creates the games (one query);
- ``match_id_expression()`` -> a query expression giving a game's match id (or NULL), which the
  selectors annotate as ``tournament_match_id`` (a join in the same query, no query of its own);
- ``private_draw_q()`` -> a filter (``Q``) of the games played for a match of a round not yet
  released (a private draw: only the club's organisers may see those games, see
  ``games.selectors.without_private_draws``); ``private_draw_expression()`` turns it into an
  annotation (``in_private_draw``).

With the setting empty (games alone), no match exists: every ``tournament_match`` is refused and
every game shows ``null``.

What it does not do: decide what a match is, check a match's state, or write anything itself.

Terms: *terms* — what a match imposes on its new games: the game played, the house rules laid
over the club's (under the request's own overrides) and the default stake; *rules group* — games
whose terms share it share their merged rules (a tournament), so a round merges them once.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cache

from django.conf import settings
from django.db.models import BooleanField, ExpressionWrapper, IntegerField, Q, Value
from django.utils.module_loading import import_string

from config.problems import Problem


@dataclass(frozen=True)
class MatchTerms:
    """What a match imposes on a game started for it (see the module docstring)."""

    match_id: int
    game: str
    rules_group: int
    house_rules: dict = field(default_factory=dict)
    stake_minor: int | None = None


@cache
def provider():
    """The object named by ``JINK_GAME_MATCH_LINKS``, or None when games stands alone."""
    path = getattr(settings, "JINK_GAME_MATCH_LINKS", None)
    return import_string(path) if path else None


def load_terms(*, club, match_ids) -> dict[int, MatchTerms]:
    """The terms of the club's matches among ``match_ids``, by id."""
    links = provider()
    if links is None or not match_ids:
        return {}
    return links.load_terms(club=club, match_ids=set(match_ids))


def unknown_match(club, match_id: int) -> Problem:
    """400 ``invalid_tournament_match``: ``match_id`` is not a match of the club."""
    return Problem(
        code="invalid_tournament_match",
        detail=f"Match {match_id} is not a match of a tournament of club {club.slug}.",
        pointer="/tournament_match",
    )


def link_games(links: list[tuple[object, int]]) -> None:
    """Store each (game, match id) link; call inside the transaction that creates the games."""
    if links:
        provider().link_games(links=links)


def match_id_expression():
    """An expression of a game's match id (NULL when it has none), for ``annotate``."""
    links = provider()
    if links is None:
        return Value(None, output_field=IntegerField())
    return links.match_id_expression()


def private_draw_q() -> Q | None:
    """A filter of the games of a round not yet released, or None when no match exists."""
    links = provider()
    return None if links is None else links.private_draw_q()


def private_draw_expression():
    """An expression, true for a game of a round not yet released, for ``annotate``."""
    condition = private_draw_q()
    if condition is None:
        return Value(False, output_field=BooleanField())
    return ExpressionWrapper(condition, output_field=BooleanField())
