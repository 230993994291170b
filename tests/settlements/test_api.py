"""The settlements and webhooks API: a night opened, played, closed and settled; its versions
read; a transfer marked paid; bad input refused with problems; webhook endpoints and their log."""

from __future__ import annotations

import pytest

from tests.tournaments.play_helpers import build_event, win_game
from webhooks.delivery import publish_event

pytestmark = pytest.mark.django_db


def test_a_night_through_the_api():
    event = build_event(players=2)
    ann, bill = event.players
    night = event.ok(
        "post",
        f"/api/clubs/{event.club.slug}/nights/",
        {"name": "Friday", "entry_fee": "2.50", "prize_split": [100]},
        status=201,
    )
    assert {
        key: night[key] for key in ("name", "status", "entry_fee", "prize_split", "game_count")
    } == {
        "name": "Friday",
        "status": "open",
        "entry_fee": "2.50",
        "prize_split": [100],
        "game_count": 0,
    }
    game_id = event.ok(
        "post",
        f"/api/clubs/{event.club.slug}/games/",
        {
            "game": "25",
            "seats": [ann.pk, bill.pk],
            "first_dealer": 0,
            "stake": "0.20",
        },
        status=201,
        role="scorekeeper",
    )["id"]
    win_game(event, game_id, 0)
    fees = f"/api/nights/{night['id']}/fees/"
    marked = event.ok(
        "post", fees, {"player": ann.pk, "status": "cash"}, status=201, role="scorekeeper"
    )
    assert {key: marked[key] for key in ("player", "status", "amount")} == {
        "player": {"id": ann.pk, "name": "Player 01"},
        "status": "cash",
        "amount": "2.50",
    }
    closed = event.ok("post", f"/api/nights/{night['id']}/close/")
    assert (closed["status"], closed["game_count"]) == ("closed", 1)
    assert event.ok("get", f"/api/nights/{night['id']}/", role="player")["games"] == [game_id]

    (version,) = event.ok("get", f"/api/nights/{night['id']}/settlements/", role="player")
    assert (version["version"], version["rule"]) == (1, "pot")
    # Ann paid her fee in cash at the door (marked before the close, below); Bill owes his.
    assert version["lines"] == [
        {
            "player": None,
            "stakes": "0.00",
            "entry_fee": "0.00",
            "fee_status": None,
            "paid_at_door": "2.50",
            "prize": "0.00",
            "net": "0.00",
            "settled_before": "0.00",
            "difference": "-2.50",
        },
        {
            "player": ann.pk,
            "stakes": "0.40",
            "entry_fee": "2.50",
            "fee_status": "cash",
            "paid_at_door": "2.50",
            "prize": "5.00",
            "net": "2.90",
            "settled_before": "0.00",
            "difference": "5.40",
        },
        {
            "player": bill.pk,
            "stakes": "-0.40",
            "entry_fee": "2.50",
            "fee_status": "owed",
            "paid_at_door": "0.00",
            "prize": "0.00",
            "net": "-2.90",
            "settled_before": "0.00",
            "difference": "-2.90",
        },
    ]
    assert version["prize_rule"] == ["First place: 100% of the €5.00 pot, €5.00 (Player 01)"]
    assert version["changes"] == []
    # Payer then payee by name, the club first.
    assert [
        (row["payer"]["name"], row["payee"]["name"], row["amount"], row["kind"], row["status"])
        for row in version["transfers"]
    ] == [
        ("The club", "Player 01", "5.00", "pot", "open"),
        ("Player 02", "The club", "2.50", "pot", "open"),
        ("Player 02", "Player 01", "0.40", "stakes", "open"),
    ]
    transfer = version["transfers"][2]
    paid = event.ok("post", f"/api/transfers/{transfer['id']}/paid/")
    assert (paid["paid_by"], paid["paid_at"] is not None, paid["status"]) == (
        "the-local-organiser",
        True,
        "paid",
    )


@pytest.mark.parametrize(
    "body, code, pointer",
    [
        ({"entry_fee": "2.555"}, "invalid_amount", "/entry_fee"),
        ({"prize_split": [50, 60]}, "invalid_prize_split", "/prize_split"),
        ({"colour": "red"}, "unknown_field", "/colour"),
    ],
)
def test_opening_a_night_refuses_bad_input(body, code, pointer):
    event = build_event(players=2)
    response = event.call("post", f"/api/clubs/{event.club.slug}/nights/", body)
    assert response.status_code == 400
    (error,) = response.json()["errors"]
    assert (error["code"], error["pointer"]) == (code, pointer)
    assert event.ok("get", f"/api/clubs/{event.club.slug}/nights/") == []


@pytest.mark.parametrize(
    "body, status, code, pointer",
    [
        ({"player": "ANN", "status": "cash"}, 409, "fee_already_marked", "/player"),  # twice
        ({"player": "ANN", "status": "owed"}, 409, "fee_already_marked", "/player"),
        ({"player": "BILL", "status": "cash", "amount": "-1.00"}, 400, "invalid_amount", "/amount"),
        ({"player": "BILL", "status": "cash", "amount": "five"}, 400, "invalid_amount", "/amount"),
        ({"player": "BILL", "status": "gold"}, 400, "invalid_fee_status", "/status"),
        ({"player": 999999, "status": "cash"}, 400, "not_entered", "/player"),
    ],
)
def test_marking_a_fee_refuses_bad_input_and_stores_nothing(body, status, code, pointer):
    event = build_event(players=2)
    ann, bill = event.players
    night = event.ok(
        "post",
        f"/api/clubs/{event.club.slug}/nights/",
        {"name": "Friday", "entry_fee": "2.50"},
        status=201,
    )
    url = f"/api/nights/{night['id']}/fees/"
    event.ok("post", url, {"player": ann.pk, "status": "cash"}, status=201)
    body = {**body, "player": {"ANN": ann.pk, "BILL": bill.pk}.get(body["player"], body["player"])}
    response = event.call("post", url, body)
    assert response.status_code == status
    (error,) = response.json()["errors"]
    assert (error["code"], error["pointer"]) == (code, pointer)
    assert [
        (row["player"]["id"], row["status"], row["amount"]) for row in event.ok("get", url)
    ] == [(ann.pk, "cash", "2.50")]


def test_a_prize_split_over_100_is_refused_and_nothing_stored():
    event = build_event(players=2)
    night = event.ok(
        "post", f"/api/clubs/{event.club.slug}/nights/", {"name": "Friday"}, status=201
    )
    url = f"/api/nights/{night['id']}/prize-split/"
    event.ok("put", url, {"percentages": [60, 40]})
    response = event.call("put", url, {"percentages": [60, 30, 20]})
    assert response.status_code == 400
    (error,) = response.json()["errors"]
    assert (error["code"], error["pointer"]) == ("invalid_prize_split", "/percentages")
    assert event.ok("get", f"/api/nights/{night['id']}/")["prize_split"] == [60, 40]


def test_the_club_chooses_to_settle_everything_between_players():
    event = build_event(players=2)
    url = f"/api/clubs/{event.club.slug}/settle-up-rule/"
    assert event.ok("get", url, role="player") == {"between_players": False}
    assert event.call("put", url, {"between_players": True}, role="player").status_code == 403
    assert event.ok("put", url, {"between_players": True}) == {"between_players": True}
    night = event.ok(
        "post",
        f"/api/clubs/{event.club.slug}/nights/",
        {"name": "Friday", "entry_fee": "2.50"},
        status=201,
    )
    refused = event.call(
        "post",
        f"/api/nights/{night['id']}/fees/",
        {"player": event.players[0].pk, "status": "cash"},
    )
    assert (refused.status_code, refused.json()["errors"][0]["code"]) == (409, "no_pot")


def test_a_tournament_prize_split_is_set_and_removed():
    event = build_event(players=2)
    tournament_id = event.create_tournament(name="Cup", game="25", format="knockout")["id"]
    url = f"/api/tournaments/{tournament_id}/prize-split/"
    assert event.ok("put", url, {"percentages": [70, 30]}) == {"percentages": [70, 30]}
    assert event.ok("put", url, {"percentages": []}) == {"percentages": []}
    assert event.ok("get", f"/api/tournaments/{tournament_id}/settlements/") == []


def test_webhook_endpoints_and_their_delivery_log(settings):
    settings.JINK_WEBHOOKS_ALLOW_LOOPBACK_HTTP = False
    event = build_event(players=2)
    base = f"/api/clubs/{event.club.slug}/webhooks/"
    refused = event.call(
        "post", base, {"url": "http://127.0.0.1:9/hook", "events": ["game.finished"]}
    )
    assert (refused.status_code, refused.json()["errors"][0]["code"]) == (400, "invalid_url")
    unknown = event.call("post", base, {"url": "https://example.org/hook", "events": ["game.won"]})
    assert unknown.json()["errors"][0]["pointer"] == "/events/0"
    created = event.ok(
        "post",
        base,
        {"url": "https://example.org/hook", "events": ["settlement.ready", "game.finished"]},
        status=201,
    )
    assert len(created["secret"]) == 64
    assert created["events"] == ["game.finished", "settlement.ready"]
    (listed,) = event.ok("get", base)
    assert "secret" not in listed
    # An event is stored for the endpoint before any attempt (the attempt runs after the
    # commit: here, where nothing commits, it has not run).
    (delivery_id,) = publish_event(
        club_id=event.club.pk, event_type="game.finished", data={"game": 1}
    )
    log = event.ok("get", f"/api/webhooks/{created['id']}/deliveries/")["results"]
    assert [(row["id"], row["status"], row["attempts"]) for row in log] == [
        (delivery_id, "pending", 0),
    ]
    event.ok("delete", f"/api/webhooks/{created['id']}/", status=204)
    assert publish_event(club_id=event.club.pk, event_type="game.finished", data={}) == []
