"""Checks of a request to start a game, against its club: seats, teams, tournament match, rules.

What it does: ``check_players`` maps the seated player ids to the club's active players (each
once), ``resolve_match`` finds the tournament match of the club named by ``tournament_match``,
``frozen_rules`` merges the club's, the tournament's and the request's house rules into the full
rules frozen on the game, and ``check_teams`` finds the club team a side plays as and checks that
its players are exactly the side's. Each refusal is a 400 ``Problem`` naming the offending value by
its JSON pointer into the request body ("/seats/3", "/teams/0/team"), all errors at once.

What it does not do: check the seating itself (partners apart, sides of equal size: the engine
does, through ``games.bridge.start``) or store anything (``games.services.create_game`` does).
"""

from __future__ import annotations

from clubs.models import Club, Player, Team
from config.problems import Problem, rules_error_to_problem
from games import bridge
from rules_engine import RulesError


def check_players(club: Club, seat_player_ids: list[int]) -> list[Player]:
    found = Player.objects.filter(club=club, pk__in=seat_player_ids)
    players = {player.pk: player for player in found}
    errors = []
    seen: set[int] = set()
    for index, player_id in enumerate(seat_player_ids):
        pointer = f"/seats/{index}"
        player = players.get(player_id)
        if player is None:
            errors.append(
                {
                    "code": "invalid_player",
                    "detail": f"Player {player_id} is not a player of club {club.slug}.",
                    "pointer": pointer,
                }
            )
        elif not player.is_active:
            errors.append(
                {
                    "code": "inactive_player",
                    "detail": f"Player {player_id} ({player.display_name}) is no longer active.",
                    "pointer": pointer,
                }
            )
        elif player_id in seen:
            errors.append(
                {
                    "code": "duplicate_player",
                    "detail": f"Player {player_id} ({player.display_name}) is seated twice.",
                    "pointer": pointer,
                }
            )
        seen.add(player_id)
    if errors:
        raise Problem(status=400, code=errors[0]["code"], detail=errors[0]["detail"], errors=errors)
    return [players[player_id] for player_id in seat_player_ids]


def resolve_match(club: Club, tournament_match):
    if tournament_match is None:
        return None
    from tournaments.models import Match  # lazy: games does not need tournaments to be loaded

    match_id = tournament_match if isinstance(tournament_match, int) else tournament_match.pk
    match = (
        Match.objects.select_related("tournament")
        .filter(pk=match_id, tournament__club=club)
        .first()
    )
    if match is None:
        raise Problem(
            status=400,
            code="invalid_tournament_match",
            detail=f"Match {match_id} is not a match of a tournament of club {club.slug}.",
            pointer="/tournament_match",
        )
    return match


def frozen_rules(club: Club, game: str, match, overrides: dict) -> dict:
    merged: dict = {}
    if club.default_game == game:
        merged.update(club.default_house_rules or {})
    if match is not None:
        merged.update(match.tournament.house_rules or {})
    merged.update(overrides)
    try:
        return bridge.freeze_rules(game, merged)
    except RulesError as error:
        raise rules_error_to_problem(error, pointer_prefix="/house_rules") from error


def check_teams(club: Club, sides: list[list[int]], team_ids: list, players: list[Player]):
    """The club team of each side (or None), checked against the side's players."""
    wanted = [team_id for team_id in team_ids if team_id is not None]
    if not wanted:
        return [None] * len(sides)
    teams = {
        team.pk: team
        for team in Team.objects.filter(club=club, pk__in=wanted).prefetch_related("team_members")
    }
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
        raise Problem(status=400, code=errors[0]["code"], detail=errors[0]["detail"], errors=errors)
    return result
