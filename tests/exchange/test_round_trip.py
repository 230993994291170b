"""The exchange round trip through the API: a night played in one club, exported
(``GET /api/nights/{id}/exchange/``), checked against docs/exchange.schema.json, imported into a
second club (``POST /api/clubs/{slug}/imports/``): the same games, hands, tables and settle-up;
imported again, nothing changes ("unchanged": the same rows and versions)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from django.conf import settings
from jsonschema import Draft202012Validator

from exchange.models import ImportRecord
from settlements.models import Night
from tests.exchange.helpers import (
    federation,
    game_versions,
    last_settle_up,
    night_games,
    played_night,
    row_counts,
)
from tests.tournaments.play_helpers import build_event, win_match

pytestmark = pytest.mark.django_db

SCHEMA = json.loads((Path(settings.BASE_DIR) / "docs" / "exchange.schema.json").read_text())


def export_night(event, night_id: int) -> dict:
    response = event.call("get", f"/api/nights/{night_id}/exchange/")
    assert response.status_code == 200, response.content[:500]
    assert response["Content-Disposition"] == (
        f'attachment; filename="{event.club.slug}-night-{night_id}.exchange.json"'
    )
    return response.json()


def test_a_night_round_trip_and_the_same_file_twice():
    home = build_event(players=4)
    night = played_night(home)
    document = export_night(home, night["id"])
    Draft202012Validator(SCHEMA).validate(document)
    assert (document["format"], document["version"], document["origin"]["kind"]) == (
        "jink-exchange",
        1,
        "night",
    )
    assert [(game["table"], len(game["seats"])) for game in document["games"]] == [
        (1, 2),
        (1, 4),
        (2, 2),
    ]

    away = federation()
    imported = away.ok("post", f"/api/clubs/{away.club.slug}/imports/", document, status=201)
    assert imported["outcome"] == "created"
    assert imported["summary"]["players"] == {"created": 4, "matched": 0, "renamed": 0}
    there = Night.objects.get(pk=imported["night"])
    here = Night.objects.get(pk=night["id"])
    assert (there.club, there.name, there.status) == (away.club, "Friday drive", "closed")
    assert night_games(there) == night_games(here)
    assert last_settle_up(there) == last_settle_up(here)

    counts, versions = row_counts(), game_versions()
    again = away.ok("post", f"/api/clubs/{away.club.slug}/imports/", document, status=200)
    assert (again["outcome"], again["night"]) == ("unchanged", there.pk)
    assert (row_counts(), game_versions()) == (counts, versions)
    # A fresh export of the same night (another exported_at) is the same night too.
    fresh = export_night(home, night["id"])
    assert away.ok("post", f"/api/clubs/{away.club.slug}/imports/", fresh)["outcome"] == "unchanged"
    assert (row_counts(), game_versions()) == (counts, versions)
    assert list(
        ImportRecord.objects.filter(club=away.club).order_by("id").values_list("outcome", flat=True)
    ) == ["created", "unchanged", "unchanged"]


def test_an_event_exports_as_a_valid_exchange_document():
    home = build_event(players=2)
    tournament = home.create_tournament(
        name="Cup",
        game="25",
        format="knockout",
        entrants=[{"player": player.pk} for player in home.players],
    )
    (match,) = home.draw(tournament["id"])["matches"]
    win_match(home, tournament["id"], match["id"], 0)
    home.ok("post", f"/api/tournaments/{tournament['id']}/close/")
    response = home.call("get", f"/api/tournaments/{tournament['id']}/exchange/")
    assert response.status_code == 200, response.content[:500]
    document = response.json()
    Draft202012Validator(SCHEMA).validate(document)
    assert (document["origin"]["kind"], document["night"], document["event"]["name"]) == (
        "event",
        None,
        "Cup",
    )
    in_rounds = sorted(
        game_id
        for round_ in document["event"]["rounds"]
        for match in round_["matches"]
        for game_id in match["games"]
    )
    assert sorted(game["id"] for game in document["games"]) == in_rounds
    assert in_rounds and all(game["status"] == "finished" for game in document["games"])
    assert [row["place"] for row in document["standings"]] == [1, 2]
    assert len(document["settle_up"]["versions"]) == 1
    assert {entrant["player"] for entrant in document["event"]["entrants"]} == {
        player["id"] for player in document["players"]
    }
    # Imported into another club: a tournament (tests/exchange/test_events.py for the rest).
    away = federation()
    imported = away.ok("post", f"/api/clubs/{away.club.slug}/imports/", document, status=201)
    assert (imported["outcome"], imported["night"]) == ("created", None)
    assert imported["event"] is not None
