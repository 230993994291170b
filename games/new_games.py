"""The games a request starts, checked and built but not yet stored: one per ``NewGame``.

What it does: ``prepare_games`` checks each ``NewGame`` of a batch against its club exactly as a
lone game is checked (the game's name, the tournament match and its game, the players, the rules
frozen per rules group, the seating through ``games.bridge.start``, the club teams of the sides:
``games.new_game_checks``), loading the players, teams and match terms of the whole batch once,
and returns each game's unsaved ``Game`` row with what its seat and side rows need
(``PreparedGame``). The first game that would be refused is refused, with the same ``Problem``.

What it does not do: store anything or announce anything (``games.services.create_games`` does,
in one transaction), or check who may start a game (the views do).

Terms: *rules group* (``MatchTerms.rules_group``): games whose frozen rules are the same (one
tournament's, or the club's), merged and checked once.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass
from typing import NamedTuple

from django.utils.translation import gettext

from clubs.models import Club, Player, Team
from config.problems import Problem
from games import bridge, match_links, new_game_checks
from games.match_links import MatchTerms
from games.models import Game
from rules_engine import RulesError
from rules_engine.house_rules import GAMES


@dataclass(frozen=True)
class NewGame:
    """One game of a batch for ``create_games``: the arguments of ``create_game`` that differ
    from game to game. ``tournament_match``: a match id (its terms are loaded through
    ``games.match_links``) or the ``MatchTerms`` themselves (the caller, tournaments, has them)."""

    seat_player_ids: list[int]
    teams: list[list[int]] | None = None
    team_ids: list[int | None] | None = None
    first_dealer: int = 0
    stake_minor: int | None = None
    tournament_match: int | MatchTerms | None = None


class PreparedGame(NamedTuple):
    """A checked game of a batch, not yet stored: its row, its players by seat, the side of each
    seat and the club team of each side (or None)."""

    game: Game
    players: list[Player]
    side_of_seat: list[int]
    side_teams: list[Team | None]


def prepare_games(
    *, club: Club, user, game: str, new_games: list[NewGame], house_rules: dict | None = None
) -> list[PreparedGame]:
    """Check and build every game of ``new_games`` (in order), as ``create_game`` would; the
    first refused raises its ``Problem``. A fixed number of queries for the whole batch."""
    if game not in GAMES:
        raise Problem(
            code="invalid_game",
            detail=gettext("Unknown game %(game)r; the games are %(games)s.")
            % {"game": game, "games": ", ".join(GAMES)},
            pointer="/game",
        )
    wanted = {spec.tournament_match for spec in new_games if isinstance(spec.tournament_match, int)}
    known_terms = match_links.load_terms(club=club, match_ids=wanted) if wanted else {}
    known_players = new_game_checks.load_players(
        club, {player_id for spec in new_games for player_id in spec.seat_player_ids}
    )
    team_ids = {
        team_id for spec in new_games for team_id in spec.team_ids or () if team_id is not None
    }
    known_teams = new_game_checks.load_teams(club, team_ids) if team_ids else {}
    # The frozen rules depend only on the match's rules group (its tournament; the club and the
    # overrides are shared): merged and checked once per group rather than once per game.
    rules_by_group: dict[int | None, dict] = {}
    checked = []
    for spec in new_games:
        terms = spec.tournament_match
        if isinstance(terms, int):
            if terms not in known_terms:
                raise match_links.unknown_match(club, terms)
            terms = known_terms[terms]
        if terms is not None and terms.game != game:
            raise Problem(
                code="invalid_tournament_match",
                detail=gettext(
                    "Match %(match)s belongs to a tournament of %(game)s, not %(other)s."
                )
                % {"match": terms.match_id, "game": terms.game, "other": game},
                pointer="/tournament_match",
            )
        players = new_game_checks.check_players(club, spec.seat_player_ids, known_players)
        group = terms.rules_group if terms is not None else None
        rules = rules_by_group.get(group)
        if rules is None:
            match_rules = terms.house_rules if terms is not None else None
            rules = new_game_checks.frozen_rules(club, game, match_rules, house_rules or {})
            rules_by_group[group] = rules
        stake_minor = spec.stake_minor
        if stake_minor is None and terms is not None:
            stake_minor = terms.stake_minor
        try:
            start = bridge.start(
                rules=rules,
                seat_count=len(players),
                sides=spec.teams,
                first_dealer=spec.first_dealer,
            )
        except RulesError as error:
            raise bridge.seating_problem(error) from error
        side_teams = new_game_checks.check_teams(
            club, start.sides, spec.team_ids or [None] * len(start.sides), players, known_teams
        )
        new_game = Game(
            club=club,
            variant=game,
            house_rules=copy.deepcopy(rules),
            first_dealer=spec.first_dealer,
            stake_minor=stake_minor,
            created_by=user,
            **start.fields,
        )
        new_game._history_user = user
        new_game._change_reason = "game created"
        # Shown as the API's "tournament_match" (the selectors annotate it on games they read).
        new_game.tournament_match_id = terms.match_id if terms is not None else None
        checked.append(PreparedGame(new_game, players, start.side_of_seat, side_teams))
    return checked
