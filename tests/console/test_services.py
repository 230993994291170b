"""The services the console needed, through the API where the API has them.

What it proves: inviting by username or e-mail without telling which accounts exist; a pasted
list of players (all or nothing); pairs made from a list; merging two records of one person
(their seats, ledger, pairs and entries move; overlapping records are refused); check-in (the
draw takes only those present, a late arrival joins the next swiss round and ranks); private
draws (invisible to players in the API until released); swapping two entrants between tables
before release (new games seat them; refused once released or begun); the house-rule definitions
the console's form is generated from.
"""

from __future__ import annotations

import pytest

from clubs import roster
from clubs.models import Membership, Player, Team
from config.problems import Problem
from games.models import GameSeat, LedgerEntry
from rules_engine.house_rule_definitions import definitions_for
from rules_engine.house_rules import ALL_KEYS, DEFAULTS, GAMES, NOT_APPLICABLE
from tests.clubs.factories import make_player, make_team, make_user
from tests.helpers import logged_in_client
from tests.tournaments.play_helpers import build_event, win_game
from tournaments.models import Entrant

pytestmark = pytest.mark.django_db


def _problem(call) -> Problem:
    with pytest.raises(Problem) as caught:
        call()
    return caught.value


# Members ---------------------------------------------------------------------------------------


def test_invite_by_username_or_e_mail_and_one_answer_for_every_unknown():
    event = build_event(players=0)
    club = event.club
    make_user("Rita", email="rita@example.org")
    make_user("twin-one", email="twins@example.org")
    make_user("twin-two", email="twins@example.org")
    by_name = roster.invite_member(club=club, identifier="rita", role="scorekeeper")
    assert (by_name.user.username, by_name.role) == ("Rita", "scorekeeper")
    Membership.objects.filter(pk=by_name.pk).delete()
    by_mail = roster.invite_member(club=club, identifier=" RITA@example.org ", role="player")
    assert (by_mail.user.username, by_mail.role) == ("Rita", "player")
    answers = {
        (problem.status_code, problem.code, problem.detail, problem.errors[0]["pointer"])
        for identifier in ("nobody", "nobody@example.org", "twins@example.org")
        for problem in [
            _problem(
                lambda identifier=identifier: roster.invite_member(
                    club=club, identifier=identifier, role="player"
                )
            )
        ]
    }
    assert answers == {
        (
            400,
            "no_such_account",
            "No account can be added with that username or "
            "e-mail. Ask the person for the username they log in with.",
            "/identifier",
        )
    }
    again = _problem(lambda: roster.invite_member(club=club, identifier="rita", role="player"))
    assert (again.code, again.errors[0]["pointer"]) == ("unique", "/identifier")


# Players and pairs -------------------------------------------------------------------------------


def test_a_pasted_list_adds_every_name_or_none():
    event = build_event(players=0)
    club = event.club
    make_player(club, "Zoe")
    problem = _problem(
        lambda: roster.add_players_from_list(club=club, names=["Una", "", "zoe", "Vera", "una"])
    )
    assert [(error["pointer"], error["code"]) for error in problem.errors] == [
        ("/names/2", "unique"),
        ("/names/4", "unique"),
    ]
    assert not Player.objects.filter(club=club, display_name="Vera").exists()
    added = roster.add_players_from_list(club=club, names=[" Una ", "", "Vera"])
    assert [player.display_name for player in added] == ["Una", "Vera"]


def test_pairs_are_made_in_the_order_given():
    event = build_event(players=5)
    ids = [player.pk for player in event.players]
    teams = roster.make_pairs(club=event.club, player_ids=ids[:4])
    assert [(team.name, [p.pk for p in team.ordered_members()]) for team in teams] == [
        ("Player 01 & Player 02", ids[:2]),
        ("Player 03 & Player 04", ids[2:4]),
    ]
    assert (
        _problem(lambda: roster.make_pairs(club=event.club, player_ids=ids[4:])).code == "odd_count"
    )


def test_merging_two_records_moves_their_history():
    event = build_event(players=4)
    tournament = event.create_tournament(
        name="Cup",
        game="25",
        format="knockout",
        stake="0.20",
        entrants=[{"player": player.pk} for player in event.players[:2]],
    )
    match = event.draw(tournament["id"])["matches"][0]
    win_game(event, match["games"][0]["id"], 0)
    duplicate, keep = event.players[0], event.players[3]
    duplicate.user = make_user("ann-account")
    duplicate.save()
    team = make_team(event.club, "Old pair", [duplicate, event.players[2]])
    roster.merge_players(club=event.club, keep=keep, merged=duplicate)
    assert not Player.objects.filter(pk=duplicate.pk).exists()
    assert GameSeat.objects.filter(player=keep).count() == 1
    assert LedgerEntry.objects.filter(player=keep).count() == 1
    assert list(Entrant.objects.filter(player=keep).values_list("tournament_id", flat=True)) == [
        tournament["id"]
    ]
    assert [player.pk for player in Team.objects.get(pk=team.pk).ordered_members()] == [
        keep.pk,
        event.players[2].pk,
    ]
    keep.refresh_from_db()
    assert keep.user.username == "ann-account"


def test_merging_two_people_who_sat_in_one_game_is_refused():
    event = build_event(players=2)
    tournament = event.create_tournament(
        name="Cup",
        game="25",
        format="knockout",
        entrants=[{"player": player.pk} for player in event.players],
    )
    event.draw(tournament["id"])
    first, second = event.players
    problem = _problem(lambda: roster.merge_players(club=event.club, keep=first, merged=second))
    assert (problem.status_code, problem.code) == (409, "players_overlap")
    assert GameSeat.objects.filter(player=second).count() == 1


# Check-in, private draws, swaps -------------------------------------------------------------------


def test_the_draw_takes_those_checked_in_and_a_late_arrival_joins_the_next_round():
    event = build_event(players=5)
    tournament = event.create_tournament(
        name="Swiss night",
        game="25",
        format="swiss",
        round_count=2,
        auto_advance=False,
        entrants=[{"player": player.pk} for player in event.players],
    )
    entrants = event.ok("get", f"/api/tournaments/{tournament['id']}/entrants/")
    late = entrants[-1]["id"]
    checked = event.ok(
        "post",
        f"/api/tournaments/{tournament['id']}/check-in/",
        {"present": [entrant["id"] for entrant in entrants[:-1]]},
    )
    assert [entrant["is_present"] for entrant in checked] == [True] * 4 + [False]
    round_one = event.draw(tournament["id"])
    seated = {slot["entrant"] for match in round_one["matches"] for slot in match["entrants"]}
    assert late not in seated and len(seated) == 4
    for match in round_one["matches"]:
        win_game(event, match["games"][0]["id"], 0)
    event.ok(
        "post",
        f"/api/tournaments/{tournament['id']}/check-in/",
        {"present": [entrant["id"] for entrant in entrants]},
    )
    round_two = event.draw(tournament["id"])
    seated = {slot["entrant"] for match in round_two["matches"] for slot in match["entrants"]}
    assert late in seated and len(seated) == 5
    assert late in {row["entrant"]["id"] for row in event.standings(tournament["id"])}
    unknown = event.call(
        "post", f"/api/tournaments/{tournament['id']}/check-in/", {"present": [999999]}
    )
    assert (unknown.status_code, unknown.json()["errors"][0]["pointer"]) == (400, "/present/0")


def test_a_round_robin_refuses_its_next_round_while_an_entrant_is_checked_out():
    """A round robin's schedule seats everyone drawn in every round: the draw names who is
    checked out (409, in the reader's language) and goes on once they are back."""
    event = build_event(players=4)
    tournament = event.create_tournament(
        name="League night",
        game="25",
        format="round_robin",
        auto_advance=False,
        entrants=[{"player": player.pk} for player in event.players],
    )
    url = f"/api/tournaments/{tournament['id']}/"
    entrants = event.ok("get", f"{url}entrants/")
    round_one = event.draw(tournament["id"])
    for match in round_one["matches"]:
        win_game(event, match["games"][0]["id"], 0)
    event.ok("post", f"{url}check-in/", {"present": [entrant["id"] for entrant in entrants[1:]]})
    refused = event.call("post", f"{url}rounds/")
    assert (refused.status_code, refused.json()["code"]) == (409, "entrants_absent")
    assert refused.json()["detail"] == (
        f"{entrants[0]['name']} checked out, but a round robin seats every entrant in every "
        "round: check them in again to draw round 2."
    )
    in_french = event.call("post", f"{url}rounds/", **{"Accept-Language": "fr"})
    assert in_french.json()["detail"] == (
        f"Non pointé(s) : {entrants[0]['name']}. Un tournoi toutes rondes place chaque "
        "participant à chaque tour : pointez-les de nouveau pour tirer le tour 2."
    )
    assert len(event.rounds(tournament["id"])) == 1  # nothing stored
    event.ok("post", f"{url}check-in/", {"present": [entrant["id"] for entrant in entrants]})
    assert event.draw(tournament["id"])["number"] == 2


def test_a_private_draw_is_hidden_from_players_until_released():
    event = build_event(players=4)
    tournament = event.create_tournament(
        name="Private",
        game="25",
        format="swiss",
        round_count=1,
        private_draws=True,
        entrants=[{"player": player.pk} for player in event.players],
    )
    drawn = event.draw(tournament["id"])
    assert drawn["released_at"] is None
    rounds_url = f"/api/tournaments/{tournament['id']}/rounds/"
    match_url = f"/api/matches/{drawn['matches'][0]['id']}/"
    assert event.ok("get", rounds_url, role="player") == []
    assert (
        event.ok("get", f"/api/tournaments/{tournament['id']}/matches/", role="player")["results"]
        == []
    )
    assert event.call("get", match_url, role="player").status_code == 404
    assert len(event.ok("get", rounds_url)) == 1  # the organiser sees it
    reader = logged_in_client(event.world.users["player"])
    game_page = f"/clubs/{event.club.slug}/games/{drawn['matches'][0]['games'][0]['id']}/"
    assert reader.get(game_page).status_code == 404
    assert game_page not in reader.get(f"/clubs/{event.club.slug}/").content.decode()
    released = event.ok("post", f"{rounds_url}1/release/")
    assert reader.get(game_page).status_code == 200
    assert released["released_at"] is not None
    assert len(event.ok("get", rounds_url, role="player")) == 1
    assert event.call("get", match_url, role="player").status_code == 200
    again = event.call("post", f"{rounds_url}1/release/")
    assert (again.status_code, again.json()["code"]) == (409, "round_released")


def test_swapping_two_entrants_before_release_reseats_both_tables():
    event = build_event(players=8)
    tournament = event.create_tournament(
        name="Private",
        game="25",
        format="swiss",
        round_count=1,
        private_draws=True,
        entrants=[{"player": player.pk} for player in event.players],
    )
    drawn = event.draw(tournament["id"])
    first, second = drawn["matches"][0], drawn["matches"][1]
    a, b = first["entrants"][0]["entrant"], second["entrants"][1]["entrant"]
    rounds_url = f"/api/tournaments/{tournament['id']}/rounds/1/"
    same = event.call(
        "post", f"{rounds_url}swap/", {"first": a, "second": first["entrants"][1]["entrant"]}
    )
    assert (same.status_code, same.json()["code"]) == (400, "same_table")
    swapped = event.ok("post", f"{rounds_url}swap/", {"first": a, "second": b})
    tables = {
        match["table"]: [slot["entrant"] for slot in match["entrants"]]
        for match in swapped["matches"]
    }
    assert tables[1] == [b, first["entrants"][1]["entrant"]]
    assert tables[2] == [second["entrants"][0]["entrant"], a]
    new_game = swapped["matches"][0]["games"][0]["id"]
    assert new_game != first["games"][0]["id"]
    entrant_b = Entrant.objects.get(pk=b)
    assert event.game(new_game)["seats"][0]["player"]["id"] == entrant_b.player_id
    # Before the release the game is the organisers' alone (a private draw): 404 to others.
    assert event.call("get", f"/api/games/{new_game}/", role="scorekeeper").status_code == 404
    event.ok(
        "post",
        f"/api/games/{new_game}/hands/",
        {"dealer": 0, "trump": "S", "trick_winners": [0, 1, 0, 1, 0]},
        status=201,
    )
    begun = event.call("post", f"{rounds_url}swap/", {"first": b, "second": a})
    assert (begun.status_code, begun.json()["code"]) == (409, "match_begun")
    event.ok("post", f"{rounds_url}release/")
    late = event.call("post", f"{rounds_url}swap/", {"first": tables[3][0], "second": tables[4][0]})
    assert (late.status_code, late.json()["code"]) == (409, "round_released")
    assert (
        event.call(
            "post", f"{rounds_url}swap/", {"first": a, "second": b}, role="scorekeeper"
        ).status_code
        == 403
    )


# House-rule definitions -----------------------------------------------------------------------


@pytest.mark.parametrize("game", GAMES)
def test_the_definitions_are_the_engines_own(game):
    definitions = definitions_for(game)
    assert [definition.key for definition in definitions] == list(ALL_KEYS)
    assert {definition.key: definition.default for definition in definitions} == {
        key: DEFAULTS[game][key] for key in ALL_KEYS
    }
    assert {definition.key for definition in definitions if not definition.applies} == set(
        NOT_APPLICABLE[game]
    )
