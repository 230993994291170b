"""Bad input to the tournament API: a 4xx problem with a stable code and pointer; nothing stored."""

from __future__ import annotations

import pytest

from games.models import Game, Hand
from tests.clubs.factories import make_club, make_player, make_team
from tests.tournaments.play_helpers import build_event, win_match
from tournaments.models import AuditEntry, Entrant, Match, MatchEntrant, Round, Tournament

pytestmark = pytest.mark.django_db


def snapshot() -> dict:
    """Every row count the tournaments can change, and every tournament's full settings."""
    return {
        "counts": [
            model.objects.count()
            for model in (Tournament, Entrant, Round, Match, MatchEntrant, Game, Hand, AuditEntry)
        ],
        "tournaments": list(Tournament.objects.order_by("pk").values()),
        "entrants": list(Entrant.objects.order_by("pk").values()),
        "matches": list(Match.objects.order_by("pk").values("pk", "status", "result")),
    }


def refused(event, method, url, body=None, *, status, code, pointer, role="organiser"):
    before = snapshot()
    response = event.call(method, url, body, role=role)
    assert response.status_code == status, response.content
    assert response["Content-Type"] == "application/problem+json"
    problem = response.json()
    # Shape errors found by the serializers are one "invalid" problem listing each leaf's code;
    # refusals of the services carry their code at both levels.
    assert problem["code"] in (code, "invalid"), problem
    assert problem["errors"][0]["code"] == code, problem
    assert problem["errors"][0]["pointer"] == pointer, problem
    assert snapshot() == before
    return problem


def create_url(event) -> str:
    return f"/api/clubs/{event.club.slug}/tournaments/"


def players_body(event, count: int) -> list[dict]:
    return [{"player": player.pk} for player in event.players[:count]]


def test_drawing_a_round_before_the_last_is_complete():
    event = build_event(players=4)
    tournament = event.create_tournament(
        name="Swiss", game="25", format="swiss", round_count=3, entrants=players_body(event, 4)
    )
    event.draw(tournament["id"])
    refused(
        event,
        "post",
        f"/api/tournaments/{tournament['id']}/rounds/",
        status=409,
        code="round_incomplete",
        pointer="",
    )


def test_knockout_rounds_after_the_first_fill_by_themselves():
    event = build_event(players=4)
    tournament = event.create_tournament(
        name="Cup", game="25", format="knockout", entrants=players_body(event, 4)
    )
    round_one = event.draw(tournament["id"])
    url = f"/api/tournaments/{tournament['id']}/rounds/"
    refused(event, "post", url, status=409, code="round_incomplete", pointer="")
    for match in round_one["matches"]:
        win_match(event, tournament["id"], match["id"], 0)
    # The final is already drawn (it filled itself) and undecided.
    refused(event, "post", url, status=409, code="round_incomplete", pointer="")


@pytest.mark.parametrize(
    ("settings", "entrants", "code"),
    [
        ({"format": "knockout", "table_size": 4, "advancing_per_table": 2}, 3, "too_few_entrants"),
        ({"format": "round_robin", "table_size": 3}, 2, "too_few_entrants"),
        (
            {"format": "drive", "table_size": 4, "sides_per_table": 2, "round_count": 2},
            10,
            "invalid_entrant_count",
        ),
        ({"format": "swiss", "round_count": 2}, 0, "too_few_entrants"),
    ],
)
def test_too_few_entrants_for_the_table_size(settings, entrants, code):
    event = build_event(players=10)
    if entrants:
        settings["entrants"] = players_body(event, entrants)
    tournament = event.create_tournament(name="Short", game="25", **settings)
    refused(
        event,
        "post",
        f"/api/tournaments/{tournament['id']}/rounds/",
        status=400,
        code=code,
        pointer="",
    )
    assert Tournament.objects.get(pk=tournament["id"]).status == "registration"


def test_entrants_from_another_club():
    event = build_event(players=2)
    elsewhere = make_club("elsewhere")
    stranger = make_player(elsewhere, "Stranger")
    body = {
        "name": "Mixed",
        "game": "25",
        "format": "knockout",
        "entrants": [{"player": event.players[0].pk}, {"player": stranger.pk}],
    }
    refused(
        event,
        "post",
        create_url(event),
        body,
        status=400,
        code="entrant_not_in_club",
        pointer="/entrants/1/player",
    )
    tournament = event.create_tournament(name="Local", game="25", format="knockout")
    refused(
        event,
        "post",
        f"/api/tournaments/{tournament['id']}/entrants/",
        {"entrants": [{"player": stranger.pk}]},
        status=400,
        code="entrant_not_in_club",
        pointer="/entrants/0/player",
    )


def test_a_team_whose_players_are_also_entered_alone():
    event = build_event(players=2)
    pair = make_team(event.club, "The pair", event.players[:2])
    tournament = event.create_tournament(
        name="Pairs", game="25", format="knockout", entrants=[{"player": event.players[0].pk}]
    )
    problem = refused(
        event,
        "post",
        f"/api/tournaments/{tournament['id']}/entrants/",
        {"entrants": [{"team": pair.pk}]},
        status=400,
        code="player_entered_twice",
        pointer="/entrants/0/team",
    )
    assert "already entered alone" in problem["detail"]
    # In one request: the team first, then one of its players alone.
    body = {
        "name": "Again",
        "game": "25",
        "format": "knockout",
        "entrant_kind": "team",
        "entrants": [{"team": pair.pk}, {"player": event.players[1].pk}],
    }
    refused(
        event,
        "post",
        create_url(event),
        body,
        status=400,
        code="player_entered_twice",
        pointer="/entrants/1/player",
    )


def test_changing_the_format_once_play_has_begun():
    event = build_event(players=4)
    tournament = event.create_tournament(
        name="Cup", game="25", format="knockout", entrants=players_body(event, 4)
    )
    url = f"/api/tournaments/{tournament['id']}/"
    event.ok("patch", url, {"format": "round_robin"})  # allowed before round 1
    event.ok("patch", url, {"format": "knockout"})
    event.draw(tournament["id"])
    refused(
        event,
        "patch",
        url,
        {"format": "swiss", "round_count": 3},
        status=409,
        code="tournament_started",
        pointer="/format",
    )
    refused(
        event,
        "patch",
        url,
        {"table_size": 4},
        status=409,
        code="tournament_started",
        pointer="/table_size",
    )
    refused(
        event,
        "post",
        f"/api/tournaments/{tournament['id']}/entrants/",
        {"entrants": [{"player": event.players[0].pk}]},
        status=409,
        code="tournament_started",
        pointer="/entrants",
    )
    # What does not shape play may still change.
    renamed = event.ok("patch", url, {"name": "Renamed cup", "is_public": True})
    assert (renamed["name"], renamed["is_public"]) == ("Renamed cup", True)


@pytest.mark.parametrize(
    ("body", "status", "code", "pointer"),
    [
        ({"colour": "red"}, 400, "unknown_field", "/colour"),
        ({"format": "league"}, 400, "invalid_choice", "/format"),
        ({"tie_breaks": ["match_wins", "luck"]}, 400, "unknown_tie_break", "/tie_breaks/1"),
        ({"tie_breaks": ["lots", "lots"]}, 400, "duplicate_tie_break", "/tie_breaks/1"),
        ({"format": "swiss"}, 400, "required", "/round_count"),
        (
            {"format": "swiss", "round_count": 3, "third_place_match": True},
            400,
            "option_not_applicable",
            "/third_place_match",
        ),
        (
            {"table_size": 4, "advancing_per_table": 3},
            400,
            "invalid_table_size",
            "/advancing_per_table",
        ),
        ({"game": "45"}, 400, "invalid_seating", "/table_size"),
        (
            {
                "game": "45",
                "format": "swiss",
                "round_count": 2,
                "table_size": 3,
                "min_table_size": 2,
            },
            400,
            "invalid_seating",
            "/min_table_size",
        ),
        ({"entrant_kind": "team", "table_size": 4}, 400, "invalid_table_size", "/table_size"),
        ({"house_rules": {"target": -5}}, 400, "invalid_house_rule", "/house_rules/target"),
        ({"stake": "0.205"}, 400, "invalid_amount", "/stake"),
        ({"entrants": [{"player": 1, "team": 1}]}, 400, "player_or_team", "/entrants/0"),
    ],
)
def test_bad_settings_create_nothing(body, status, code, pointer):
    event = build_event(players=2)
    full = {"name": "Bad", "game": "25", "format": "knockout", **body}
    refused(event, "post", create_url(event), full, status=status, code=code, pointer=pointer)


def test_seeds_and_duplicates_are_checked():
    event = build_event(players=3)
    tournament = event.create_tournament(
        name="Seeded",
        game="25",
        format="knockout",
        entrants=[{"player": event.players[0].pk, "seed": 1}],
    )
    url = f"/api/tournaments/{tournament['id']}/entrants/"
    refused(
        event,
        "post",
        url,
        {"entrants": [{"player": event.players[1].pk, "seed": 1}]},
        status=400,
        code="duplicate_seed",
        pointer="/entrants/0/seed",
    )
    refused(
        event,
        "post",
        url,
        {"entrants": [{"player": event.players[0].pk}]},
        status=400,
        code="already_entered",
        pointer="/entrants/0/player",
    )
    refused(
        event,
        "post",
        url,
        {"entrants": [{"player": event.players[1].pk}, {"player": event.players[1].pk}]},
        status=400,
        code="already_entered",
        pointer="/entrants/1/player",
    )
    refused(
        event,
        "post",
        url,
        {"entrants": [{"team": event.world.team.pk}]},
        status=400,
        code="wrong_entrant_kind",
        pointer="/entrants/0/team",
    )


def test_stale_if_match_is_refused():
    event = build_event(players=2)
    tournament = event.create_tournament(name="Tagged", game="25", format="knockout")
    url = f"/api/tournaments/{tournament['id']}/"
    first = event.call("get", url)
    etag = first.headers["ETag"]
    event.ok("patch", url, {"name": "Changed"})
    before = snapshot()
    response = event.call("patch", url, {"name": "Lost update"}, **{"If-Match": etag})
    assert (response.status_code, response.json()["code"]) == (412, "precondition_failed")
    assert snapshot() == before
    fresh = event.call("get", url).headers["ETag"]
    assert event.call("patch", url, {"name": "Fine"}, **{"If-Match": fresh}).status_code == 200


def test_closing_with_undecided_matches_and_after_closing():
    event = build_event(players=2)
    tournament = event.create_tournament(
        name="Final only", game="25", format="knockout", entrants=players_body(event, 2)
    )
    round_one = event.draw(tournament["id"])
    close = f"/api/tournaments/{tournament['id']}/close/"
    refused(event, "post", close, status=409, code="matches_undecided", pointer=None)
    win_match(event, tournament["id"], round_one["matches"][0]["id"], 0)
    closed = event.ok("post", close)
    assert closed["status"] == "closed"
    assert AuditEntry.objects.filter(tournament_id=tournament["id"], kind="closed").count() == 1
    refused(event, "post", close, status=409, code="tournament_closed", pointer=None)
    refused(
        event,
        "patch",
        f"/api/tournaments/{tournament['id']}/",
        {"tie_breaks": ["lots"]},
        status=409,
        code="tournament_closed",
        pointer="/tie_breaks",
    )


def test_changing_the_format_drops_the_options_of_the_old_one():
    event = build_event(players=4)
    tournament = event.create_tournament(
        name="Cup", game="25", format="knockout", third_place_match=True
    )
    changed = event.ok(
        "patch", f"/api/tournaments/{tournament['id']}/", {"format": "swiss", "round_count": 3}
    )
    assert (changed["format"], changed["round_count"], changed["third_place_match"]) == (
        "swiss",
        3,
        False,
    )
    assert changed["version"] == tournament["version"] + 1
