"""The exchange round trip of an event (a tournament): a knockout of four with a third-place
match, a best-of-three final, a prize split, an entry fee taken at the door and a stake, played
through the API in one club, exported (``GET /api/tournaments/{id}/exchange/``), checked against
docs/exchange.schema.json and imported into a second club (``POST /api/clubs/{slug}/imports/``):
the same draw, games, hands, standings, places and settle-up. Imported again: unchanged (the
same rows). A corrected hand updates exactly that game; a redrawn match, a team of other
players, a match the games do not decide and garbage are refused, nothing stored."""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest
from django.conf import settings
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import TestCase
from jsonschema import Draft202012Validator

from clubs.models import Player, Team
from exchange.models import ImportedEvent, ImportRecord
from games.models import Game
from tests.exchange.helpers import (
    draw_of,
    federation,
    game_versions,
    played_cup,
    row_counts,
    settle_up_of,
)
from tests.helpers import logged_in_client
from tests.tournaments.play_helpers import build_event
from tournaments.models import Entrant, Match, MatchEntrant, Round, Tournament

pytestmark = pytest.mark.django_db

SCHEMA = json.loads((Path(settings.BASE_DIR) / "docs" / "exchange.schema.json").read_text())


def event_rows() -> dict:
    return {
        **row_counts(),
        **{
            model.__name__: model.objects.count()
            for model in (Tournament, Entrant, Round, Match, MatchEntrant, Team, ImportedEvent)
        },
    }


def export_event(event, tournament_id: int) -> dict:
    response = event.call("get", f"/api/tournaments/{tournament_id}/exchange/")
    assert response.status_code == 200, response.content[:500]
    return response.json()


def import_file(club, document, status: int | None = None):
    response = club.call("post", f"/api/clubs/{club.club.slug}/imports/", document)
    if status is not None:
        assert response.status_code == status, response.content[:2000]
    return response


def standings_of(event, tournament_id: int) -> list:
    return [
        (
            row["rank"],
            row.get("place"),
            row["entrant"]["name"],
            row["match_wins"],
            row["points_for"],
            row["tricks_won"],
        )
        for row in event.standings(tournament_id)
    ]


@pytest.fixture
def cup():
    home = build_event(players=4)
    tournament_id = played_cup(home)
    return home, tournament_id, export_event(home, tournament_id)


def test_an_event_round_trip_and_the_same_file_twice(cup):
    home, tournament_id, document = cup
    Draft202012Validator(SCHEMA).validate(document)
    assert (document["origin"]["kind"], document["night"], document["event"]["name"]) == (
        "event",
        None,
        "Winter cup",
    )
    assert document["event"]["settings"]["third_place_match"] is True
    assert [match["is_third_place"] for match in document["event"]["rounds"][1]["matches"]].count(
        True
    ) == 1

    away = federation()
    imported = import_file(away, document, status=201).json()
    assert (imported["outcome"], imported["night"]) == ("created", None)
    assert imported["summary"]["players"] == {"created": 4, "matched": 0, "renamed": 0}
    there = Tournament.objects.get(pk=imported["event"])
    here = Tournament.objects.get(pk=tournament_id)
    assert (there.club, there.name, there.status, there.format, there.third_place_match) == (
        away.club,
        "Winter cup",
        "closed",
        "knockout",
        True,
    )
    assert (there.stake_minor, there.entry_fee_minor, there.lots_seed) == (
        here.stake_minor,
        here.entry_fee_minor,
        here.lots_seed,
    )
    assert draw_of(there) == draw_of(here)
    assert standings_of(away, there.pk) == standings_of(home, here.pk)
    assert [row[1] for row in standings_of(away, there.pk)] == [1, 2, 3, 4]
    assert settle_up_of(there.pk) == settle_up_of(here.pk)
    assert settle_up_of(there.pk)[0] == 1

    counts, versions = event_rows(), game_versions()
    again = import_file(away, document, status=200).json()
    assert (again["outcome"], again["event"]) == ("unchanged", there.pk)
    assert (event_rows(), game_versions()) == (counts, versions)
    fresh = export_event(home, tournament_id)
    assert import_file(away, fresh, status=200).json()["outcome"] == "unchanged"
    assert (event_rows(), game_versions()) == (counts, versions)
    assert list(
        ImportRecord.objects.filter(club=away.club).order_by("id").values_list("outcome", flat=True)
    ) == ["created", "unchanged", "unchanged"]


def test_a_corrected_hand_updates_the_game_and_the_settle_up(cup):
    home, tournament_id, document = cup
    away = federation()
    tournament = import_file(away, document, status=201).json()["event"]
    # At the origin, the final's last hand is corrected: the loser took no trick in it.
    (index,) = [i for i, game in enumerate(document["games"]) if len(game["hands"]) == 2]
    game = document["games"][index]
    record = game["hands"][1]["record"]
    record = {**record, "trick_winners": [record["trick_winners"][0]] * 3}
    etag = Game.objects.get(pk=game["id"]).etag
    url = f"/api/games/{game['id']}/hands/2/"
    response = home.call("put", url, record, **{"If-Match": etag})
    assert response.status_code == 200, response.content[:500]
    corrected = export_event(home, tournament_id)
    assert (game["totals"][game["winner_side"]], corrected["games"][index]["winner_side"]) == (
        25,
        game["winner_side"],
    )
    assert sorted(corrected["games"][index]["totals"]) == [15, 25]
    assert sorted(game["totals"]) == [20, 25]

    versions = game_versions()
    updated = import_file(away, corrected, status=200).json()
    assert (updated["outcome"], updated["summary"]["games"]["changed"]) == ("updated", 1)
    changed = {pk for pk, version in game_versions().items() if versions.get(pk) != version}
    (local,) = changed
    assert Game.objects.get(pk=local).totals == corrected["games"][index]["totals"]
    assert standings_of(away, tournament) == standings_of(home, tournament_id)
    assert draw_of(Tournament.objects.get(pk=tournament)) == draw_of(
        Tournament.objects.get(pk=tournament_id)
    )
    assert settle_up_of(tournament) == settle_up_of(tournament_id)
    # Imported again: nothing more changes.
    counts, versions = event_rows(), game_versions()
    assert import_file(away, corrected, status=200).json()["outcome"] == "unchanged"
    assert (event_rows(), game_versions()) == (counts, versions)


def test_a_redrawn_match_is_a_conflict_and_nothing_is_stored(cup):
    _, _, document = cup
    away = federation()
    import_file(away, document, status=201)
    redrawn = copy.deepcopy(document)
    first = redrawn["event"]["rounds"][0]["matches"][0]
    first["entrants"] = list(reversed(first["entrants"]))
    before, versions = event_rows(), game_versions()
    response = import_file(away, redrawn, status=409)
    assert response.json()["code"] == "exchange_conflict"
    assert [(error["code"], error["pointer"]) for error in response.json()["errors"]] == [
        ("exchange_event_redrawn", "/event/rounds/0/matches/0")
    ]
    assert (event_rows(), game_versions()) == (before, versions)


def test_a_team_of_other_players_is_a_conflict():
    home = build_event(players=0, teams=4)
    tournament_id = played_cup(home, teams=True)
    document = export_event(home, tournament_id)
    Draft202012Validator(SCHEMA).validate(document)
    away = federation()
    imported = import_file(away, document, status=201).json()
    there = Tournament.objects.get(pk=imported["event"])
    assert draw_of(there) == draw_of(Tournament.objects.get(pk=tournament_id))
    assert standings_of(away, there.pk) == standings_of(home, tournament_id)

    elsewhere = build_event(players=0, slug="elsewhere")
    players = [Player.objects.create(club=elsewhere.club, display_name=f"P{n}") for n in range(2)]
    team = Team.objects.create(club=elsewhere.club, name=document["teams"][0]["name"])
    for position, player in enumerate(players):
        team.team_members.create(player=player, position=position)
    before = event_rows()
    response = import_file(elsewhere, document, status=409)
    assert [(error["code"], error["pointer"]) for error in response.json()["errors"]] == [
        ("exchange_team_differs", "/teams/0/members")
    ]
    assert event_rows() == before


def test_a_match_whose_games_do_not_match_the_file_is_refused(cup):
    _, _, document = cup
    away = federation()
    wrong = copy.deepcopy(document)
    result = wrong["event"]["rounds"][0]["matches"][0]["result"]
    result["placings"] = list(reversed(result["placings"]))
    before = event_rows()
    response = import_file(away, wrong, status=422)
    assert [(error["code"], error["pointer"]) for error in response.json()["errors"]] == [
        ("exchange_replay_differs", "/event/rounds/0/matches/0")
    ]
    assert event_rows() == before
    # A game's hands that no longer finish it: the match is not decided, the game differs.
    short = copy.deepcopy(document)
    short["games"][0]["hands"] = []
    response = import_file(away, short, status=422)
    assert response.json()["code"] == "exchange_replay_differs"
    assert response.json()["errors"][0]["pointer"] == "/games/0"
    assert event_rows() == before


def test_garbage_and_broken_references_are_4xx(cup):
    _, _, document = cup
    away = federation()
    before = event_rows()
    for body in (
        {**document, "event": {"name": "Cup"}},
        {**document, "event": None},
        [1, 2, 3],
        "event",
    ):
        response = import_file(away, body)
        assert 400 <= response.status_code < 500, response.content[:500]
    unknown = copy.deepcopy(document)
    unknown["event"]["entrants"][0]["player"] = 999_999
    unknown["event"]["rounds"][0]["matches"][0]["games"].append(888_888)
    response = import_file(away, unknown, status=400)
    assert [(error["code"], error["pointer"]) for error in response.json()["errors"]] == [
        ("exchange_invalid", "/event/entrants/0/player"),
        ("exchange_invalid", "/event/rounds/0/matches/0/games/1"),
    ]
    still_open = copy.deepcopy(document)
    still_open["event"]["status"] = "in_progress"
    response = import_file(away, still_open, status=409)
    assert (response.json()["code"], response.json()["errors"][0]["pointer"]) == (
        "exchange_event_open",
        "/event/status",
    )
    assert event_rows() == before


def test_the_console_imports_an_event_file(cup):
    _, _, document = cup
    away = federation()
    organiser = logged_in_client(away.world.users["organiser"])
    body = json.dumps(document).encode()
    with TestCase.captureOnCommitCallbacks(execute=True):
        response = organiser.post(
            f"/clubs/{away.club.slug}/console/imports/",
            {"file": SimpleUploadedFile("cup.exchange.json", body, "application/json")},
        )
    (imported,) = ImportedEvent.objects.filter(club=away.club)
    assert response.status_code == 302
    assert response["Location"] == (
        f"/clubs/{away.club.slug}/console/events/{imported.tournament_id}/"
    )
    assert imported.tournament.status == "closed"
    page = organiser.get(f"/clubs/{away.club.slug}/console/imports/").content.decode()
    assert f"/console/events/{imported.tournament_id}/" in page


FUZZ_VALUES = [None, -1, 0, 1, 2, "x", [], {}, True, 10**20, [None], [0, 1]]


def _fuzz_paths(document: dict):
    """The event's settings and figures, its first entrant, and one match of each round."""
    event = document["event"]
    yield from (("event", name) for name in event if name not in ("entrants", "rounds"))
    yield from (("event", "settings", name) for name in event["settings"])
    yield from (("event", "entrants", 0, name) for name in event["entrants"][0])
    for number, round_ in enumerate(event["rounds"]):
        match = round_["matches"][0]
        for name, value in match.items():
            yield ("event", "rounds", number, "matches", 0, name)
            if isinstance(value, list):
                yield from (
                    ("event", "rounds", number, "matches", 0, name, i) for i in range(len(value))
                )
    yield ("event", "rounds", 1, "matches", 0, "sources", 0, "table")
    yield ("teams",)


@pytest.mark.slow
def test_malformed_event_documents_are_never_a_500(cup):
    _, _, document = cup
    away = federation()
    before = event_rows()
    statuses = set()
    for path in _fuzz_paths(document):
        for value in FUZZ_VALUES:
            broken = copy.deepcopy(document)
            target = broken
            for part in path[:-1]:
                target = target[part]
            target[path[-1]] = value
            response = import_file(away, broken)
            statuses.add(response.status_code)
            assert response.status_code < 500, (path, value, response.content[:300])
            if response.status_code >= 300:
                assert response["Content-Type"] == "application/problem+json"
                assert event_rows() == before, (path, value)
            else:
                # It imported (a value the file may hold): undo it for the next one.
                ImportedEvent.objects.filter(club=away.club).delete()
                before = event_rows()
    assert statuses <= {200, 201, 400, 409, 422}
