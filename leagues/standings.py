"""A league's table: computed from its counted fixtures and its penalties, every time it is read.

What it does: ``compute_table`` (pure: teams, results, penalties and the points of the league in,
ordered rows out) and ``league_table`` (the bridge: reads a league's teams, its counted fixtures
and its penalties, and calls it). A row holds played, won, drawn, lost, tables for and against,
their difference, the penalty points taken off and the points:
``won × points_win + drawn × points_draw + lost × points_loss − penalties``.

The order (the tie-breaks, one after another):

1. points, most first;
2. head-to-head: the points the tied teams took in the fixtures between them alone (a mini-table
   of the teams level on points; penalties do not count in it);
3. difference (tables for minus against, over the season);
4. tables for;
5. the name, so the order is never left to chance (teams still level share a ``position``).

What it does not do: store anything (the table is the fixtures' consequence: nothing to get out
of step), or count a fixture that is not *counted* — a result waiting for the other captain, a
disputed one, a postponed or scheduled fixture count for nobody. A walkover counts as played by
both, won by every table by the team it was given to.

Terms: *counted fixture* — ``played`` (accepted) or ``walkover``; *tables for/against* — the
tables a team won and lost in its counted fixtures.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable
from dataclasses import dataclass, field

from leagues.models import COUNTED_STATUSES


@dataclass(frozen=True)
class Result:
    home: Hashable
    away: Hashable
    home_score: int
    away_score: int


@dataclass(frozen=True)
class Points:
    win: int
    draw: int
    loss: int


@dataclass
class Row:
    team: Hashable
    name: str
    played: int = 0
    won: int = 0
    drawn: int = 0
    lost: int = 0
    tables_for: int = 0
    tables_against: int = 0
    penalties: int = 0
    points: int = 0
    position: int = 0
    penalty_reasons: list[str] = field(default_factory=list)

    @property
    def difference(self) -> int:
        return self.tables_for - self.tables_against


def _points_of(result: Result, team: Hashable, points: Points) -> int:
    mine, theirs = (
        (result.home_score, result.away_score)
        if result.home == team
        else (result.away_score, result.home_score)
    )
    if mine > theirs:
        return points.win
    return points.draw if mine == theirs else points.loss


def compute_table(
    teams: Iterable[tuple[Hashable, str]],
    results: Iterable[Result],
    penalties: Iterable[tuple[Hashable, int, str]],
    points: Points,
) -> list[Row]:
    """The ordered table: ``teams`` as (id, name), ``penalties`` as (team, points, reason)."""
    rows = {team: Row(team=team, name=name) for team, name in teams}
    results = list(results)
    for result in results:
        for team, mine, theirs in (
            (result.home, result.home_score, result.away_score),
            (result.away, result.away_score, result.home_score),
        ):
            row = rows[team]
            row.played += 1
            row.tables_for += mine
            row.tables_against += theirs
            if mine > theirs:
                row.won += 1
            elif mine == theirs:
                row.drawn += 1
            else:
                row.lost += 1
    for team, taken, reason in penalties:
        rows[team].penalties += taken
        rows[team].penalty_reasons.append(reason)
    for row in rows.values():
        row.points = (
            row.won * points.win + row.drawn * points.draw + row.lost * points.loss - row.penalties
        )
    level: dict[int, set] = {}
    for row in rows.values():
        level.setdefault(row.points, set()).add(row.team)

    def head_to_head(row: Row) -> int:
        group = level[row.points]
        if len(group) < 2:
            return 0
        return sum(
            _points_of(result, row.team, points)
            for result in results
            if row.team in (result.home, result.away)
            and result.home in group
            and result.away in group
        )

    def rank(row: Row) -> tuple:
        return (-row.points, -head_to_head(row), -row.difference, -row.tables_for)

    ordered = sorted(rows.values(), key=lambda row: (*rank(row), row.name.lower(), str(row.team)))
    previous = None
    for index, row in enumerate(ordered, start=1):
        key = rank(row)
        row.position = previous[1] if previous and previous[0] == key else index
        previous = (key, row.position)
    return ordered


def league_table(league) -> list[Row]:
    """The table of a ``leagues.models.League`` from its rows (see the module)."""
    teams = [(team.pk, team.name) for team in league.teams.order_by("name", "id")]
    results = [
        Result(fixture.home_id, fixture.away_id, fixture.home_score, fixture.away_score)
        for fixture in league.fixtures.filter(status__in=COUNTED_STATUSES).order_by("id")
    ]
    penalties = [
        (penalty.team_id, penalty.points, penalty.reason)
        for penalty in league.penalties.order_by("created_at", "id")
    ]
    return compute_table(
        teams,
        results,
        penalties,
        Points(league.points_win, league.points_draw, league.points_loss),
    )
