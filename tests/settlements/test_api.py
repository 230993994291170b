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
    night = event.ok("post", f"/api/clubs/{event.club.slug}/nights/",
                     {"name": "Friday", "entry_fee": "2.50", "prize_split": [100]}, status=201)
    assert {key: night[key] for key in ("name", "status", "entry_fee", "prize_split",
                                        "game_count")} == {
        "name": "Friday", "status": "open", "entry_fee": "2.50", "prize_split": [100],
        "game_count": 0,
    }
    game_id = event.ok("post", f"/api/clubs/{event.club.slug}/games/", {
        "game": "25", "seats": [ann.pk, bill.pk], "first_dealer": 0, "stake": "0.20",
    }, status=201, role="scorekeeper")["id"]
    win_game(event, game_id, 0)
    closed = event.ok("post", f"/api/nights/{night['id']}/close/")
    assert (closed["status"], closed["game_count"]) == ("closed", 1)
    assert event.ok("get", f"/api/nights/{night['id']}/", role="player")["games"] == [game_id]

    (version,) = event.ok("get", f"/api/nights/{night['id']}/settlements/", role="player")
    assert version["version"] == 1
    assert version["lines"] == [
        {"player": ann.pk, "stakes": "0.40", "entry_fee": "2.50", "prize": "5.00",
         "net": "2.90", "settled_before": "0.00", "difference": "2.90"},
        {"player": bill.pk, "stakes": "-0.40", "entry_fee": "2.50", "prize": "0.00",
         "net": "-2.90", "settled_before": "0.00", "difference": "-2.90"},
    ]
    (transfer,) = version["transfers"]
    assert {key: transfer[key] for key in ("payer", "payee", "amount", "paid_at")} == {
        "payer": {"id": bill.pk, "name": "Player 02"},
        "payee": {"id": ann.pk, "name": "Player 01"}, "amount": "2.90", "paid_at": None,
    }
    paid = event.ok("post", f"/api/transfers/{transfer['id']}/paid/")
    assert (paid["paid_by"], paid["paid_at"] is not None) == ("the-local-organiser", True)


@pytest.mark.parametrize("body, code, pointer", [
    ({"entry_fee": "2.555"}, "invalid_amount", "/entry_fee"),
    ({"prize_split": [50, 60]}, "invalid_prize_split", "/prize_split"),
    ({"colour": "red"}, "unknown_field", "/colour"),
])
def test_opening_a_night_refuses_bad_input(body, code, pointer):
    event = build_event(players=2)
    response = event.call("post", f"/api/clubs/{event.club.slug}/nights/", body)
    assert response.status_code == 400
    (error,) = response.json()["errors"]
    assert (error["code"], error["pointer"]) == (code, pointer)
    assert event.ok("get", f"/api/clubs/{event.club.slug}/nights/") == []


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
    refused = event.call("post", base, {"url": "http://127.0.0.1:9/hook",
                                        "events": ["game.finished"]})
    assert (refused.status_code, refused.json()["errors"][0]["code"]) == (400, "invalid_url")
    unknown = event.call("post", base, {"url": "https://example.org/hook",
                                        "events": ["game.won"]})
    assert unknown.json()["errors"][0]["pointer"] == "/events/0"
    created = event.ok("post", base, {"url": "https://example.org/hook",
                                      "events": ["settlement.ready", "game.finished"]},
                       status=201)
    assert len(created["secret"]) == 64
    assert created["events"] == ["game.finished", "settlement.ready"]
    (listed,) = event.ok("get", base)
    assert "secret" not in listed
    # An event is stored for the endpoint before any attempt (the attempt runs after the
    # commit: here, where nothing commits, it has not run).
    (delivery_id,) = publish_event(club_id=event.club.pk, event_type="game.finished",
                                   data={"game": 1})
    log = event.ok("get", f"/api/webhooks/{created['id']}/deliveries/")["results"]
    assert [(row["id"], row["status"], row["attempts"]) for row in log] == [
        (delivery_id, "pending", 0),
    ]
    event.ok("delete", f"/api/webhooks/{created['id']}/", status=204)
    assert publish_event(club_id=event.club.pk, event_type="game.finished", data={}) == []
