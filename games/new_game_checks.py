"""Checks of a request to start a game, against its club: seats, teams, rules.

What it does: ``check_players`` maps the seated player ids to the club's active players (each
once), ``frozen_rules`` merges the club's (when the game is the club's default game), the
match's (``games.match_links.MatchTerms``) and the request's house rules into the full rules
frozen on the game, and ``check_teams`` finds the club team a side plays as and checks that its
players are exactly the side's. Each refusal is a 400
``Problem`` naming the offending value by its JSON pointer into the request body ("/seats/3",
"/teams/0/team"), all errors at once.

Starting many games at once (a tournament round, ``games.new_games.prepare_games``) loads the club's
players and teams for all of them at once (``load_players``, ``load_teams``) and passes what it
loaded to the same per-game checks, so each game is checked exactly as a lone game would be
without a query per game.

What it does not do: check the seating itself (partners apart, sides of equal size: the engine
does, through ``games.bridge.start``) or store anything (``games.services.create_game`` does).
"""

from __future__ import annotations

from clubs.models import Club, Player, Team
from clubs.services import check_club_players
from config.problems import Problem, rules_error_to_problem
from games import bridge
from rules_engine import RulesError


def load_players(club: Club, player_ids) -> dict[int, Player]:
    """The club's players among ``player_ids``, by id (one query)."""
    return {player.pk: player for player in Player.objects.filter(club=club, pk__in=player_ids)}


def check_players(
    club: Club, seat_player_ids: list[int], known: dict[int, Player] | None = None
) -> list[Player]:
    """The seated players, checked; ``known``: the result of ``load_players`` for these ids."""
    return check_club_players(
        club=club,
        player_ids=seat_player_ids,
        pointer="/seats",
        twice="is seated twice",
        known=known if known is not None else load_players(club, seat_player_ids),
    )


def frozen_rules(club: Club, game: str, match_rules: dict | None, overrides: dict) -> dict:
    """The full rules of a new game: the club's defaults (when ``game`` is the club's default
    game), then the match's (``MatchTerms.house_rules``), then the request's ``overrides``."""
    merged: dict = {}
    if club.default_game == game:
        merged.update(club.default_house_rules or {})
    merged.update(match_rules or {})
    merged.update(overrides)
    try:
        return bridge.freeze_rules(game, merged)
    except RulesError as error:
        raise rules_error_to_problem(error, pointer_prefix="/house_rules") from error


def load_teams(club: Club, team_ids) -> dict[int, Team]:
    """The club's teams among ``team_ids`` with their members, by id (two queries)."""
    return {
        team.pk: team
        for team in Team.objects.filter(club=club, pk__in=team_ids).prefetch_related("team_members")
    }


def check_teams(
    club: Club,
    sides: list[list[int]],
    team_ids: list,
    players: list[Player],
    known: dict[int, Team] | None = None,
):
    """The club team of each side (or None), checked against the side's players; ``known``:
    the result of ``load_teams`` for these ids."""
    wanted = [team_id for team_id in team_ids if team_id is not None]
    if not wanted:
        return [None] * len(sides)
    teams = known if known is not None else load_teams(club, wanted)
    result = []
    errors = []
    for index, (seats, team_id) in enumerate(zip(sides, team_ids, strict=True)):
        if team_id is None:
            result.append(None)
            continue
        pointer = f"/teams/{index}/team"
        team = teams.get(team_id)
        if team is None:
            errors.append(
                {
                    "code": "invalid_team",
                    "detail": f"Team {team_id} is not a team of club {club.slug}.",
                    "pointer": pointer,
                }
            )
            continue
        members = {member.player_id for member in team.team_members.all()}
        seated = {players[seat].pk for seat in seats}
        if members != seated:
            errors.append(
                {
                    "code": "team_mismatch",
                    "detail": f"Team {team_id} ({team.name}) is players {sorted(members)}, "
                    f"but side {index} seats players {sorted(seated)}.",
                    "pointer": pointer,
                }
            )
        result.append(team)
    if errors:
        raise Problem(code=errors[0]["code"], detail=errors[0]["detail"], errors=errors)
    return result
