"""Stored standings (tournaments.snapshots): always equal to a full recomputation, coalesced,
idempotent, one recomputation at a time per tournament, read with ETag/304 and ``stale``.

The property test plays random sequences of hands, corrections, undos and draws in a round robin
through the games and tournaments services, with every on-commit callback run (so the progress and
refresh tasks run in process, as in the embedded setup), and compares the snapshot with
``compute_standings`` after each step.
"""

from __future__ import annotations

import threading

import pytest
from django.db import connection, connections
from django.db.models import F
from django.test import TestCase
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from config.problems import Problem
from games.models import Game, GameStatus, Hand
from games.services import correct_hand, record_hand, undo_last_hand
from tests.tournaments.play_helpers import build_event
from tournaments import services, snapshots
from tournaments.models import Match, StandingsSnapshot, Tournament
from tournaments.standings import compute_standings

pytestmark = pytest.mark.django_db


def committed(function, **kwargs):
    with TestCase.captureOnCommitCallbacks(execute=True):
        return function(**kwargs)


def stored_equals_recomputed(tournament_id: int) -> None:
    tournament = Tournament.objects.get(pk=tournament_id)
    snapshot = StandingsSnapshot.objects.get(tournament=tournament)
    full = compute_standings(tournament)
    assert snapshot.data_version == tournament.data_version
    assert snapshot.body == {
        key: value for key, value in full.items() if key not in ("etag", "computed_at")
    }


def round_robin(event, **extra) -> int:
    return services.create_tournament(
        club=event.club,
        user=event.world.users["organiser"],
        values={
            "name": "League",
            "game": "25",
            "format": "round_robin",
            "auto_advance": False,
            **extra,
        },
        entrants=[
            {"player": player.pk, "seed": index + 1} for index, player in enumerate(event.players)
        ],
    ).pk


def tricks_until_the_end(bits: list[int], totals: list[int]) -> list[int]:
    """Trick winners (seat 0 or 1) cut at the trick where a side reaches 25."""
    totals = list(totals)
    winners = []
    for seat in bits:
        winners.append(seat)
        totals[seat] += 5
        if totals[seat] >= 25:
            break
    return winners


def current_game(tournament_id: int, table: int) -> Game | None:
    match = Match.objects.filter(tournament_id=tournament_id, is_bye=False).order_by(
        "-round__number", "table"
    )
    matches = list(match)
    if not matches:
        return None
    last_round = matches[0].round_id
    tables = [match for match in matches if match.round_id == last_round]
    chosen = tables[table % len(tables)]
    return Game.objects.filter(match_link__match=chosen).order_by("-id").first()


STEPS_TAKEN: list[int] = []  # hands stored at the end of each example (for a sanity check)

operations = st.lists(
    st.one_of(
        st.tuples(
            st.just("hand"), st.integers(0, 1), st.lists(st.integers(0, 1), min_size=5, max_size=5)
        ),
        st.tuples(
            st.just("correct"),
            st.integers(0, 1),
            st.lists(st.integers(0, 1), min_size=5, max_size=5),
        ),
        st.tuples(st.just("undo"), st.integers(0, 1), st.just([])),
        st.tuples(st.just("draw"), st.just(0), st.just([])),
    ),
    min_size=1,
    max_size=10,
)


@pytest.fixture
def league(db):
    """One club and round robin for all the examples (each example runs in a savepoint)."""
    event = build_event(players=4, slug="property-league")
    tournament_id = round_robin(event)
    committed(
        services.draw_next_round, tournament_id=tournament_id, user=event.world.users["organiser"]
    )
    return event, tournament_id


@settings(
    max_examples=15, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(steps=operations)
def test_the_snapshot_always_equals_a_full_recomputation(league, steps):
    event, tournament_id = league
    scorekeeper = event.world.users["scorekeeper"]
    organiser = event.world.users["organiser"]
    savepoint = connection.savepoint()
    try:
        for kind, table, bits in steps:
            game = current_game(tournament_id, table)
            try:
                if kind == "hand" and game is not None and game.status == GameStatus.IN_PROGRESS:
                    record = {
                        "dealer": game.next_dealer,
                        "trump": "S",
                        "trick_winners": tricks_until_the_end(bits, game.totals),
                    }
                    committed(record_hand, game_id=game.pk, user=scorekeeper, record=record)
                elif kind in ("correct", "undo") and game is not None and game.hands_played:
                    last = Hand.objects.get(game=game, number=game.hands_played)
                    if kind == "undo":
                        committed(
                            undo_last_hand,
                            game_id=game.pk,
                            number=last.number,
                            user=scorekeeper,
                            if_match=None,
                        )
                    else:
                        before = Hand.objects.filter(game=game, number=last.number - 1).first()
                        totals = before.totals_after if before else [0, 0]
                        record = {
                            "dealer": last.dealer,
                            "trump": "S",
                            "trick_winners": tricks_until_the_end(bits, totals),
                        }
                        committed(
                            correct_hand,
                            game_id=game.pk,
                            number=last.number,
                            user=scorekeeper,
                            record=record,
                            if_match=None,
                        )
                elif kind == "draw":
                    committed(services.draw_next_round, tournament_id=tournament_id, user=organiser)
            except Problem:
                pass  # refused (a round still undecided, a game over): nothing stored
            stored_equals_recomputed(tournament_id)
        STEPS_TAKEN.append(Hand.objects.filter(game__club=event.club).count())
    finally:
        connection.savepoint_rollback(savepoint)


def test_a_burst_of_changes_costs_one_recomputation_and_a_duplicate_none():
    event = build_event(players=4)
    tournament_id = round_robin(event)
    round_one = committed(
        services.draw_next_round, tournament_id=tournament_id, user=event.world.users["organiser"]
    )
    snapshots.refresh_standings(tournament_id=tournament_id)
    version = StandingsSnapshot.objects.get(tournament_id=tournament_id).version
    # 50 changes whose refresh messages have not run yet (no on-commit callbacks): one refresh
    # brings the snapshot up to all of them at once.
    tournament = Tournament.objects.get(pk=tournament_id)
    for _ in range(50):
        snapshots.note_standings_moved(tournament)
    assert snapshots.list_stale_tournaments() == [tournament_id]
    assert snapshots.refresh_standings(tournament_id=tournament_id) == {
        "tournament": tournament_id,
        "stored": 1,
        "outcome": "current",
    }
    # The same message again, or late: nothing older (or equal) is stored.
    assert snapshots.refresh_standings(tournament_id=tournament_id)["stored"] == 0
    snapshot = StandingsSnapshot.objects.get(tournament_id=tournament_id)
    assert (snapshot.version, snapshot.data_version) == (version + 1, tournament.data_version)
    assert snapshots.list_stale_tournaments() == []
    assert round_one.number == 1


@pytest.mark.django_db(transaction=True)
def test_a_worker_finding_the_lock_taken_leaves_the_work_to_its_holder():
    event = build_event(players=4)
    tournament_id = round_robin(event)
    services.draw_next_round(tournament_id=tournament_id, user=event.world.users["organiser"])
    # The draw's refresh ran on commit; the data moves again and its message is lost.
    Tournament.objects.filter(pk=tournament_id).update(data_version=F("data_version") + 1)
    held, release = threading.Event(), threading.Event()

    def hold_the_lock():
        other = connections.create_connection("default")
        try:
            with other.cursor() as cursor:
                cursor.execute("BEGIN")
                cursor.execute(
                    "SELECT pg_advisory_xact_lock(%s, %s)",
                    [snapshots.ADVISORY_LOCK_CLASS, tournament_id],
                )
                held.set()
                release.wait(10)
                cursor.execute("COMMIT")
        finally:
            other.close()

    holder = threading.Thread(target=hold_the_lock)
    holder.start()
    held.wait(10)
    try:
        assert snapshots.refresh_standings(tournament_id=tournament_id)["outcome"] == "busy"
    finally:
        release.set()
        holder.join()
    assert snapshots.refresh_standings(tournament_id=tournament_id)["stored"] == 1


def test_the_api_reads_the_snapshot_says_stale_and_answers_304():
    event = build_event(players=2)
    tournament_id = event.create_tournament(
        name="Final",
        game="25",
        format="knockout",
        entrants=[
            {"player": player.pk, "seed": index + 1} for index, player in enumerate(event.players)
        ],
    )["id"]
    (match,) = event.draw(tournament_id)["matches"]
    url = f"/api/tournaments/{tournament_id}/standings/"
    first = event.call("get", url, role="player")
    body = first.json()
    assert (body["version"], body["stale"], first.headers["ETag"]) == (
        body["version"],
        False,
        f'"s{tournament_id}-{body["version"]}"',
    )
    # The deciding hand is stored but its messages are lost (no on-commit callbacks run):
    # the snapshot is behind and says so; the ETag has not moved.
    game_id = match["games"][0]["id"]
    client = event.client("scorekeeper")
    response = client.post(
        f"/api/games/{game_id}/hands/",
        {"dealer": 0, "trump": "S", "trick_winners": [0] * 5},
        format="json",
    )
    assert response.status_code == 201
    # It decided the game: side 0 (Player 01) took every trick, 25 points.
    game = response.json()["game"]
    assert (game["status"], game["winner"]) == ("finished", 0)
    from tournaments.services import progress_match

    progress_match(match_id=match["id"])  # the match progresses; its refresh message is lost
    stale = event.call("get", url, role="player", **{"If-None-Match": first.headers["ETag"]})
    assert stale.status_code == 304
    assert event.call("get", url, role="player").json()["stale"] is True
    # The sweep repairs it.
    from tournaments.tasks import sweep_standings_task

    assert sweep_standings_task.apply().get() == 1
    fresh = event.call("get", url, role="player", **{"If-None-Match": first.headers["ETag"]})
    assert fresh.status_code == 200
    assert (fresh.json()["stale"], fresh.json()["version"]) == (False, body["version"] + 1)
    assert [row["entrant"]["name"] for row in fresh.json()["standings"]] == [
        "Player 01",
        "Player 02",
    ]


def test_the_property_examples_did_store_hands(league):
    # The property test's examples, run here on a league of this test's own (not relying on the
    # property test having run before in the file): they were not all refused.
    STEPS_TAKEN.clear()
    test_the_snapshot_always_equals_a_full_recomputation(league=league)
    assert len(STEPS_TAKEN) > 0
    assert max(STEPS_TAKEN) > 0


def test_a_first_read_while_a_worker_stores_the_first_snapshot_answers_the_standings(
    monkeypatch,
):
    """The first read finds no snapshot and its refresh is refused the lock (a worker is storing
    the first one): it answers the standings computed here, unstored, as version 0 — never a
    500 (seen on the real stack: ``StandingsSnapshot.DoesNotExist``)."""
    event = build_event(players=4)
    tournament_id = round_robin(event)
    StandingsSnapshot.objects.filter(tournament_id=tournament_id).delete()
    monkeypatch.setattr(snapshots, "_try_lock", lambda tournament_id: False)
    tournament = Tournament.objects.get(pk=tournament_id)
    read = snapshots.read_standings(tournament)
    full = compute_standings(tournament)
    assert (read["version"], read["data_version"], read["stale"], read["etag"]) == (
        0,
        tournament.data_version,
        False,
        f'"s{tournament_id}-0"',
    )
    assert {
        key: value
        for key, value in read.items()
        if key not in ("version", "data_version", "stale", "computed_at", "etag")
    } == {key: value for key, value in full.items() if key not in ("etag", "computed_at")}
    assert not StandingsSnapshot.objects.filter(tournament_id=tournament_id).exists()
