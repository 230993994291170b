"""A corrected file updates exactly what changed; a conflict is a 409 that stores nothing.

A hand corrected at the origin (``games.services.correct_hand``) and exported again corrects the
same hand in the importing club by the same service: only that game's version moves, and the
importing club's new settle-up version equals the origin's. A player renamed in the file is
renamed in the club. A game changed in the importing club since its import, two players of the
file matching one club player, or a game added to the file are conflicts: 409
``exchange_conflict`` listing each with its pointer, and no row written."""

from __future__ import annotations

import copy

import pytest
from django.test import TestCase

from clubs.models import Player
from exchange.models import ImportedNight
from games.models import Game
from games.services import correct_hand
from settlements.models import Night
from tests.exchange.helpers import (
    federation,
    game_versions,
    last_settle_up,
    night_games,
    played_night,
    row_counts,
)
from tests.exchange.test_round_trip import export_night
from tests.tournaments.play_helpers import build_event

pytestmark = pytest.mark.django_db


@pytest.fixture
def imported():
    home = build_event(players=4)
    night = played_night(home)
    document = export_night(home, night["id"])
    away = federation()
    answer = away.ok("post", f"/api/clubs/{away.club.slug}/imports/", document, status=201)
    return home, night, document, away, Night.objects.get(pk=answer["night"])


def _import(away, document, status=200):
    return away.call("post", f"/api/clubs/{away.club.slug}/imports/", document)


def _correct(event, game_id: int, record: dict) -> None:
    game = Game.objects.get(pk=game_id)
    with TestCase.captureOnCommitCallbacks(execute=True):
        correct_hand(
            game_id=game_id,
            number=1,
            user=event.world.users["organiser"],
            record=record,
            if_match=game.etag,
            organiser_entry=True,
        )


def test_a_corrected_hand_updates_exactly_its_game_and_the_settle_up(imported):
    home, night, document, away, there = imported
    first = document["games"][0]
    # At the hall, the first game's only hand is corrected: Bill took every trick, not Ann.
    _correct(home, first["id"], {**first["hands"][0]["record"], "trick_winners": [1] * 5})
    corrected = export_night(home, night["id"])
    assert corrected["games"][0]["winner_side"] == 1

    games = ImportedNight.objects.get(night=there).games
    before = game_versions()
    response = _import(away, corrected)
    assert response.status_code == 200, response.content
    assert (response.json()["outcome"], response.json()["summary"]["games"]) == (
        "updated",
        {"count": 3, "changed": 1},
    )
    after = game_versions()
    changed = {pk for pk in before if before[pk] != after[pk]}
    assert changed == {games[str(first["id"])]["game"]}
    assert night_games(there) == night_games(Night.objects.get(pk=night["id"]))
    here_version, here_lines, here_transfers = last_settle_up(Night.objects.get(pk=night["id"]))
    there_version, there_lines, there_transfers = last_settle_up(there)
    assert (there_version, there_lines, there_transfers) == (2, here_lines, here_transfers)
    assert here_version == 2

    # The corrected file again: unchanged.
    counts = row_counts()
    assert _import(away, corrected).json()["outcome"] == "unchanged"
    assert (row_counts(), game_versions()) == (counts, after)


def test_a_player_renamed_in_the_file_is_renamed_in_the_club(imported):
    home, night, document, away, there = imported
    renamed = copy.deepcopy(document)
    renamed["players"][0]["name"] = "Ann Byrne"
    source = renamed["players"][0]["id"]
    counts, versions = row_counts(), game_versions()
    answer = _import(away, renamed).json()
    assert (answer["outcome"], answer["summary"]["players"]) == (
        "updated",
        {"created": 0, "matched": 0, "renamed": 1},
    )
    assert (row_counts(), game_versions()) == (counts, versions)
    old_name = next(p["name"] for p in document["players"] if p["id"] == source)
    assert not Player.objects.filter(club=away.club, display_name=old_name).exists()
    assert Player.objects.filter(club=away.club, display_name="Ann Byrne").count() == 1


def _stored() -> tuple:
    return row_counts(), game_versions(), list(Player.objects.values_list("display_name"))


def test_a_game_changed_here_since_its_import_is_a_conflict_and_nothing_is_stored(imported):
    home, night, document, away, there = imported
    games = ImportedNight.objects.get(night=there).games
    local = games[str(document["games"][2]["id"])]["game"]
    record = {**document["games"][2]["hands"][0]["record"], "trick_winners": [0] * 5}
    _correct(away, local, record)
    renamed = copy.deepcopy(document)
    renamed["players"][0]["name"] = "Ann Byrne"
    stored = _stored()
    response = _import(away, renamed)
    assert response.status_code == 409, response.content
    body = response.json()
    assert body["code"] == "exchange_conflict"
    assert [(e["code"], e["pointer"]) for e in body["errors"]] == [
        ("exchange_changed_here", "/games/2")
    ]
    assert _stored() == stored


def test_a_game_added_missing_or_reseated_is_a_conflict(imported):
    home, night, document, away, there = imported
    changed = copy.deepcopy(document)
    added = copy.deepcopy(changed["games"][0])
    added["id"] = 10_000
    changed["games"] = [changed["games"][1], changed["games"][2], added]
    stored = _stored()
    response = _import(away, changed)
    assert response.status_code == 409
    assert sorted((e["code"], e["pointer"]) for e in response.json()["errors"]) == [
        ("exchange_game_added", "/games/2"),
        ("exchange_game_removed", "/games"),
    ]
    assert _stored() == stored

    # The first game's two players swapped seats: a stored game is not re-seated.
    reseated = copy.deepcopy(document)
    seats = reseated["games"][0]["seats"]
    seats[0]["player"], seats[1]["player"] = seats[1]["player"], seats[0]["player"]
    response = _import(away, reseated)
    assert response.status_code == 409
    assert [(e["code"], e["pointer"]) for e in response.json()["errors"]] == [
        ("exchange_game_reseated", "/games/0")
    ]
    assert _stored() == stored


def test_two_players_of_the_file_matching_one_club_player_is_a_conflict():
    home = build_event(players=4)
    night = played_night(home)
    document = export_night(home, night["id"])
    away = federation()
    # The federation's club has an "Ann" (tests.clubs.factories.build_world); the file names
    # two of its players so, in two spellings.
    document["players"][0]["name"] = "Ann"
    document["players"][1]["name"] = "ANN"
    stored = _stored()
    response = _import(away, document)
    assert response.status_code == 409, response.content
    assert [(e["code"], e["pointer"]) for e in response.json()["errors"]] == [
        ("exchange_player_ambiguous", "/players/1")
    ]
    assert _stored() == stored
    assert not ImportedNight.objects.exists()
