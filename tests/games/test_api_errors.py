"""Bad input to the games API: each refusal has its status, code and pointer, and stores nothing.

Every test takes a snapshot of all games tables (history and idempotency keys included) before the
refused request and compares it after.
"""

from __future__ import annotations

import pytest

from clubs.models import Player
from tests.clubs.factories import make_club, make_player, make_team
from tests.games.helpers_db import database_snapshot

PLAIN_TRICKS = [
    ["KH", "QH", "JH", "10H"],
    ["KD", "QD", "JD", "10D"],
    ["9H", "8H", "7H", "6H"],
    ["9D", "8D", "7D", "6D"],
    ["5H", "4H", "3H", "2H"],
]


def refused(response, status: int, code: str, pointer: str | None):
    assert response.status_code == status, response.content
    assert response["Content-Type"] == "application/problem+json"
    body = response.json()
    assert body["status"] == status
    assert code in [error["code"] for error in body["errors"]], body
    if pointer is not None:
        assert pointer in [error["pointer"] for error in body["errors"]], body
    return body


# Creating a game -------------------------------------------------------------------------------


def _seats(table, count=4):
    return table.player_ids(count)


CREATE_CASES = {
    "unknown game": (lambda t: {"game": "99", "seats": _seats(t)}, 400, "invalid_game", "/game"),
    "unknown field": (
        lambda t: {"game": "25", "sates": _seats(t), "seats": _seats(t)},
        400,
        "unknown_field",
        "/sates",
    ),
    "no seats": (lambda t: {"game": "25", "seats": []}, 400, "empty", "/seats"),
    "player of no club": (
        lambda t: {"game": "25", "seats": [*_seats(t, 3), 999_999]},
        400,
        "unknown_player",
        "/seats/3",
    ),
    "player seated twice": (
        lambda t: {"game": "25", "seats": [*_seats(t, 3), _seats(t, 1)[0]]},
        400,
        "duplicate_player",
        "/seats/3",
    ),
    "partners next to each other": (
        lambda t: {"game": "25", "seats": _seats(t), "teams": [[0, 1], [2, 3]]},
        400,
        "invalid_seating",
        "/teams/0",
    ),
    "a seat in no team": (
        lambda t: {"game": "25", "seats": _seats(t), "teams": [[0, 2], [1]]},
        400,
        "invalid_seating",
        "/teams",
    ),
    "a team naming a seat that does not exist": (
        lambda t: {"game": "25", "seats": _seats(t), "teams": [[0, 2], [1, 7]]},
        400,
        "invalid_seating",
        "/teams/1/1",
    ),
    "45 for five": (lambda t: {"game": "45", "seats": _seats(t, 5)}, 400, "invalid_seating", None),
    "first dealer out of range": (
        lambda t: {"game": "25", "seats": _seats(t), "first_dealer": 4},
        400,
        "invalid_seat",
        "/first_dealer",
    ),
    "house rule out of range": (
        lambda t: {"game": "25", "seats": _seats(t), "house_rules": {"target": 0}},
        400,
        "invalid_house_rule",
        "/house_rules/target",
    ),
    "unknown house rule": (
        lambda t: {"game": "25", "seats": _seats(t), "house_rules": {"colour": "red"}},
        400,
        "invalid_house_rule",
        "/house_rules/colour",
    ),
    "house rule of another game": (
        lambda t: {"game": "25", "seats": _seats(t), "house_rules": {"kitty": 3}},
        400,
        "invalid_house_rule",
        "/house_rules/kitty",
    ),
    "stake finer than a cent": (
        lambda t: {"game": "25", "seats": _seats(t), "stake": "0.205"},
        400,
        "invalid_stake",
        "/stake",
    ),
    "stake not a number": (
        lambda t: {"game": "25", "seats": _seats(t), "stake": "a lot"},
        400,
        "invalid_stake",
        "/stake",
    ),
    "negative stake": (
        lambda t: {"game": "25", "seats": _seats(t), "stake": "-0.20"},
        400,
        "invalid_stake",
        "/stake",
    ),
    "stake as a JSON number": (
        lambda t: {"game": "25", "seats": _seats(t), "stake": 0.2},
        400,
        "invalid",
        "/stake",
    ),
    "stake too large to store": (
        lambda t: {"game": "25", "seats": _seats(t), "stake": "1e30"},
        400,
        "invalid_stake",
        "/stake",
    ),
    "stake overflowing a decimal": (
        lambda t: {"game": "25", "seats": _seats(t), "stake": "1e999999999"},
        400,
        "invalid_stake",
        "/stake",
    ),
    "empty list of teams": (
        lambda t: {"game": "25", "seats": _seats(t), "teams": []},
        400,
        "empty",
        "/teams",
    ),
    "team of no club": (
        lambda t: {
            "game": "25",
            "seats": _seats(t),
            "teams": [{"seats": [0, 2], "team": 999}, [1, 3]],
        },
        400,
        "invalid_team",
        "/teams/0/team",
    ),
    "team that is not the side's players": (
        # The world's team is players 0 and 1 (Ann and Bill); side 0 seats players 0 and 2.
        lambda t: {
            "game": "25",
            "seats": _seats(t),
            "teams": [{"seats": [0, 2], "team": t.world.team.pk}, [1, 3]],
        },
        400,
        "team_mismatch",
        "/teams/0/team",
    ),
    "malformed team": (
        lambda t: {"game": "25", "seats": _seats(t), "teams": ["0 and 2", [1, 3]]},
        400,
        "invalid",
        "/teams/0",
    ),
    "tournament match of no club": (
        lambda t: {"game": "25", "seats": _seats(t), "tournament_match": 999},
        400,
        "invalid_tournament_match",
        "/tournament_match",
    ),
}


@pytest.mark.django_db
@pytest.mark.parametrize("case", list(CREATE_CASES))
def test_create_game_refused(table, case):
    build_body, status, code, pointer = CREATE_CASES[case]
    body = build_body(table)
    before = database_snapshot()
    response = table.client().post(f"/api/clubs/{table.club.slug}/games/", body, format="json")
    refused(response, status, code, pointer)
    assert database_snapshot() == before


@pytest.mark.django_db
def test_players_of_another_club_and_inactive_players_are_refused_at_their_seats(table):
    other_club = make_club("elsewhere")
    stranger = make_player(other_club, "Stranger")
    retired = table.players[3]
    Player.objects.filter(pk=retired.pk).update(is_active=False)
    body = {"game": "25", "seats": [*table.player_ids(2), stranger.pk, retired.pk]}
    before = database_snapshot()
    response = table.client().post(f"/api/clubs/{table.club.slug}/games/", body, format="json")
    problem = refused(response, 400, "unknown_player", "/seats/2")
    assert problem["errors"][1] == {
        "code": "inactive_player",
        "detail": f"Player {retired.pk} (Dan) is no longer active.",
        "pointer": "/seats/3",
    }
    assert database_snapshot() == before


@pytest.mark.django_db
def test_a_matching_team_is_stored_on_its_side(table):
    pair = make_team(table.club, "Cait and Eve", [table.players[2], table.players[4]])
    seats = [table.players[index].pk for index in (2, 0, 4, 1)]
    game = table.new_game("25", seats, teams=[{"seats": [0, 2], "team": pair.pk}, [1, 3]])
    assert game["sides"] == [
        {
            "index": 0,
            "seats": [0, 2],
            "players": [table.players[2].pk, table.players[4].pk],
            "team": {"id": pair.pk, "name": "Cait and Eve"},
        },
        {
            "index": 1,
            "seats": [1, 3],
            "players": [table.players[0].pk, table.players[1].pk],
            "team": None,
        },
    ]


# Recording a hand ------------------------------------------------------------------------------


@pytest.fixture
def game_25(table):
    """2 v 2 game of 25, seat 3 deals first."""
    return table.new_game("25", 4, teams=[[0, 2], [1, 3]], first_dealer=3)


HAND_CASES = {
    "wrong dealer": (
        {"dealer": 0, "trump": "S", "trick_winners": [0, 1, 1, 2, 2]},
        400,
        "wrong_dealer",
        "/dealer",
    ),
    "seat that does not exist": (
        {"dealer": 3, "trump": "S", "trick_winners": [0, 1, 9, 2, 2]},
        400,
        "invalid_seat",
        "/trick_winners/2",
    ),
    "not a suit": (
        {"dealer": 3, "trump": "X", "trick_winners": [0, 1, 1, 2, 2]},
        400,
        "invalid_trump",
        "/trump",
    ),
    "unknown field": (
        {"dealer": 3, "trump": "S", "trick_winners": [0, 1, 1, 2, 2], "colour": 1},
        400,
        "invalid_record",
        "/colour",
    ),
    "too few tricks": (
        {"dealer": 3, "trump": "S", "trick_winners": [0, 1, 1, 2]},
        400,
        "wrong_trick_count",
        "/trick_winners",
    ),
    "not a card": (
        {"dealer": 3, "turn_up": "2S", "tricks": [["KH", "QH", "XX", "10H"], *PLAIN_TRICKS[1:]]},
        400,
        "invalid_card",
        "/tricks/0/2",
    ),
    "a card twice": (
        {
            "dealer": 3,
            "turn_up": "2S",
            "tricks": [PLAIN_TRICKS[0], ["KD", "QD", "JD", "KH"], *PLAIN_TRICKS[2:]],
        },
        400,
        "duplicate_card",
        "/tricks/1/3",
    ),
    "a discard while holding the suit led": (
        {
            "dealer": 3,
            "turn_up": "2S",
            "tricks": [["KH", "QH", "JH", "KD"], ["10H", "QD", "JD", "10D"], *PLAIN_TRICKS[2:]],
        },
        400,
        "illegal_play",
        "/tricks/0/3",
    ),
    "a rob without the ace": (
        {"dealer": 3, "turn_up": "2S", "rob": {"seat": 1, "discard": "QH"}, "tricks": PLAIN_TRICKS},
        400,
        "illegal_rob",
        "/rob/seat",
    ),
    "trick 1 led by the wrong seat": (
        {
            "dealer": 3,
            "turn_up": "2S",
            "tricks": [{"leader": 1, "cards": PLAIN_TRICKS[0]}, *PLAIN_TRICKS[1:]],
        },
        400,
        "wrong_leader",
        "/tricks/0/leader",
    ),
    "a seat dealt four cards": (
        {
            "dealer": 3,
            "turn_up": "2S",
            "deal": [
                ["KH", "KD", "9H", "9D"],
                ["QH", "QD", "8H", "8D", "4H"],
                ["JH", "JD", "7H", "7D", "3H"],
                ["10H", "10D", "6H", "6D", "2H"],
            ],
            "tricks": PLAIN_TRICKS[:4],
        },
        400,
        "wrong_card_count",
        "/deal/0",
    ),
    "no play at all": ({"dealer": 3}, 400, "invalid_record", ""),
    "hand number zero": (
        {"number": 0, "dealer": 3, "trump": "S", "trick_winners": [0, 1, 1, 2, 2]},
        400,
        "invalid_record",
        "/number",
    ),
    "hand number ahead": (
        {"number": 2, "dealer": 3, "trump": "S", "trick_winners": [0, 1, 1, 2, 2]},
        409,
        "hand_out_of_sequence",
        "/number",
    ),
}


@pytest.mark.django_db
@pytest.mark.parametrize("case", list(HAND_CASES))
def test_hand_refused(table, game_25, case):
    record, status, code, pointer = HAND_CASES[case]
    before = database_snapshot()
    response = table.post_hand(game_25["id"], record)
    refused(response, status, code, pointer)
    assert database_snapshot() == before


@pytest.mark.django_db
def test_a_hand_that_is_not_an_object_is_refused(table, game_25):
    before = database_snapshot()
    response = table.client().post(f"/api/games/{game_25['id']}/hands/", [1, 2], format="json")
    refused(response, 400, "invalid_record", "")
    response = table.client().post(
        f"/api/games/{game_25['id']}/hands/", "{not json", content_type="application/json"
    )
    refused(response, 400, "parse_error", None)
    assert database_snapshot() == before


@pytest.mark.django_db
def test_bidding_errors(table):
    game = table.new_game("110", 3, first_dealer=0)
    before = database_snapshot()
    response = table.post_hand(
        game["id"],
        {
            "dealer": 0,
            "trump": "S",
            "bid": {"seat": 1, "amount": 17},
            "trick_winners": [1, 1, 1, 1, 1],
            "best_trump": None,
        },
    )
    problem = refused(response, 400, "illegal_bid", "/bid/amount")
    assert problem["detail"] == "seat 1 bid 17: the bids are 10, 15, 20, 25, 60"
    response = table.post_hand(
        game["id"],
        {
            "dealer": 0,
            "trump": "S",
            "bid": {"seat": 1, "amount": 20},
            "trick_winners": [1, 1, 1, 1, 1],
            "best_trump": {"seat": 2, "trick": 0},
        },
    )
    refused(response, 400, "best_trump_mismatch", "/best_trump/seat")
    assert database_snapshot() == before


@pytest.mark.django_db
def test_a_taken_hand_number_is_a_conflict_carrying_the_stored_hand(table, game_25):
    first = table.post_hand(
        game_25["id"], {"number": 1, "dealer": 3, "trump": "S", "trick_winners": [0, 1, 1, 2, 2]}
    )
    assert first.status_code == 201
    before = database_snapshot()
    # Another tablet believed it was recording hand 1 too.
    response = table.post_hand(
        game_25["id"], {"number": 1, "dealer": 3, "trump": "H", "trick_winners": [1, 1, 1, 2, 2]}
    )
    problem = refused(response, 409, "hand_conflict", "/number")
    assert problem["hand"]["number"] == 1
    assert problem["hand"]["record"] == {
        "dealer": 3,
        "trump": "S",
        "trick_winners": [0, 1, 1, 2, 2],
    }
    assert problem["hand"]["totals"] == {"0": 15, "1": 10}
    assert database_snapshot() == before


@pytest.mark.django_db
def test_nobody_but_scorers_records_and_other_clubs_do_not_see_the_game(table, game_25):
    record = {"dealer": 3, "trump": "S", "trick_winners": [0, 1, 1, 2, 2]}
    before = database_snapshot()
    assert table.post_hand(game_25["id"], record, role="player").status_code == 403
    assert table.post_hand(game_25["id"], record, role="outsider").status_code == 404
    assert table.post_hand(game_25["id"], record, role="anonymous").status_code == 401
    assert table.client("outsider").get(f"/api/games/{game_25['id']}/").status_code == 404
    assert table.client("player").get(f"/api/games/{game_25['id']}/").status_code == 200
    assert table.client().get("/api/games/999999/").status_code == 404
    assert database_snapshot() == before
