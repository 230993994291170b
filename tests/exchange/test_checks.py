"""Bad files: 400 ``exchange_invalid`` with a pointer at each failing place (the schema, then
the references), the engine's refusal of a hand pointed at that hand, 422 when a game does not
re-play to the file's totals, 413 past the size limit, and never a 500 for a malformed document
(a few hundred mutations of a valid one). Nothing is stored by any of them."""

from __future__ import annotations

import copy
import json

import pytest

from exchange.checks import MAX_BYTES
from tests.exchange.helpers import row_counts
from tests.exchange.matrix import small_night_document
from tests.tournaments.play_helpers import build_event

pytestmark = pytest.mark.django_db

HAND = {"dealer": 0, "trump": "S", "trick_winners": [0, 0, 0, 0, 0]}


def with_game(**game) -> dict:
    document = small_night_document()
    document["games"] = [
        {
            "id": 3,
            "game": "25",
            "table": 1,
            "house_rules": {},
            "first_dealer": 0,
            "stake": "0.20",
            "status": "finished",
            "seats": [{"seat": 0, "player": 1, "side": 0}, {"seat": 1, "player": 2, "side": 1}],
            "totals": [25, 0],
            "winner_side": 0,
            "hands": [{"number": 1, "record": HAND, "totals_after": [25, 0]}],
            **game,
        }
    ]
    return document


@pytest.fixture
def club():
    return build_event(players=0, slug="federation")


def _post(club, body, **extra):
    return club.client().post(f"/api/clubs/{club.club.slug}/imports/", body, format="json", **extra)


def _errors(response) -> list[tuple]:
    return [(error["code"], error["pointer"]) for error in response.json()["errors"]]


def test_a_small_valid_file_imports(club):
    response = _post(club, with_game())
    assert (response.status_code, response.json()["outcome"]) == (201, "created")


@pytest.mark.parametrize(
    ("change", "expected"),
    [
        (lambda d: d.pop("format"), [("exchange_invalid", "")]),
        (lambda d: d.update(version=2), [("exchange_invalid", "/version")]),
        (
            lambda d: d["games"][0]["hands"][0].update(number="one"),
            [("exchange_invalid", "/games/0/hands/0/number")],
        ),
        (
            lambda d: d["games"][0]["seats"][1].update(player=99),
            [("exchange_invalid", "/games/0/seats/1/player")],
        ),
        (
            lambda d: d["games"][0]["hands"][0].update(number=2),
            [("exchange_invalid", "/games/0/hands")],
        ),
        (
            lambda d: d["players"].append({"id": 1, "name": "Again"}),
            [("exchange_invalid", "/players/2/id")],
        ),
        (lambda d: d.update(night=None), [("exchange_invalid", "/night")]),
        (lambda d: d["games"][0].update(stake="lots"), [("exchange_invalid", "/games/0/stake")]),
    ],
)
def test_schema_and_reference_failures_point_at_the_place(club, change, expected):
    document = with_game()
    change(document)
    before = row_counts()
    response = _post(club, document)
    assert (response.status_code, response.json()["code"]) == (400, "exchange_invalid")
    assert _errors(response)[: len(expected)] == expected
    assert row_counts() == before


def test_a_hand_the_engine_refuses_points_at_the_hand(club):
    document = with_game(
        hands=[{"number": 1, "record": {**HAND, "trump": "X"}, "totals_after": [25, 0]}]
    )
    before = row_counts()
    response = _post(club, document)
    assert response.status_code == 400, response.content
    assert all(pointer.startswith("/games/0/hands/0") for _, pointer in _errors(response))
    assert row_counts() == before


def test_totals_the_engine_does_not_reach_are_422(club):
    before = row_counts()
    response = _post(club, with_game(totals=[20, 5]))
    assert response.status_code == 422, response.content
    assert _errors(response) == [("exchange_replay_differs", "/games/0")]
    assert row_counts() == before


def test_an_open_night_and_an_open_event_are_refused(club):
    document = small_night_document()
    document["night"]["status"] = "open"
    assert _errors(_post(club, document)) == [("exchange_night_open", "/night/status")]
    document = small_night_document()
    document["origin"]["kind"] = "event"
    document["night"] = None
    document["event"] = {
        "name": "Cup",
        "game": "25",
        "format": "drive",
        "entrant_kind": "player",
        "table_size": 4,
        "round_count": 1,
        "match_rule": "best_of",
        "match_games": 1,
        "house_rules": {},
        "status": "in_progress",
        "stake": None,
        "entry_fee": None,
        "settings": {
            "advancing_per_table": None,
            "sides_per_table": None,
            "movement": "losers_stay",
            "min_table_size": None,
            "third_place_match": False,
            "bye_rule": "win",
            "tie_breaks": [],
            "auto_advance": True,
            "private_draws": False,
            "is_public": False,
            "lots_seed": 7,
        },
        "draw_order": [],
        "prize_split": [],
        "fees": [],
        "entrants": [],
        "rounds": [],
    }
    before = row_counts()
    response = _post(club, document)
    assert response.status_code == 409
    assert _errors(response) == [("exchange_event_open", "/event/status")]
    assert row_counts() == before


def test_too_large_and_not_json(club):
    document = small_night_document()
    document["night"]["name"] = "x" * (MAX_BYTES + 1)
    response = _post(club, document)
    assert (response.status_code, response.json()["code"]) == (413, "body_too_large")
    response = club.client().post(
        f"/api/clubs/{club.club.slug}/imports/", b"{not json", content_type="application/json"
    )
    assert (response.status_code, response.json()["code"]) == (400, "parse_error")


def _paths(value, path=()):
    yield path
    if isinstance(value, dict):
        for key, item in value.items():
            yield from _paths(item, (*path, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from _paths(item, (*path, index))


def _set(document, path, value):
    target = document
    for part in path[:-1]:
        target = target[part]
    target[path[-1]] = value


WRONG_VALUES = [None, -1, 0, "", "x" * 300, [], {}, True, 10**20, 1.5, [None], {"a": None}]


@pytest.mark.slow
def test_malformed_documents_are_never_a_500(club):
    valid = with_game()
    statuses = set()
    for body in ([], "text", 5, None, {}, [valid], {"format": "jink-exchange"}):
        response = _post(club, json.loads(json.dumps(body)))
        statuses.add(response.status_code)
        assert response.status_code == 400, (body, response.content[:300])
    for path in list(_paths(valid))[1:]:
        for value in WRONG_VALUES:
            document = copy.deepcopy(valid)
            _set(document, path, value)
            before = row_counts()
            response = _post(club, document)
            statuses.add(response.status_code)
            assert response.status_code < 500, (path, value, response.content[:300])
            if response.status_code >= 300:
                assert response["Content-Type"] == "application/problem+json"
                assert row_counts() == before, (path, value)
    assert statuses <= {200, 201, 400, 409, 422}
