"""Retries with ``Idempotency-Key`` (config/idempotency.py), in process. The concurrent cases run
against a live server in test_races.py."""

from __future__ import annotations

import datetime
from contextlib import contextmanager

import pytest
from django.db import DEFAULT_DB_ALIAS, connections
from django.utils import timezone

from config.idempotency import advisory_lock_identifier
from games.models import Game, Hand, IdempotencyRecord
from games.tasks import purge_idempotency_records_task
from tests.games.helpers_db import database_snapshot

HAND = {"dealer": 3, "trump": "S", "trick_winners": [0, 1, 1, 2, 2]}


@pytest.fixture
def game(table):
    return table.new_game("25", 4, teams=[[0, 2], [1, 3]], first_dealer=3)


@pytest.mark.django_db
def test_a_retry_returns_the_first_response_and_stores_nothing(table, game):
    first = table.post_hand(game["id"], HAND, **{"Idempotency-Key": "hand-1-tablet-a"})
    assert first.status_code == 201
    assert "Idempotent-Replayed" not in first
    before = database_snapshot()
    # The same body, keys in another order: the same request.
    retry = table.post_hand(
        game["id"],
        {"trick_winners": [0, 1, 1, 2, 2], "trump": "S", "dealer": 3},
        **{"Idempotency-Key": "hand-1-tablet-a"},
    )
    assert retry.status_code == 201
    assert retry.json() == first.json()
    assert retry["Location"] == first["Location"]
    assert retry["ETag"] == first["ETag"]
    assert retry["Idempotent-Replayed"] == "true"
    assert database_snapshot() == before
    assert Hand.objects.filter(game_id=game["id"]).count() == 1


@pytest.mark.django_db
def test_the_same_key_with_another_body_is_refused(table, game):
    assert table.post_hand(game["id"], HAND, **{"Idempotency-Key": "k1"}).status_code == 201
    before = database_snapshot()
    other = {**HAND, "trump": "H"}
    response = table.post_hand(game["id"], other, **{"Idempotency-Key": "k1"})
    assert response.status_code == 422
    assert response.json()["code"] == "idempotency_key_reused"
    # ... and on another endpoint.
    response = table.client().post(
        f"/api/clubs/{table.club.slug}/games/",
        {"game": "25", "seats": table.player_ids(3)},
        format="json",
        headers={"Idempotency-Key": "k1"},
    )
    assert response.status_code == 422
    assert database_snapshot() == before


@pytest.mark.django_db
def test_keys_belong_to_their_user(table, game):
    assert table.post_hand(game["id"], HAND, **{"Idempotency-Key": "shared"}).status_code == 201
    # The organiser's tablet used the same key for its own, different request: no clash.
    response = table.post_hand(
        game["id"],
        {"dealer": 0, "misdeal": True},
        role="organiser",
        **{"Idempotency-Key": "shared"},
    )
    assert response.status_code == 201
    assert response.json()["number"] == 2


@pytest.mark.django_db
def test_a_refused_request_keeps_no_key(table, game):
    bad = {**HAND, "dealer": 0}
    response = table.post_hand(game["id"], bad, **{"Idempotency-Key": "fix-and-retry"})
    assert response.status_code == 400
    assert not IdempotencyRecord.objects.exists()
    response = table.post_hand(game["id"], HAND, **{"Idempotency-Key": "fix-and-retry"})
    assert response.status_code == 201


@pytest.mark.django_db
def test_creating_a_game_is_idempotent(table):
    body = {"game": "45", "seats": table.player_ids(3), "stake": "1.00"}
    url = f"/api/clubs/{table.club.slug}/games/"
    first = table.client().post(url, body, format="json", headers={"Idempotency-Key": "g"})
    assert first.status_code == 201
    before = database_snapshot()
    again = table.client().post(url, body, format="json", headers={"Idempotency-Key": "g"})
    assert again.status_code == 201
    assert again.json() == first.json()
    assert (again["Location"], again["ETag"]) == (first["Location"], first["ETag"])
    assert again["Idempotent-Replayed"] == "true"
    assert database_snapshot() == before
    assert Game.objects.count() == 1
    other = table.client().post(
        url, {**body, "stake": "2.00"}, format="json", headers={"Idempotency-Key": "g"}
    )
    assert (other.status_code, other.json()["code"]) == (422, "idempotency_key_reused")
    assert database_snapshot() == before


@contextmanager
def key_held_by_another_request(user, key: str):
    """Hold the advisory lock of ``key`` from a second database session, as a request still
    running with that key does (see config/idempotency.py)."""
    other = connections.create_connection(DEFAULT_DB_ALIAS)
    try:
        with other.cursor() as cursor:
            lock = advisory_lock_identifier(f"user:{user.pk}", key)
            cursor.execute("SELECT pg_advisory_lock(%s)", [lock])
            try:
                yield
            finally:
                cursor.execute("SELECT pg_advisory_unlock(%s)", [lock])
    finally:
        other.close()


@pytest.mark.django_db
@pytest.mark.parametrize("endpoint", ["game", "hand"])
def test_a_key_still_being_processed_is_a_conflict(table, game, endpoint):
    if endpoint == "game":
        url = f"/api/clubs/{table.club.slug}/games/"
        body = {"game": "25", "seats": table.player_ids(3)}
    else:
        url = f"/api/games/{game['id']}/hands/"
        body = HAND
    client = table.client()
    headers = {"Idempotency-Key": "slow"}
    before = database_snapshot()
    with key_held_by_another_request(table.world.users["scorekeeper"], "slow"):
        response = client.post(url, body, format="json", headers=headers)
        assert response.status_code == 409
        assert response["Content-Type"] == "application/problem+json"
        assert response.json()["code"] == "idempotency_in_progress"
        assert database_snapshot() == before
    # Once the first request is over (here it stored nothing), the retry runs, then replays.
    retry = client.post(url, body, format="json", headers=headers)
    assert retry.status_code == 201
    assert "Idempotent-Replayed" not in retry
    replay = client.post(url, body, format="json", headers=headers)
    assert (replay.status_code, replay.json()) == (201, retry.json())
    assert replay["Idempotent-Replayed"] == "true"
    assert IdempotencyRecord.objects.filter(key="slow").count() == 1


@pytest.mark.django_db
def test_a_key_must_be_short_and_printable(table, game):
    before = database_snapshot()
    response = table.post_hand(game["id"], HAND, **{"Idempotency-Key": "x" * 256})
    assert response.status_code == 400
    assert response.json()["code"] == "invalid_idempotency_key"
    assert database_snapshot() == before


@pytest.mark.django_db
def test_keys_are_purged_after_seven_days(table, game):
    for key in ("old", "recent"):
        table.post_hand(game["id"], {"misdeal": True, "dealer": 3}, **{"Idempotency-Key": key})
    IdempotencyRecord.objects.filter(key="old").update(
        created_at=timezone.now() - datetime.timedelta(days=7, minutes=1)
    )
    IdempotencyRecord.objects.filter(key="recent").update(
        created_at=timezone.now() - datetime.timedelta(days=6, hours=23)
    )
    assert purge_idempotency_records_task() == 1
    assert list(IdempotencyRecord.objects.values_list("key", flat=True)) == ["recent"]
    assert purge_idempotency_records_task() == 0
