"""The progress task: ids in, recomputed from the games, safe to run twice, repaired if lost;
and once through a real Celery worker on Redis."""

from __future__ import annotations

import time

import pytest
from django.db import connection

from games.models import Game
from tests.tournaments.play_helpers import build_event, current_game, win_match
from tests.tournaments.test_api_bad_input import snapshot
from tournaments import services
from tournaments.models import Match
from tournaments.tasks import match_progress_task, repair_tournaments_task


def four_player_knockout(event) -> tuple[int, list[dict]]:
    tournament = event.create_tournament(
        name="Cup",
        game="25",
        format="knockout",
        entrants=[
            {"player": player.pk, "seed": index + 1} for index, player in enumerate(event.players)
        ],
    )
    return tournament["id"], event.draw(tournament["id"])["matches"]


@pytest.mark.django_db
def test_running_the_task_again_changes_nothing():
    event = build_event(players=4)
    tournament_id, semis = four_player_knockout(event)
    for match in semis:
        win_match(event, tournament_id, match["id"], 0)
    before = snapshot()
    for match in Match.objects.filter(tournament_id=tournament_id):
        first = match_progress_task.apply(args=[match.pk]).get()
        second = match_progress_task.apply(args=[match.pk]).get()
        assert first == second
        assert first["changed"] is False
    assert snapshot() == before


@pytest.mark.django_db
def test_the_task_for_a_match_that_is_gone_does_nothing():
    assert match_progress_task.apply(args=[987654]).get() == {
        "match": 987654,
        "outcome": "missing",
    }


@pytest.mark.django_db
def test_a_lost_message_is_repaired_by_the_periodic_task():
    event = build_event(players=4)
    tournament_id, semis = four_player_knockout(event)
    win_match(event, tournament_id, semis[1]["id"], 0)
    game = current_game(event, tournament_id, semis[0]["id"])
    # Record the deciding hand without running the on-commit callbacks: the message is lost.
    record = {
        "dealer": event.game(game["id"])["next_dealer"],
        "trump": "S",
        "trick_winners": [0, 0, 0, 0, 0],
    }
    response = event.client("scorekeeper").post(
        f"/api/games/{game['id']}/hands/", record, format="json"
    )
    assert response.status_code == 201
    assert Game.objects.get(pk=game["id"]).status == "finished"
    assert Match.objects.get(pk=semis[0]["id"]).status == "in_progress"
    assert services.list_matches_needing_progress() == [semis[0]["id"]]

    assert repair_tournaments_task.apply().get() == 1
    assert Match.objects.get(pk=semis[0]["id"]).status == "decided"
    final = Match.objects.get(tournament_id=tournament_id, round__number=2)
    assert final.status == "in_progress"
    assert services.list_matches_needing_progress() == []
    assert repair_tournaments_task.apply().get() == 0


@pytest.mark.django_db
def test_drawing_with_an_idempotency_key_twice_draws_once():
    event = build_event(players=4)
    tournament = event.create_tournament(
        name="Swiss",
        game="25",
        format="swiss",
        round_count=2,
        entrants=[{"player": player.pk} for player in event.players],
    )
    url = f"/api/tournaments/{tournament['id']}/rounds/"
    first = event.call("post", url, **{"Idempotency-Key": "draw-1"})
    again = event.call("post", url, **{"Idempotency-Key": "draw-1"})
    assert (first.status_code, again.status_code) == (201, 201)
    assert again.json() == first.json()
    assert again.headers["Idempotent-Replayed"] == "true"
    assert Match.objects.filter(tournament_id=tournament["id"]).count() == 2


@pytest.mark.celery_worker
def test_a_real_worker_decides_the_match_and_fills_the_final(celery_worker_with_database):
    event = build_event(players=4, slug="worker-club")
    tournament = (
        event.client()
        .post(
            f"/api/clubs/{event.club.slug}/tournaments/",
            {
                "name": "Cup",
                "game": "25",
                "format": "knockout",
                "entrants": [
                    {"player": player.pk, "seed": index + 1}
                    for index, player in enumerate(event.players)
                ],
            },
            format="json",
        )
        .json()
    )
    semis = event.client().post(f"/api/tournaments/{tournament['id']}/rounds/").json()["matches"]
    for match in semis:
        game_id = match["games"][0]["id"]
        # Outside captureOnCommitCallbacks: the commit is real, and games enqueues the task on
        # Redis for the worker.
        response = event.client("scorekeeper").post(
            f"/api/games/{game_id}/hands/",
            {"dealer": 0, "trump": "S", "trick_winners": [0, 0, 0, 0, 0]},
            format="json",
        )
        assert response.status_code == 201, response.content
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        if Match.objects.filter(tournament_id=tournament["id"], round__number=2).exists():
            break
        time.sleep(0.2)
        connection.close()  # see the worker's commits on a fresh connection
    statuses = sorted(
        Match.objects.filter(tournament_id=tournament["id"]).values_list("round__number", "status")
    )
    assert statuses == [(1, "decided"), (1, "decided"), (2, "in_progress")]
    final = Match.objects.get(tournament_id=tournament["id"], round__number=2)
    assert final.games.count() == 1
