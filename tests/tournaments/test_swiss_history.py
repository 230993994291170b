"""The swiss draw's history read as aggregates (``bridge.swiss_history_of``) against its definition.

What it checks: after every round, correction and undo of random results — ties for first,
partnered tables, byes, a scoring of 3/1/0 with byes worth 2 — the match points, byes and
meetings the database sums from the stored slots equal ``swiss_history.history_of`` over the
rounds read whole (``bridge.played_rounds_of``, from each match's stored result). Results are
stored by ``progress.refresh_match`` itself, with the match's reading chosen by the test, so the
rows are the ones play writes. Also: an undecided match refuses the draw with its round's
number, and an entrant checked out after round 1 sits the next swiss round out.
"""

from __future__ import annotations

import random

import pytest

from tests.tournaments.play_helpers import build_event, win_game
from tournaments import bridge, play, progress
from tournaments.draw import (
    DrawError,
    MatchResult,
    RoundDraw,
    ScoringRule,
    Table,
    swiss_history,
)
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db

SCORING = ScoringRule(win=3, draw=1, loss=0, bye=2, bye_is_match_win=True)


def random_draw(rng: random.Random, entrant_ids: list[int]) -> RoundDraw:
    """Up to two byes, one table of two sides of two, then tables of two to four for themselves."""
    shuffled = rng.sample(entrant_ids, len(entrant_ids))
    byes = tuple(shuffled[: rng.randint(0, 2)])
    four = shuffled[len(byes) : len(byes) + 4]
    tables = [Table(tuple(four), ((four[0], four[2]), (four[1], four[3])))]
    rest = shuffled[len(byes) + 4 :]
    while rest:
        size = min(len(rest), rng.choice((2, 3, 4)))
        if len(rest) - size == 1:
            size += 1
        tables.append(Table(tuple(rest[:size])))
        rest = rest[size:]
    return RoundDraw(tuple(tables), byes)


def random_result(rng: random.Random, table: Table) -> MatchResult:
    """Placings of sides (or entrants) in a random order, a tie for first one time in three."""
    units = list(table.sides) if table.sides else [(entrant,) for entrant in table.entrants]
    rng.shuffle(units)
    groups = [list(units[0])]
    if rng.random() < 1 / 3:
        groups[0].extend(units[1])
        units = units[1:]
    groups.extend(list(unit) for unit in units[1:])
    return MatchResult.build(table, [tuple(group) for group in groups])


def store(monkeypatch, tournament, match_id: int, result: MatchResult | None) -> None:
    """``progress.refresh_match`` storing ``result`` as the match's reading of its games."""
    match = play.load_match(match_id)
    table = play.table_of(match)
    zero = dict.fromkeys(table.entrants, 0)
    reading = play.MatchReading(
        table,
        result,
        games_won=dict(zero),
        points=dict(zero),
        points_against=dict(zero),
        tricks=dict(zero),
    )
    monkeypatch.setattr(play, "read_match", lambda match, tournament: reading)
    progress.refresh_match(match, tournament, None)


def same_history(tournament, entrant_ids: list[int]) -> swiss_history.History:
    """The aggregates' history, after asserting it equals the definition's (entrants absent from
    a mapping count 0 in both)."""
    read = bridge.swiss_history_of(tournament, SCORING)
    defined = swiss_history.history_of(entrant_ids, bridge.played_rounds_of(tournament), SCORING)

    def plain(history: swiss_history.History):
        return (
            history.rounds,
            {entrant: history.scores.get(entrant, 0) for entrant in entrant_ids},
            {entrant: count for entrant, count in history.byes.items() if count},
            {pair: count for pair, count in history.met.items() if count},
        )

    assert plain(read) == plain(defined)
    return read


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_the_aggregates_equal_the_history_of_the_rounds_read_whole(monkeypatch, seed):
    rng = random.Random(seed)
    event = build_event(players=11)
    created = event.create_tournament(
        name="Swiss",
        game="25",
        format="swiss",
        round_count=6,
        auto_advance=False,
        entrants=[{"player": player.pk} for player in event.players],
    )
    tournament = Tournament.objects.get(pk=created["id"])
    entrant_ids = sorted(tournament.entrants.values_list("pk", flat=True))
    assert same_history(tournament, entrant_ids) == swiss_history.History()
    decided = []  # (match id, table)
    for number in range(1, 5):
        _, matches = bridge.save_round_draw(tournament, number, random_draw(rng, entrant_ids), None)
        for match in matches:
            table = play.table_of(play.load_match(match.pk))
            store(monkeypatch, tournament, match.pk, random_result(rng, table))
            decided.append((match.pk, table))
        history = same_history(tournament, entrant_ids)
        assert history.rounds == number
        # A correction of an earlier result: the sums follow it.
        match_id, table = rng.choice(decided)
        store(monkeypatch, tournament, match_id, random_result(rng, table))
        same_history(tournament, entrant_ids)
    assert any(table.sides for _, table in decided)
    # An undo: the draw is refused, naming the round, until the match is decided again.
    match_id, table = decided[len(decided) // 2]
    store(monkeypatch, tournament, match_id, None)
    round_number = play.load_match(match_id).round.number
    with pytest.raises(DrawError) as refused:
        bridge.swiss_history_of(tournament, SCORING)
    assert (refused.value.code, refused.value.params) == (
        "round_incomplete",
        {"number": round_number},
    )
    store(monkeypatch, tournament, match_id, random_result(rng, table))
    assert same_history(tournament, entrant_ids).rounds == 4


def test_wins_draws_losses_and_byes_are_scored_by_the_tournaments_rule(monkeypatch):
    """One round by hand: 3 for the win, 1 each for a shared first, 0 for a loss, 2 for a bye,
    partners both win, and opponents (not partners) have met."""
    event = build_event(players=9)
    created = event.create_tournament(
        name="Swiss",
        game="25",
        format="swiss",
        round_count=3,
        auto_advance=False,
        entrants=[{"player": player.pk} for player in event.players],
    )
    tournament = Tournament.objects.get(pk=created["id"])
    a, b, c, d, e, f, g, h, i = sorted(tournament.entrants.values_list("pk", flat=True))
    draw = RoundDraw(
        (Table((a, b)), Table((c, d, e)), Table((f, g, h, i), ((f, h), (g, i)))),
        (),
    )
    _, matches = bridge.save_round_draw(tournament, 1, draw, None)
    outcomes = [[(b,), (a,)], [(c, e), (d,)], [(f, h), (g, i)]]
    for match, table, placings in zip(matches, draw.tables, outcomes, strict=True):
        store(monkeypatch, tournament, match.pk, MatchResult.build(table, placings))
    history = bridge.swiss_history_of(tournament, SCORING)
    assert history.rounds == 1
    assert dict(history.scores) == {a: 0, b: 3, c: 1, d: 0, e: 1, f: 3, g: 0, h: 3, i: 0}
    assert dict(history.byes) == {}
    assert dict(history.met) == {
        (a, b): 1,
        (c, d): 1,
        (c, e): 1,
        (d, e): 1,
        (f, g): 1,
        (f, i): 1,
        (g, h): 1,
        (h, i): 1,
    }
    everyone = (a, b, c, d, e, f, g, h, i)
    _, byes_round = bridge.save_round_draw(tournament, 2, RoundDraw((), everyone), None)
    assert byes_round == []
    history = bridge.swiss_history_of(tournament, SCORING)
    assert (history.rounds, history.scores[a], history.scores[b], dict(history.byes)) == (
        2,
        2,
        5,
        dict.fromkeys(everyone, 1),
    )


def test_an_entrant_checked_out_after_round_one_sits_the_next_round_out():
    event = build_event(players=5)
    created = event.create_tournament(
        name="Swiss night",
        game="25",
        format="swiss",
        round_count=3,
        auto_advance=False,
        entrants=[{"player": player.pk} for player in event.players],
    )
    tournament_id = created["id"]
    entrants = [
        entrant["id"] for entrant in event.ok("get", f"/api/tournaments/{tournament_id}/entrants/")
    ]
    round_one = event.draw(tournament_id)
    for match in round_one["matches"]:
        if not match["is_bye"]:
            win_game(event, match["games"][0]["id"], 0)
    event.ok("post", f"/api/tournaments/{tournament_id}/check-in/", {"present": entrants[1:]})
    round_two = event.draw(tournament_id)
    seated = sorted(slot["entrant"] for match in round_two["matches"] for slot in match["entrants"])
    assert seated == entrants[1:]  # not entrants[0], checked out
    assert all(not match["is_bye"] for match in round_two["matches"])
