"""A stateful property test of the hand API against a model built on the engine.

What it proves: whatever sequence two tablets (two scorekeepers' clients) run on one game —
record a hand (with an Idempotency-Key and the hand number), retry the last request with the
same key, record a hand under a number already taken (409 ``hand_conflict``), correct any hand
with the current ETag (200, or 409 when a later hand no longer fits), correct with a stale ETag
(412), undo the last hand — the API answers what the model predicts, and after every step the
stored hands are exactly the model's records and the game's totals, status and winner equal the
engine's replay of them.

What it does not do: run concurrently (tests/games/test_races.py races real threads).

Terms: *model* — the list of records the API should hold, replayed by the engine
(``games.bridge``) to predict totals and whether a correction fits.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import (
    RuleBasedStateMachine,
    initialize,
    invariant,
    precondition,
    rule,
    run_state_machine_as_test,
)

from bench.night import random_hand
from games import bridge
from games.models import Game, Hand
from rules_engine import RulesError, canonical_record
from tests.games.helpers import build_table
from tests.helpers import token_client


def _replay(game: Game, records: list[dict]):
    """The engine's fields after ``records``; raises RulesError when one does not fit."""
    state = bridge.start_for(game)
    fields = bridge.fields_of(state)
    for record in records:
        state, fields, _ = bridge.play_state(state, record)
    return fields


class HandMachine(RuleBasedStateMachine):
    table = None  # set by the test: one club, reused by every example

    @initialize()
    def new_game(self):
        self.clients = [
            token_client(self.table.world.users["scorekeeper"]),
            token_client(self.table.world.users["organiser"]),
        ]
        created = self.clients[0].post(
            f"/api/clubs/{self.table.club.slug}/games/",
            {
                "game": "25",
                "seats": self.table.player_ids(4),
                "teams": [[0, 2], [1, 3]],
                "first_dealer": 0,
                "stake": "0.10",
            },
            format="json",
        )
        assert created.status_code == 201
        self.game_id = created.json()["id"]
        self.records: list[dict] = []
        self.last = None  # (client index, key, body, status, json) of the last hand POST
        self.keys = 0

    def _game(self) -> Game:
        return Game.objects.get(pk=self.game_id)

    def _fields(self):
        return _replay(self._game(), self.records)

    def _view(self) -> dict:
        fields = self._fields()
        game = self._game()
        return {
            "house_rules": game.house_rules,
            "sides": [{"seats": seats} for seats in _sides(game)],
            "totals": {str(side): total for side, total in enumerate(fields["totals"])},
            "next_dealer": fields["next_dealer"],
        }

    @rule(client=st.integers(0, 1), seed=st.integers(0, 2**32))
    def record(self, client, seed):
        finished = self._fields()["status"] == "finished"
        body = {"number": len(self.records) + 1, **random_hand(self._view(), random.Random(seed))}
        self.keys += 1
        key = f"key-{self.game_id}-{self.keys}"
        response = self.clients[client].post(
            f"/api/games/{self.game_id}/hands/",
            body,
            format="json",
            headers={"Idempotency-Key": key},
        )
        if finished:
            assert response.status_code == 409, response.json()
            assert response.json()["code"] == "game_over"
            return
        assert response.status_code == 201, response.json()
        self.records.append({key: value for key, value in body.items() if key != "number"})
        self.last = (client, key, body, response.status_code, response.json())

    @precondition(lambda self: self.last is not None)
    @rule()
    def retry(self):
        client, key, body, status, first = self.last
        response = self.clients[client].post(
            f"/api/games/{self.game_id}/hands/",
            body,
            format="json",
            headers={"Idempotency-Key": key},
        )
        assert response.status_code == status
        assert response["Idempotent-Replayed"] == "true"
        assert response.json() == first

    @precondition(lambda self: self.records)
    @rule(client=st.integers(0, 1), data=st.data())
    def conflict(self, client, data):
        number = data.draw(st.integers(1, len(self.records)))
        record = {"dealer": 0, "trump": "S", "trick_winners": [0]}
        self.keys += 1
        response = self.clients[client].post(
            f"/api/games/{self.game_id}/hands/",
            {"number": number, **record},
            format="json",
            headers={"Idempotency-Key": f"conflict-{self.keys}"},
        )
        assert response.status_code == 409, response.json()
        assert response.json()["code"] in ("hand_conflict", "game_over")

    @precondition(lambda self: self.records)
    @rule(client=st.integers(0, 1), data=st.data(), seed=st.integers(0, 2**32))
    def correct(self, client, data, seed):
        number = data.draw(st.integers(1, len(self.records)))
        before = _replay(self._game(), self.records[: number - 1])
        view = {
            **self._view(),
            "totals": {str(s): t for s, t in enumerate(before["totals"])},
            "next_dealer": before["next_dealer"],
        }
        record = random_hand(view, random.Random(seed))
        candidate = [*self.records[: number - 1], record, *self.records[number:]]
        try:
            _replay(self._game(), candidate)
            fits = True
        except RulesError:
            fits = False
        response = self.clients[client].put(
            f"/api/games/{self.game_id}/hands/{number}/",
            record,
            format="json",
            headers={"If-Match": self._game().etag},
        )
        if fits:
            assert response.status_code == 200, response.json()
            self.records = candidate
        else:
            assert response.status_code in (400, 409), response.json()

    @precondition(lambda self: self.records)
    @rule()
    def stale_correction(self):
        response = self.clients[0].put(
            f"/api/games/{self.game_id}/hands/1/",
            self.records[0],
            format="json",
            headers={"If-Match": '"0-0"'},
        )
        assert response.status_code == 412

    @precondition(lambda self: self.records)
    @rule(client=st.integers(0, 1))
    def undo(self, client):
        number = len(self.records)
        response = self.clients[client].delete(
            f"/api/games/{self.game_id}/hands/{number}/", headers={"If-Match": self._game().etag}
        )
        assert response.status_code == 200, response.json()
        self.records.pop()
        self.last = None  # the undone hand's key may not be replayed into a new number

    @invariant()
    def database_equals_model(self):
        if not hasattr(self, "game_id"):
            return
        stored = list(Hand.objects.filter(game_id=self.game_id).order_by("number"))
        assert [hand.record for hand in stored] == [canonical_record(r) for r in self.records]
        assert [hand.number for hand in stored] == list(range(1, len(self.records) + 1))
        game = self._game()
        fields = self._fields()
        assert (game.totals, game.status, game.winner_side, game.hands_played) == (
            fields["totals"],
            fields["status"],
            fields["winner_side"],
            fields["hands_played"],
        )


def _sides(game: Game) -> list[list[int]]:
    sides: dict[int, list[int]] = {}
    for seat in game.seats.all():
        sides.setdefault(seat.side, []).append(seat.seat)
    return [sorted(sides[index]) for index in sorted(sides)]


@pytest.mark.django_db
def test_the_hand_api_equals_its_model():
    HandMachine.table = build_table()
    run_state_machine_as_test(
        HandMachine,
        settings=settings(
            max_examples=12,
            stateful_step_count=12,
            deadline=None,
            database=None,
            derandomize=True,
            suppress_health_check=list(HealthCheck),
        ),
    )
