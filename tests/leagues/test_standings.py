"""The league table's arithmetic and tie-breaks (leagues.standings.compute_table), exactly."""

from leagues.standings import Points, Result, compute_table

POINTS = Points(win=2, draw=1, loss=0)
TEAMS = [("a", "Alpha"), ("b", "Bravo"), ("c", "Charlie"), ("d", "Delta")]


def _table(results, penalties=()):
    return [
        (row.position, row.name, row.played, row.won, row.drawn, row.lost, row.points)
        for row in compute_table(TEAMS, results, penalties, POINTS)
    ]


def test_counts_and_points():
    rows = compute_table(
        TEAMS, [Result("a", "b", 2, 0), Result("c", "d", 1, 1)], [("d", 1, "Late")], POINTS
    )
    by_name = {row.name: row for row in rows}
    alpha, delta = by_name["Alpha"], by_name["Delta"]
    assert (alpha.played, alpha.won, alpha.tables_for, alpha.tables_against, alpha.points) == (
        1,
        1,
        2,
        0,
        2,
    )
    assert (delta.drawn, delta.penalties, delta.points, delta.penalty_reasons) == (
        1,
        1,
        0,
        ["Late"],
    )
    assert [row.name for row in rows] == ["Alpha", "Charlie", "Delta", "Bravo"]


def test_head_to_head_beats_difference():
    # Alpha and Bravo both on 4 points; Alpha has the better difference but Bravo beat Alpha.
    results = [
        Result("b", "a", 2, 0),
        Result("a", "c", 2, 0),
        Result("a", "d", 2, 0),
        Result("b", "c", 1, 0),
        Result("d", "b", 2, 0),
        Result("c", "d", 2, 0),
    ]
    assert _table(results)[:2] == [(1, "Bravo", 3, 2, 0, 1, 4), (2, "Alpha", 3, 2, 0, 1, 4)]


def test_then_difference_then_tables_for_then_name_and_shared_positions():
    # Alpha and Bravo drew each other: head-to-head level; Alpha's difference is better.
    results = [Result("a", "b", 1, 1), Result("a", "c", 2, 0), Result("b", "d", 1, 0)]
    assert [row[1] for row in _table(results)[:2]] == ["Alpha", "Bravo"]
    # Same difference (+1 each besides the draw), more tables for wins.
    results = [Result("a", "b", 1, 1), Result("a", "c", 2, 1), Result("b", "d", 1, 0)]
    assert [row[1] for row in _table(results)[:2]] == ["Alpha", "Bravo"]
    # Everything level: the name orders them, and they share the position.
    results = [Result("a", "b", 1, 1), Result("c", "d", 1, 1)]
    assert _table(results) == [
        (1, "Alpha", 1, 0, 1, 0, 1),
        (1, "Bravo", 1, 0, 1, 0, 1),
        (1, "Charlie", 1, 0, 1, 0, 1),
        (1, "Delta", 1, 0, 1, 0, 1),
    ]


def test_a_penalty_can_drop_a_team_below_another():
    results = [Result("a", "b", 2, 0)]
    assert [row[1] for row in _table(results, [("a", 3, "Walked off")])] == [
        "Charlie",
        "Delta",
        "Bravo",
        "Alpha",
    ]
