"""``games.changes`` wired into the services: one announcement per write, after commit, to the
subscribers listed in settings in their order; the listed checks may refuse a result change.

The subscribers and the check here are this module's functions, named in the settings by
``override_settings`` (the games app forgets the imported lists when they change)."""

from __future__ import annotations

import pytest
from django.test import override_settings

from config.problems import Problem
from games.changes import GameChange, GameChangeKind, ProposedResultChange
from tests.games.helpers_db import database_snapshot

pytestmark = pytest.mark.django_db

HEARD: list[tuple[str, GameChange]] = []
PROPOSED: list[ProposedResultChange] = []

FIRST_HAND = {"dealer": 3, "trump": "S", "trick_winners": [0, 1, 1, 2, 2]}
WINNING_HAND = {"dealer": 0, "trump": "H", "trick_winners": [1, 3, 0, 2]}  # side 0 wins
FLIPPED_HAND = {"dealer": 0, "trump": "H", "trick_winners": [1, 3, 1]}  # side 1 wins instead

K = GameChangeKind


def first(change: GameChange) -> None:
    HEARD.append(("first", change))


def failing(change: GameChange) -> None:
    HEARD.append(("failing", change))
    raise RuntimeError("a subscriber that breaks")


def last(change: GameChange) -> None:
    HEARD.append(("last", change))


def refuse_unless_reset(proposal: ProposedResultChange) -> None:
    """As a decided match's check: a change of the winner needs the reset; points alone pass."""
    PROPOSED.append(proposal)
    if proposal.new_winner_side != proposal.winner_side_before and not proposal.reset_dependents:
        raise Problem(code="match_locked", detail="Refused by a listed check.")


PREFIX = "tests.games.test_changes."


@pytest.fixture
def listening():
    HEARD.clear()
    PROPOSED.clear()
    with override_settings(
        JINK_GAME_CHANGE_SUBSCRIBERS=[PREFIX + "first", PREFIX + "failing", PREFIX + "last"],
        JINK_GAME_CHANGE_CHECKS=[PREFIX + "refuse_unless_reset"],
    ):
        yield HEARD


def _heard(name="first"):
    return [
        (change.game_id, set(change.kinds), change.hand_number)
        for who, change in HEARD
        if who == name
    ]


def _write(django_capture_on_commit_callbacks, action):
    """Run ``action``; return (its response, what the subscribers heard during it)."""
    HEARD.clear()
    with django_capture_on_commit_callbacks(execute=True):
        response = action()
    return response, _heard()


def test_every_write_announces_its_kinds_once_to_every_subscriber_in_order(
    table, listening, django_capture_on_commit_callbacks
):
    capture = django_capture_on_commit_callbacks
    game, heard = _write(
        capture, lambda: table.new_game("25", 4, teams=[[0, 2], [1, 3]], first_dealer=3)
    )
    game_id = game["id"]
    assert heard == [(game_id, {K.STARTED}, None)]
    # Called in the listed order; the failing one neither stops the last nor fails the request.
    assert [who for who, _ in HEARD] == ["first", "failing", "last"]
    change = HEARD[0][1]
    assert (change.club_id, change.actor_id) == (table.club.pk, table.world.users["scorekeeper"].pk)

    response, heard = _write(capture, lambda: table.post_hand(game_id, FIRST_HAND))
    assert response.status_code == 201
    assert heard == [(game_id, {K.HAND_RECORDED}, 1)]
    assert [who for who, _ in HEARD] == ["first", "failing", "last"]

    response, heard = _write(capture, lambda: table.post_hand(game_id, WINNING_HAND))
    assert response.json()["game"]["status"] == "finished"
    assert heard == [(game_id, {K.HAND_RECORDED, K.FINISHED}, 2)]

    client = table.client("organiser")

    def put(number, record, reset=False):
        etag = client.get(f"/api/games/{game_id}/")["ETag"]
        query = "?reset_dependents=true" if reset else ""
        return client.put(
            f"/api/games/{game_id}/hands/{number}/{query}",
            record,
            format="json",
            headers={"If-Match": etag},
        )

    response, heard = _write(capture, lambda: put(1, FIRST_HAND))
    assert response.status_code == 200
    assert heard == [(game_id, {K.HAND_CORRECTED}, 1)]
    # The winner stays: the checks are still asked (a closed event refuses any change to a
    # finished game but an organiser's), and this one lets it pass.
    assert [
        (p.game_id, p.winner_side_before, p.new_winner_side, p.reset_dependents) for p in PROPOSED
    ] == [(game_id, 0, 0, False)]
    PROPOSED.clear()

    response, heard = _write(capture, lambda: put(2, FLIPPED_HAND, reset=True))
    assert response.json()["outcome"]["winner_after"] == 1
    assert heard == [(game_id, {K.HAND_CORRECTED, K.WINNER_CHANGED}, 2)]
    assert [
        (p.game_id, p.winner_side_before, p.new_winner_side, p.reset_dependents) for p in PROPOSED
    ] == [(game_id, 0, 1, True)]

    def undo():
        etag = client.get(f"/api/games/{game_id}/")["ETag"]
        query = "?reset_dependents=true"
        return client.delete(f"/api/games/{game_id}/hands/2/{query}", headers={"If-Match": etag})

    response, heard = _write(capture, undo)
    assert response.status_code == 200, response.content
    assert heard == [(game_id, {K.HAND_UNDONE, K.REOPENED}, 2)]
    assert _heard("last") == heard


def test_a_refused_write_announces_nothing_and_a_check_refusal_stores_nothing(
    table, listening, django_capture_on_commit_callbacks
):
    game = table.new_game("25", 4, teams=[[0, 2], [1, 3]], first_dealer=3)
    game_id = game["id"]
    table.post_hand(game_id, FIRST_HAND)
    table.post_hand(game_id, WINNING_HAND)
    # Refused (the game is over): rolled back, nothing announced.
    response, heard = _write(
        django_capture_on_commit_callbacks,
        lambda: table.post_hand(game_id, {"dealer": 2, "misdeal": True}),
    )
    assert (response.status_code, heard) == (409, [])
    # Refused by the listed check: the Problem is the answer, nothing stored or announced.
    before = database_snapshot()
    client = table.client()
    etag = client.get(f"/api/games/{game_id}/")["ETag"]
    response, heard = _write(
        django_capture_on_commit_callbacks,
        lambda: client.put(
            f"/api/games/{game_id}/hands/2/",
            FLIPPED_HAND,
            format="json",
            headers={"If-Match": etag},
        ),
    )
    assert (response.status_code, response.json()["code"], heard) == (409, "match_locked", [])
    assert database_snapshot() == before
    assert [(p.game_id, p.new_winner_side, p.reset_dependents) for p in PROPOSED] == [
        (game_id, 1, False)
    ]
