"""Pinned query counts: recording a hand costs the same on the first hand and the fortieth, and
lists cost the same however long they are."""

from __future__ import annotations

import pytest

from tests.helpers import count_queries

# Recording a hand with a device token, without Idempotency-Key:
#  1 the token and its user, 2 the user's other tokens (knox deletes expired ones on every
#  request), 3 the game and its club (permission check), 4 the caller's role, 5 SAVEPOINT (the
#  test's transaction; BEGIN in production, which is not a query), 6 SELECT ... FOR UPDATE of the
#  game, 7 INSERT hand, 8 INSERT hand history, 9 UPDATE game, 10 INSERT game history,
#  11 RELEASE SAVEPOINT.
RECORD_HAND_QUERIES = 11
# With Idempotency-Key: + SAVEPOINT and RELEASE of the idempotency transaction (around the
# service's), + the advisory lock, + the key lookup, + the key insert.
RECORD_HAND_WITH_KEY_QUERIES = RECORD_HAND_QUERIES + 5


def misdeal(dealer):
    return {"dealer": dealer, "misdeal": True}


@pytest.mark.django_db
def test_recording_a_hand_does_not_replay_history(table):
    game = table.new_game("25", 4, teams=[[0, 2], [1, 3]], first_dealer=3)
    table.client()  # the token is issued before counting
    counts = []
    for number in range(1, 41):
        counted = count_queries(table.post_hand, game["id"], misdeal(3), status=201)
        counts.append(counted.count)
        if number in (1, 40):
            assert counted.count == RECORD_HAND_QUERIES, "\n".join(counted.sql)
    assert set(counts) == {RECORD_HAND_QUERIES}


@pytest.mark.django_db
def test_recording_a_hand_with_an_idempotency_key(table):
    game = table.new_game("25", 4, teams=[[0, 2], [1, 3]], first_dealer=3)
    table.client()
    for number in range(1, 6):
        counted = count_queries(
            table.post_hand,
            game["id"],
            misdeal(3),
            status=201,
            **{"Idempotency-Key": str(number)},
        )
        assert counted.count == RECORD_HAND_WITH_KEY_QUERIES, "\n".join(counted.sql)


@pytest.mark.django_db
def test_the_finishing_hand_books_the_ledger_in_a_fixed_number_of_queries(table):
    game = table.new_game("25", 4, teams=[[0, 2], [1, 3]], first_dealer=3, stake="0.20")
    table.client()
    table.post_hand(game["id"], {"dealer": 3, "trump": "S", "trick_winners": [0, 1, 1, 2, 2]})
    counted = count_queries(
        table.post_hand,
        game["id"],
        {"dealer": 0, "trump": "H", "trick_winners": [1, 3, 0, 2]},
        status=201,
    )
    # + seats (shares), + ledger sums, + ledger insert, + the change's outbox row (the game
    # finished: its rating, season table, match and webhook are due; config.announce). A hand
    # that finishes nothing writes no outbox row (RECORD_HAND_QUERIES).
    assert counted.count == RECORD_HAND_QUERIES + 4, "\n".join(counted.sql)


@pytest.mark.django_db
@pytest.mark.parametrize("path", ["games", "hands", "history"])
def test_lists_cost_the_same_however_long_they_are(table, path):
    def url(game):
        if path == "games":
            return f"/api/clubs/{table.club.slug}/games/"
        return f"/api/games/{game['id']}/{path}/"

    def grow(game):
        table.new_game("45", 4, teams=[[0, 2], [1, 3]])
        table.post_hand(game["id"], misdeal(3))

    game = table.new_game("25", 4, teams=[[0, 2], [1, 3]], first_dealer=3)
    grow(game)
    client = table.client("player")
    small = count_queries(client.get, url(game))
    for _ in range(5):
        grow(game)
    large = count_queries(client.get, url(game))
    assert small.count == large.count, "\n".join(large.sql)
