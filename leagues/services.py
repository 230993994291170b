"""Every write of a federation's leagues: the one module the API calls.

What it does: creates a league (the federation's organisers), enters a member club's team, draws
the fixtures (``leagues.schedule``'s double round robin, round *r* on ``first_date + (r − 1) ×
days_between``), adds a player to a team or removes one (the team's captain or the
organisers), postpones a fixture to a new date, gives a walkover, lets a captain enter a
fixture's result (final scores on paper, or table by table from the club's games played at the
tables) and the other captain accept or dispute it, and takes points off a team with a reason.
Each write locks the league's row (the federation's, for a new league), checks, stores and writes
the federation's audit entry (``FederationAuditEntry``, the league kinds) in one transaction: a
refusal (``config.problems.Problem``) stores nothing.

What it does not do: decide who may call it (``leagues.permissions``; the views check first —
except which captain answers a result, checked here), read (``leagues.selectors``), order the
table (``leagues.standings``), or write a club's own records (a fixture's games are the home
club's, played and scored through the games API and the table app; a league only points at
them).

Terms: *tables won* — a fixture's score; *captain* — as in ``leagues.models``.
"""

from __future__ import annotations

from datetime import date, timedelta

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from clubs.models import Club, Player
from config.problems import Problem
from federations.models import Federation, FederationAuditEntry, FederationAuditKind
from federations.selectors import is_member
from games.models import Game, GameStatus
from leagues.models import (
    OPEN_STATUSES,
    Fixture,
    FixtureStatus,
    FixtureTable,
    League,
    LeagueTeam,
    Penalty,
    TableWinner,
)
from leagues.permissions import captained_sides
from leagues.schedule import double_round_robin


def _user(user):
    return user if user is not None and user.is_authenticated else None


def _audit(league: League, kind: str, user, **details) -> None:
    FederationAuditEntry.objects.create(
        federation_id=league.federation_id,
        kind=kind,
        user=_user(user),
        details={"league": league.pk, **details},
    )


def _lock(league: League) -> League:
    """Take the league row's lock: a league's writes run one at a time."""
    return League.objects.select_for_update().get(pk=league.pk)


def _lock_fixture(fixture: Fixture) -> tuple[League, Fixture]:
    league = _lock(fixture.league)
    fixture = (
        Fixture.objects.select_for_update()
        .select_related("home__captain", "away__captain")
        .get(pk=fixture.pk)
    )
    return league, fixture


def _check_season(start: date, end: date, pointer: str) -> None:
    if end < start:
        raise Problem(
            code="invalid_range", detail=_("The season ends before it starts."), pointer=pointer
        )


@transaction.atomic
def create_league(*, federation: Federation, user, name: str, slug: str, **fields) -> League:
    """A new league of the federation (``fields``: the model's settings)."""
    federation = Federation.objects.select_for_update().get(pk=federation.pk)
    if League.objects.filter(federation=federation, slug=slug).exists():
        raise Problem(code="unique", detail=_("This slug is already taken."), pointer="/slug")
    _check_season(fields["season_start"], fields["season_end"], "/season_end")
    win, draw, loss = (fields.get(key, 0) for key in ("points_win", "points_draw", "points_loss"))
    if not win >= draw >= loss:
        raise Problem(
            code="invalid",
            detail=_("A win earns at least a draw, a draw at least a loss."),
            pointer="/points_draw",
        )
    league = League.objects.create(
        federation=federation, name=name, slug=slug, created_by=_user(user), **fields
    )
    _audit(league, FederationAuditKind.LEAGUE_CREATED, user, name=name, slug=slug)
    return league


def _club_player(club: Club, player_id: int, pointer: str) -> Player:
    player = Player.objects.filter(club=club, pk=player_id).first()
    if player is None:
        raise Problem(
            code="unknown_player", detail=_("No such player in this club."), pointer=pointer
        )
    return player


@transaction.atomic
def add_team(
    *,
    league: League,
    user,
    club: Club,
    name: str,
    captain_id: int,
    player_ids: list[int],
) -> LeagueTeam:
    """Enter a member club's team: its captain and players are players of that club."""
    league = _lock(league)
    if league.fixtures.exists():
        raise Problem(
            code="fixtures_drawn",
            detail=_("The fixtures are drawn: no team joins the league now."),
        )
    if not is_member(league.federation, club.pk):
        raise Problem(
            code="not_a_member",
            detail=_("The club is not a member of this federation."),
            pointer="/club",
        )
    if league.teams.filter(name__iexact=name).exists():
        raise Problem(code="unique", detail=_("This name is already taken."), pointer="/name")
    if len(set(player_ids)) != len(player_ids):
        raise Problem(
            code="duplicate_player", detail=_("A player is listed twice."), pointer="/players"
        )
    captain = _club_player(club, captain_id, "/captain")
    players = [
        _club_player(club, player_id, f"/players/{index}")
        for index, player_id in enumerate(player_ids)
    ]
    team = LeagueTeam.objects.create(league=league, club=club, name=name, captain=captain)
    team.players.set({captain, *players})
    _audit(
        league,
        FederationAuditKind.LEAGUE_TEAM_ADDED,
        user,
        team=team.pk,
        club=club.pk,
        captain=captain.pk,
    )
    return team


def _lock_team(team: LeagueTeam) -> tuple[League, LeagueTeam]:
    league = _lock(team.league)
    return league, LeagueTeam.objects.select_for_update().select_related("club").get(pk=team.pk)


@transaction.atomic
def add_team_player(*, team: LeagueTeam, user, player_id: int) -> Player:
    """Add one of the team's club's active players to the team (any time in the season)."""
    league, team = _lock_team(team)
    player = _club_player(team.club, player_id, "/player")
    if not player.is_active:
        raise Problem(
            code="inactive_player", detail=_("The player is no longer active."), pointer="/player"
        )
    if team.players.filter(pk=player.pk).exists():
        raise Problem(
            code="duplicate_player",
            detail=_("The player is in the team already."),
            pointer="/player",
        )
    team.players.add(player)
    _audit(league, FederationAuditKind.LEAGUE_PLAYER_ADDED, user, team=team.pk, player=player.pk)
    return player


@transaction.atomic
def remove_team_player(*, team: LeagueTeam, user, player_id: int) -> None:
    """Take a player off the team; never its captain (who enters and answers its results)."""
    league, team = _lock_team(team)
    player = team.players.filter(pk=player_id).first()
    if player is None:
        raise Problem(
            code="unknown_player", detail=_("No such player in this team."), pointer="/player"
        )
    if player.pk == team.captain_id:
        raise Problem(
            code="captain_stays",
            detail=_("The captain stays in the team (they enter and answer its results)."),
            pointer="/player",
        )
    team.players.remove(player)
    _audit(league, FederationAuditKind.LEAGUE_PLAYER_REMOVED, user, team=team.pk, player=player.pk)


@transaction.atomic
def generate_fixtures(
    *, league: League, user, first_date: date | None = None, days_between: int = 7
) -> list[Fixture]:
    """Draw the season: a double round robin of the teams, a round every ``days_between`` days."""
    league = _lock(league)
    if league.fixtures.exists():
        raise Problem(code="fixtures_drawn", detail=_("The fixtures are already drawn."))
    teams = list(league.teams.order_by("created_at", "id"))
    if len(teams) < 2:
        raise Problem(code="too_few_teams", detail=_("A league needs two teams or more."))
    first_date = first_date or league.season_start
    rounds = double_round_robin(teams)
    last_date = first_date + timedelta(days=days_between * (len(rounds) - 1))
    if first_date < league.season_start or last_date > league.season_end:
        raise Problem(
            code="invalid_range",
            detail=_("The rounds (%(first)s to %(last)s) fall outside the season.")
            % {"first": first_date.isoformat(), "last": last_date.isoformat()},
            pointer="/first_date",
        )
    fixtures = Fixture.objects.bulk_create(
        Fixture(
            league=league,
            round=number,
            home=home,
            away=away,
            date=first_date + timedelta(days=days_between * (number - 1)),
        )
        for number, pairings in enumerate(rounds, start=1)
        for home, away in pairings
    )
    _audit(
        league,
        FederationAuditKind.FIXTURES_GENERATED,
        user,
        rounds=len(rounds),
        fixtures=len(fixtures),
    )
    return fixtures


def _check_open(fixture: Fixture, statuses=OPEN_STATUSES) -> None:
    if fixture.status not in statuses:
        raise Problem(
            code="fixture_closed",
            detail=_("The fixture is %(status)s: it cannot change now.")
            % {"status": fixture.get_status_display()},
        )


@transaction.atomic
def postpone_fixture(*, fixture: Fixture, user, new_date: date) -> Fixture:
    """Move a fixture not yet played to ``new_date`` (inside the season)."""
    league, fixture = _lock_fixture(fixture)
    _check_open(fixture, (FixtureStatus.SCHEDULED, FixtureStatus.POSTPONED))
    if not league.season_start <= new_date <= league.season_end:
        raise Problem(
            code="invalid_range", detail=_("The new date is outside the season."), pointer="/date"
        )
    before = fixture.date
    fixture.original_date = fixture.original_date or fixture.date
    fixture.date, fixture.status = new_date, FixtureStatus.POSTPONED
    fixture.save(update_fields=["original_date", "date", "status"])
    _audit(
        league,
        FederationAuditKind.FIXTURE_POSTPONED,
        user,
        fixture=fixture.pk,
        before=before.isoformat(),
        after=new_date.isoformat(),
    )
    return fixture


def _clear_result(fixture: Fixture) -> None:
    fixture.tables.all().delete()
    fixture.entered_by = fixture.entered_for = fixture.entered_at = None
    fixture.accepted_by = fixture.accepted_at = None
    fixture.dispute_reason = ""


@transaction.atomic
def give_walkover(*, fixture: Fixture, user, team: LeagueTeam) -> Fixture:
    """The federation's organisers give the fixture to ``team``: won by every table."""
    league, fixture = _lock_fixture(fixture)
    _check_open(fixture, (*OPEN_STATUSES, FixtureStatus.ENTERED))
    if team.pk not in (fixture.home_id, fixture.away_id):
        raise Problem(
            code="not_in_fixture", detail=_("The team is not in this fixture."), pointer="/team"
        )
    _clear_result(fixture)
    tables = league.tables_per_fixture
    fixture.status, fixture.walkover_to = FixtureStatus.WALKOVER, team
    home_won = team.pk == fixture.home_id
    fixture.home_score, fixture.away_score = (tables, 0) if home_won else (0, tables)
    fixture.save()
    _audit(league, FederationAuditKind.FIXTURE_WALKOVER, user, fixture=fixture.pk, team=team.pk)
    return fixture


def _table_rows(league: League, fixture: Fixture, tables: list[dict]) -> list[FixtureTable]:
    if len(tables) > league.tables_per_fixture:
        raise Problem(
            code="invalid_score",
            detail=_("The fixture has %(count)d tables.") % {"count": league.tables_per_fixture},
            pointer="/tables",
        )
    rows, seen = [], set()
    for index, entry in enumerate(tables):
        pointer = f"/tables/{index}"
        game = (
            Game.objects.select_for_update()
            .prefetch_related("sides")
            .filter(pk=entry["game"])
            .first()
        )
        sides = len(game.totals) if game is not None else 0
        if (
            game is None
            or game.club_id != fixture.home.club_id
            or game.variant != league.variant
            or game.status != GameStatus.FINISHED
            or game.winner_side is None
            or sides != 2
            or entry["home_side"] >= sides
            or game.pk in seen
        ):
            raise Problem(
                code="wrong_game",
                detail=_(
                    "The game is not a finished two-sided game of the league's variant at "
                    "the home club, or it is listed twice."
                ),
                pointer=f"{pointer}/game",
            )
        taken = FixtureTable.objects.filter(game=game).exclude(fixture=fixture).exists()
        if taken:
            raise Problem(
                code="game_taken",
                detail=_("The game is already a table of a league fixture."),
                pointer=f"{pointer}/game",
            )
        seen.add(game.pk)
        winner = TableWinner.HOME if game.winner_side == entry["home_side"] else TableWinner.AWAY
        rows.append(
            FixtureTable(
                fixture=fixture,
                number=index + 1,
                game=game,
                home_side=entry["home_side"],
                winner=winner,
            )
        )
    return rows


@transaction.atomic
def enter_result(
    *,
    fixture: Fixture,
    user,
    home_score: int | None = None,
    away_score: int | None = None,
    tables: list[dict] | None = None,
) -> Fixture:
    """A captain enters the result: ``tables`` (each ``{"game", "home_side"}``: the club's game
    played at that table and which of its sides the home team held) or the final scores on paper
    (tables won). It waits for the other team's captain."""
    league, fixture = _lock_fixture(fixture)
    _check_open(fixture, (*OPEN_STATUSES, FixtureStatus.ENTERED))  # a new entry replaces one
    sides = captained_sides(user, fixture)
    if not sides:
        raise Problem(code="permission_denied", detail=_("Only the fixture's captains enter it."))
    rows = []
    if tables:
        rows = _table_rows(league, fixture, tables)
        home_score = sum(1 for row in rows if row.winner == TableWinner.HOME)
        away_score = len(rows) - home_score
    elif home_score + away_score > league.tables_per_fixture:
        raise Problem(
            code="invalid_score",
            detail=_("The fixture has %(count)d tables.") % {"count": league.tables_per_fixture},
            pointer="/home_score",
        )
    _clear_result(fixture)
    FixtureTable.objects.bulk_create(rows)
    fixture.home_score, fixture.away_score = home_score, away_score
    fixture.status = FixtureStatus.ENTERED
    fixture.entered_by, fixture.entered_for, fixture.entered_at = user, sides[0], timezone.now()
    fixture.save()
    _audit(
        league,
        FederationAuditKind.RESULT_ENTERED,
        user,
        fixture=fixture.pk,
        home_score=home_score,
        away_score=away_score,
        games=[row.game_id for row in rows],
    )
    return fixture


def _answering_side(fixture: Fixture, user) -> None:
    if fixture.status != FixtureStatus.ENTERED:
        raise Problem(
            code="nothing_to_accept", detail=_("No result of this fixture waits for an answer.")
        )
    other = fixture.away if fixture.entered_for_id == fixture.home_id else fixture.home
    if other not in captained_sides(user, fixture):
        raise Problem(
            code="permission_denied",
            detail=_("The other team's captain answers the result."),
        )


@transaction.atomic
def accept_result(*, fixture: Fixture, user) -> Fixture:
    """The other team's captain accepts: the fixture is played and counts in the table."""
    league, fixture = _lock_fixture(fixture)
    _answering_side(fixture, user)
    fixture.status = FixtureStatus.PLAYED
    fixture.accepted_by, fixture.accepted_at = user, timezone.now()
    fixture.save(update_fields=["status", "accepted_by", "accepted_at"])
    _audit(league, FederationAuditKind.RESULT_ACCEPTED, user, fixture=fixture.pk)
    return fixture


@transaction.atomic
def dispute_result(*, fixture: Fixture, user, reason: str) -> Fixture:
    """The other team's captain disputes: either captain may enter the result again."""
    league, fixture = _lock_fixture(fixture)
    _answering_side(fixture, user)
    fixture.status, fixture.dispute_reason = FixtureStatus.DISPUTED, reason
    fixture.save(update_fields=["status", "dispute_reason"])
    _audit(league, FederationAuditKind.RESULT_DISPUTED, user, fixture=fixture.pk, reason=reason)
    return fixture


@transaction.atomic
def give_penalty(*, league: League, user, team: LeagueTeam, points: int, reason: str) -> Penalty:
    """Take ``points`` off ``team`` (organisers), with the reason the table shows."""
    league = _lock(league)
    if team.league_id != league.pk:
        raise Problem(code="not_found", detail=_("No such team."), pointer="/team")
    penalty = Penalty.objects.create(
        league=league, team=team, points=points, reason=reason, created_by=_user(user)
    )
    _audit(
        league,
        FederationAuditKind.PENALTY_GIVEN,
        user,
        penalty=penalty.pk,
        team=team.pk,
        points=points,
        reason=reason,
    )
    return penalty
