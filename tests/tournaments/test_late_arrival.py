"""A late arrival joins a running drive or Swiss: entered before a later round, drawn in it,
counted in the standings from then on (earlier rounds: not played, no points, no loss)."""

from __future__ import annotations

import pytest

from tests.clubs.factories import make_team
from tests.helpers import logged_in_client
from tests.tournaments.play_helpers import build_event, win_game

pytestmark = pytest.mark.django_db


def _seated(round_: dict) -> set[int]:
    return {slot["entrant"] for match in round_["matches"] for slot in match["entrants"]}


def test_late_pairs_join_a_drive_at_the_foot_once_they_fill_a_table():
    event = build_event(players=4, teams=8)
    tournament = event.create_tournament(
        name="Drive",
        game="45",
        format="drive",
        entrant_kind="team",
        table_size=2,
        round_count=3,
        auto_advance=False,
        entrants=[{"team": team.pk} for team in event.teams],
    )
    round_one = event.draw(tournament["id"])
    assert len(_seated(round_one)) == 8
    for match in round_one["matches"]:
        win_game(event, match["games"][0]["id"], 0)
    url = f"/api/tournaments/{tournament['id']}/entrants/"
    ninth = make_team(event.club, "Late pair", event.players[:2])
    (late,) = event.ok("post", url, {"entrants": [{"team": ninth.pk}]}, status=201)
    # Nine pairs do not fill tables of two pairs: the draw says so and stores nothing.
    refused = event.call("post", f"/api/tournaments/{tournament['id']}/rounds/")
    assert (refused.status_code, refused.json()["code"]) == (400, "invalid_entrant_count")
    assert "enter 1 more before drawing" in refused.json()["detail"]
    assert len(event.rounds(tournament["id"])) == 1
    tenth = make_team(event.club, "Later pair", event.players[2:4])
    (later,) = event.ok("post", url, {"entrants": [{"team": tenth.pk}]}, status=201)
    round_two = event.draw(tournament["id"])
    assert len(_seated(round_two)) == 10
    foot = max(round_two["matches"], key=lambda match: match["table"])
    assert {slot["entrant"] for slot in foot["entrants"]} == {late["id"], later["id"]}
    rows = {row["entrant"]["id"]: row for row in event.standings(tournament["id"])}
    assert len(rows) == 10
    # Round 1 counts as not played: no match, no loss, no bye, no points.
    joined = rows[late["id"]]
    assert (
        joined["matches_played"],
        joined["match_losses"],
        joined["byes"],
        joined["match_points"],
    ) == (0, 0, 0, 0)


def test_a_late_player_joins_a_swiss_but_not_a_knockout():
    event = build_event(players=6)
    swiss = event.create_tournament(
        name="Swiss",
        game="25",
        format="swiss",
        round_count=3,
        entrants=[{"player": player.pk} for player in event.players[:4]],
    )
    event.draw(swiss["id"])
    added = event.call(
        "post",
        f"/api/tournaments/{swiss['id']}/entrants/",
        {"entrants": [{"player": event.players[4].pk}]},
    )
    assert added.status_code == 201
    knockout = event.create_tournament(
        name="Cup",
        game="25",
        format="knockout",
        entrants=[{"player": player.pk} for player in event.players[:4]],
    )
    event.draw(knockout["id"])
    refused = event.call(
        "post",
        f"/api/tournaments/{knockout['id']}/entrants/",
        {"entrants": [{"player": event.players[5].pk}]},
    )
    assert (refused.status_code, refused.json()["code"]) == (409, "tournament_started")


def test_the_console_quick_adds_a_newcomer_to_a_running_drive():
    event = build_event(players=0, teams=4)
    tournament = event.create_tournament(
        name="Drive",
        game="45",
        format="drive",
        entrant_kind="team",
        table_size=2,
        round_count=2,
        entrants=[{"team": team.pk} for team in event.teams],
    )
    event.draw(tournament["id"])
    client = logged_in_client(event.world.users["organiser"])
    url = f"/clubs/{event.club.slug}/console/events/{tournament['id']}/"
    page = client.get(url).content.decode()
    assert 'value="quick_add"' in page
    response = client.post(url, {"action": "quick_add", "name": "Nora", "partner": "Pat"})
    assert response.status_code == 302
    names = [
        row["name"] for row in event.ok("get", f"/api/tournaments/{tournament['id']}/entrants/")
    ]
    assert len(names) == 5 and any("Nora" in name for name in names)


def test_the_pure_drive_puts_newcomers_at_the_foot_or_refuses_a_part_table():
    from tournaments.draw import drive
    from tournaments.draw.errors import DrawError
    from tournaments.draw.types import MatchResult

    rules = drive.DriveRules(table_size=2, games=3)
    game = drive.first_game([1, 2, 3, 4], rules)
    results = [
        MatchResult(table, ((table.entrants[0],), (table.entrants[1],))) for table in game.tables
    ]
    after = drive.next_game(rules, game, results, newcomers=[7, 8])
    assert [table.entrants for table in after.tables][-1] == (7, 8)
    with pytest.raises(DrawError) as caught:
        drive.next_game(rules, game, results, newcomers=[7])
    assert caught.value.code == "invalid_entrant_count"
