"""Races between tablets, with real concurrent requests against a live server (no mocks).

Threads wait at a barrier and then fire their ``requests`` together at pytest-django's
``live_server`` (a threaded WSGI server, one database connection per request thread, PostgreSQL).
Each race is run for several rounds so that the requests really overlap in at least some of them;
the assertions hold in every round whatever the interleaving.
"""

from __future__ import annotations

import functools
import threading

import pytest
import requests
from django.db import DEFAULT_DB_ALIAS, connections

from accounts.services import issue_device_token
from config.idempotency import advisory_lock_identifier
from games.models import Hand, IdempotencyRecord
from tests.games.helpers import build_table

ROUNDS = 5


@pytest.fixture
def live_table(transactional_db):
    return build_table()


def token_session(user, device: str) -> requests.Session:
    _, token = issue_device_token(user=user, device=device)
    session = requests.Session()
    session.headers["Authorization"] = f"Token {token}"
    return session


def fire_together(calls) -> list[requests.Response]:
    """Run each zero-argument callable in its own thread, released at the same moment."""
    barrier = threading.Barrier(len(calls))
    responses: list = [None] * len(calls)

    def run(index, call):
        barrier.wait()
        responses[index] = call()

    threads = [threading.Thread(target=run, args=item) for item in enumerate(calls)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert all(response is not None for response in responses)
    return responses


def new_game(session, live_server, table) -> dict:
    response = session.post(
        f"{live_server.url}/api/clubs/{table.club.slug}/games/",
        json={"game": "25", "seats": table.player_ids(3), "first_dealer": 0},
        timeout=30,
    )
    assert response.status_code == 201, response.text
    return response.json()


def test_two_tablets_posting_the_same_hand_number(live_server, live_table):
    tablet_a = token_session(live_table.world.users["scorekeeper"], "tablet a")
    tablet_b = token_session(live_table.world.users["organiser"], "tablet b")
    game = new_game(tablet_a, live_server, live_table)
    url = f"{live_server.url}/api/games/{game['id']}/hands/"
    for round_number in range(1, ROUNDS + 1):
        # Misdeals keep the same dealer, so both tablets' records are valid as hand N.
        record = {"number": round_number, "dealer": 0, "misdeal": True}
        responses = fire_together(
            [
                functools.partial(tablet_a.post, url, json=record, timeout=30),
                functools.partial(tablet_b.post, url, json=record, timeout=30),
            ]
        )
        statuses = sorted(response.status_code for response in responses)
        assert statuses == [201, 409], [response.text for response in responses]
        created = next(response for response in responses if response.status_code == 201)
        conflict = next(response for response in responses if response.status_code == 409)
        assert conflict.json()["code"] == "hand_conflict"
        assert conflict.json()["hand"]["number"] == round_number
        assert conflict.json()["hand"]["entered_at"] == created.json()["entered_at"]
        assert Hand.objects.filter(game_id=game["id"]).count() == round_number


def test_the_same_idempotency_key_posted_concurrently(live_server, live_table):
    tablet = token_session(live_table.world.users["scorekeeper"], "tablet")
    game = new_game(tablet, live_server, live_table)
    url = f"{live_server.url}/api/games/{game['id']}/hands/"
    for round_number in range(1, ROUNDS + 1):
        key = f"round-{round_number}"
        record = {"dealer": 0, "misdeal": True}

        post = functools.partial(
            tablet.post, url, json=record, headers={"Idempotency-Key": key}, timeout=30
        )

        responses = fire_together([post, post, post])
        statuses = [response.status_code for response in responses]
        assert set(statuses) <= {201, 409}, [response.text for response in responses]
        created = [response.json() for response in responses if response.status_code == 201]
        assert created, statuses
        assert all(body == created[0] for body in created)  # replays of the first response
        for response in responses:
            if response.status_code == 409:
                assert response.json()["code"] == "idempotency_in_progress"
        # Never two hands: exactly one per round.
        assert Hand.objects.filter(game_id=game["id"]).count() == round_number
        assert IdempotencyRecord.objects.filter(key=key).count() == 1
        # Once the first request is done, a retry replays it.
        retry = post()
        assert retry.status_code == 201
        assert retry.json() == created[0]
        assert retry.headers["Idempotent-Replayed"] == "true"


def test_a_key_held_by_a_running_request_is_refused_over_http(live_server, live_table):
    """Deterministic companion of the race above: a second database session holds the key's
    lock, as a request still being processed does, while the tablet retries."""
    user = live_table.world.users["scorekeeper"]
    tablet = token_session(user, "tablet")
    game = new_game(tablet, live_server, live_table)
    url = f"{live_server.url}/api/games/{game['id']}/hands/"
    post = functools.partial(
        tablet.post,
        url,
        json={"dealer": 0, "misdeal": True},
        headers={"Idempotency-Key": "held"},
        timeout=30,
    )
    other = connections.create_connection(DEFAULT_DB_ALIAS)
    try:
        with other.cursor() as cursor:
            lock = advisory_lock_identifier(f"user:{user.pk}", "held")
            cursor.execute("SELECT pg_advisory_lock(%s)", [lock])
            response = post()
            cursor.execute("SELECT pg_advisory_unlock(%s)", [lock])
    finally:
        other.close()
    assert (response.status_code, response.json()["code"]) == (409, "idempotency_in_progress")
    assert not Hand.objects.filter(game_id=game["id"]).exists()
    assert post().status_code == 201
    assert post().headers["Idempotent-Replayed"] == "true"
    assert Hand.objects.filter(game_id=game["id"]).count() == 1


def test_two_tablets_recording_without_a_number_are_served_one_after_the_other(
    live_server, live_table
):
    tablet_a = token_session(live_table.world.users["scorekeeper"], "tablet a")
    tablet_b = token_session(live_table.world.users["organiser"], "tablet b")
    game = new_game(tablet_a, live_server, live_table)
    url = f"{live_server.url}/api/games/{game['id']}/hands/"
    # Misdeals keep the dealer, so both records are valid whichever is stored first.
    record = {"dealer": 0, "misdeal": True}
    for round_number in range(1, ROUNDS + 1):
        responses = fire_together(
            [
                functools.partial(tablet_a.post, url, json=record, timeout=30),
                functools.partial(tablet_b.post, url, json=record, timeout=30),
            ]
        )
        assert [response.status_code for response in responses] == [201, 201]
        numbers = sorted(response.json()["number"] for response in responses)
        assert numbers == [2 * round_number - 1, 2 * round_number]
        etags = {response.headers["ETag"] for response in responses}
        assert len(etags) == 2  # each saw its own version of the game
    assert list(
        Hand.objects.filter(game_id=game["id"]).order_by("number").values_list("number", flat=True)
    ) == list(range(1, 2 * ROUNDS + 1))


def test_two_tablets_correcting_with_the_same_etag(live_server, live_table):
    tablet_a = token_session(live_table.world.users["scorekeeper"], "tablet a")
    tablet_b = token_session(live_table.world.users["organiser"], "tablet b")
    game = new_game(tablet_a, live_server, live_table)
    hands_url = f"{live_server.url}/api/games/{game['id']}/hands/"
    response = tablet_a.post(
        hands_url, json={"dealer": 0, "trump": "S", "trick_winners": [0, 1, 2, 0, 1]}, timeout=30
    )
    assert response.status_code == 201
    for round_number in range(ROUNDS):
        etag = tablet_a.get(f"{live_server.url}/api/games/{game['id']}/", timeout=30).headers[
            "ETag"
        ]
        winners_a = [0, 1, 2, 0, 1] if round_number % 2 else [1, 1, 2, 0, 1]
        winners_b = [2, 2, 2, 0, 1]
        responses = fire_together(
            [
                functools.partial(
                    tablet_a.put,
                    f"{hands_url}1/",
                    json={"dealer": 0, "trump": "S", "trick_winners": winners_a},
                    headers={"If-Match": etag},
                    timeout=30,
                ),
                functools.partial(
                    tablet_b.put,
                    f"{hands_url}1/",
                    json={"dealer": 0, "trump": "H", "trick_winners": winners_b},
                    headers={"If-Match": etag},
                    timeout=30,
                ),
            ]
        )
        statuses = sorted(response.status_code for response in responses)
        assert statuses == [200, 412], [response.text for response in responses]
        winner = next(response for response in responses if response.status_code == 200)
        stored = Hand.objects.get(game_id=game["id"], number=1)
        assert stored.record["trick_winners"] == winner.json()["trick_winners"]
