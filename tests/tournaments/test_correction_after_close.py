"""Corrections after the close: an organiser corrects a closed tournament; the match, the
standings, the stakes and the prizes follow, and the settle-up gets a version of differences
(``settlements.settle_up.settle_event``, as a closed night's). Anyone else is refused in words
that say who can still correct.
"""

from __future__ import annotations

import pytest

from games.models import Game
from settlements.models import Settlement
from tests.helpers import logged_in_client
from tests.tournaments.play_helpers import build_event, win_game
from tournaments.models import Match

pytestmark = pytest.mark.django_db


def _closed_drive():
    event = build_event(players=8)
    tournament = event.create_tournament(
        name="One-round drive",
        game="25",
        format="drive",
        table_size=4,
        sides_per_table=2,
        round_count=1,
        stake="0.20",
        lots_seed=3,
        entrants=[{"player": player.pk} for player in event.players],
    )
    tournament_id = tournament["id"]
    event.draw(tournament_id)
    games = {}
    for match in Match.objects.filter(tournament_id=tournament_id).order_by("table"):
        game_id = match.match_games.get().game_id
        win_game(event, game_id, side=0)
        games[match.table] = Game.objects.get(pk=game_id)
    event.ok("post", f"/api/tournaments/{tournament_id}/close/")
    return event, tournament_id, games


def test_an_organisers_correction_after_the_close_adds_a_settle_up_version():
    event, tournament_id, games = _closed_drive()
    first = Settlement.objects.get(tournament_id=tournament_id)
    assert first.version == 1
    game = games[1]
    winners = {seat.player_id for seat in game.seats.all() if seat.side == 0}
    losers = {seat.player_id for seat in game.seats.all() if seat.side == 1}
    stakes = {
        line["player"]: line["stakes"] for line in first.lines if line["player"] in winners | losers
    }
    won = stakes[next(iter(winners))]
    assert won > 0 and stakes == {**dict.fromkeys(winners, won), **dict.fromkeys(losers, -won)}

    # A scorekeeper may not change a closed event: in words that say who still can.
    last = game.hands.order_by("number").last()
    seat_of_side_1 = next(seat.seat for seat in game.seats.all() if seat.side == 1)
    record = {"dealer": last.dealer, "trump": "H", "trick_winners": [seat_of_side_1] * 5}
    url = f"/api/games/{game.pk}/hands/1/"
    etag = event.call("get", f"/api/games/{game.pk}/")["ETag"]
    game.refresh_from_db()
    assert game.hands_played == 1  # the helper wins a game in one hand at Twenty-Five
    refused = event.call("put", url, record, role="scorekeeper", **{"If-Match": etag})
    assert refused.status_code == 409
    assert refused.json()["errors"][0]["code"] == "tournament_closed"
    assert refused.json()["detail"] == (
        "The event is closed: only an organiser can still correct it, from the console."
    )
    assert Settlement.objects.filter(tournament_id=tournament_id).count() == 1

    # The organiser corrects it: side 1 took every trick instead.
    corrected = event.call("put", url, record, **{"If-Match": etag})
    assert corrected.status_code == 200, corrected.json()
    game.refresh_from_db()
    assert game.winner_side == 1
    match = Match.objects.get(tournament_id=tournament_id, table=1)
    assert match.status == "decided"
    versions = list(Settlement.objects.filter(tournament_id=tournament_id).order_by("version"))
    assert [version.version for version in versions] == [1, 2]
    second = versions[1]
    # Each player of the table now owes or gets the opposite. Nothing of version 1 was paid, so
    # version 2 replaces its open transfers: what is still to settle is the new stakes, and the
    # version says in words (its changes) that each stake turned from one side to the other.
    differences = {
        line["player"]: line["difference"]
        for line in second.lines
        if line["player"] in winners | losers
    }
    assert differences == {**dict.fromkeys(winners, -won), **dict.fromkeys(losers, won)}
    changes = {
        (change["player"], change["field"]): (change["before"], change["after"])
        for change in second.details["changes"]
    }
    assert {key: value for key, value in changes.items() if key[0] in winners | losers} == {
        **{(player, "stakes"): (won, -won) for player in winners},
        **{(player, "stakes"): (-won, won) for player in losers},
    }
    standings = event.standings(tournament_id)
    top = {row["entrant"]["player"] for row in standings if row["match_wins"] == 1}
    assert losers <= top and not winners & top


def test_the_board_says_what_a_correction_after_the_close_will_do_before_saving_it():
    event, tournament_id, games = _closed_drive()
    game = games[2]
    assert game.hands_played == 1  # the helper wins a game in one hand at Twenty-Five
    client = logged_in_client(event.world.users["organiser"])
    url = f"/clubs/{event.club.slug}/console/events/{tournament_id}/board/?round=1"
    side_1 = next(seat.seat for seat in game.seats.all() if seat.side == 1)
    body = {
        "action": "hand",
        "round": "1",
        "game": str(game.pk),
        "version": str(game.version),
        "number": "1",
        "dealer": str(game.hands.get().dealer),
        "trump": "C",
        **{f"trick_{index}": str(side_1) for index in range(5)},
    }
    asked = client.post(url, body)
    assert asked.status_code == 200
    page = asked.content.decode()
    assert "Correct hand 1? The winner changes." in page
    assert "the settle-up gets a new version with the differences" in page
    game.refresh_from_db()
    assert (game.winner_side, Settlement.objects.filter(tournament_id=tournament_id).count()) == (
        0,
        1,
    )
    from django.test import TestCase

    with TestCase.captureOnCommitCallbacks(execute=True):  # the match's task, the settle-up
        done = client.post(url, {**body, "confirm": "yes"})
    assert done.status_code == 302
    game.refresh_from_db()
    assert game.winner_side == 1
    assert Settlement.objects.filter(tournament_id=tournament_id).count() == 2
    # The organiser's own entry: recorded as theirs.
    assert game.hands.get().history.latest().history_user == event.world.users["organiser"]


def test_a_correction_that_keeps_the_winner_is_still_an_organisers_after_the_close():
    """A closed event takes no change from a scorekeeper, even one that keeps the winner (the
    hand's trump named differently: the record, the audit and the history would change)."""
    event, tournament_id, games = _closed_drive()
    game = games[1]
    assert game.hands_played == 1
    hand = game.hands.get()
    record = {**hand.record, "trump": "S" if hand.record["trump"] != "S" else "D"}
    url = f"/api/games/{game.pk}/hands/1/"
    etag = event.call("get", f"/api/games/{game.pk}/")["ETag"]
    refused = event.call("put", url, record, role="scorekeeper", **{"If-Match": etag})
    assert refused.status_code == 409
    assert refused.json()["errors"][0]["code"] == "tournament_closed"
    trump_before = hand.record["trump"]
    hand.refresh_from_db()
    assert hand.record["trump"] == trump_before != record["trump"]

    # The organiser may: the winner stays, so no new settle-up version is needed.
    corrected = event.call("put", url, record, **{"If-Match": etag})
    assert corrected.status_code == 200, corrected.json()
    hand.refresh_from_db()
    game.refresh_from_db()
    assert (hand.record["trump"], game.winner_side) == (record["trump"], 0)
    assert Settlement.objects.filter(tournament_id=tournament_id).count() == 1
