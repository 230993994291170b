"""Acceptance that means something (a club with ``confirm_hands``).

- Only a player of another side than the entering side's may accept: at a table link's tablet
  (which is nobody in particular) the tablet names who entered the hand (``scored_by``), and a
  player of that side is refused (400 ``invalid_confirmation``); without the name, 400
  ``confirmation_required`` at ``/scored_by``.
- Corrections and undos need the same acceptance; a correction carries its own acceptance, not
  the first version's ``confirmed_by``.
- The organiser's own console entry stands as the acceptance, recorded as theirs; nobody else's
  does, and never through a table link.
- The audit gives, for each version of a hand, who entered it, who accepted it, and when.
"""

from __future__ import annotations

import pytest

from config.problems import Problem
from games import services
from games.models import Hand
from table_links import services as table_services
from tests.games.helpers import build_table
from tests.helpers import table_link_client

pytestmark = pytest.mark.django_db

HAND = {
    "dealer": 3,
    "trump": "S",
    "trick_winners": [0, 1, 0, 0, 1],
    "best_trump": {"seat": 0, "trick": 0},
}
CORRECTED = {
    "dealer": 3,
    "trump": "S",
    "trick_winners": [1, 1, 0, 0, 1],
    "best_trump": {"seat": 1, "trick": 0},
}


@pytest.fixture
def setup():
    table = build_table()
    table.club.confirm_hands = True
    table.club.save()
    game = table.new_game("45", 4, teams=[[0, 2], [1, 3]], first_dealer=3)
    organiser = table.world.users["organiser"]
    link, token, _code = table_services.create_table_link(
        club=table.club, user=organiser, game_id=game["id"]
    )
    client = table_link_client(token)
    seats = [seat["player"]["id"] for seat in game["seats"]]  # sides: 0, 1, 0, 1
    return table, game, client, seats


def _error(response):
    first = response.json()["errors"][0]
    return response.status_code, first["code"], first["pointer"]


def test_at_a_table_link_only_a_player_of_another_side_than_the_scorers_accepts(setup):
    table, game, client, seats = setup
    url = f"/api/games/{game['id']}/hands/"
    # The link is nobody: who entered the hand must be named.
    nameless = client.post(url, {**HAND, "confirmed_by": seats[1]}, format="json")
    assert _error(nameless) == (400, "confirmation_required", "/scored_by")
    # Mary (seat 0, side 0) entered it: her partner Tom (seat 2) may not accept it.
    partner = client.post(
        url, {**HAND, "scored_by": seats[0], "confirmed_by": seats[2]}, format="json"
    )
    assert _error(partner) == (400, "invalid_confirmation", "/confirmed_by")
    assert Hand.objects.count() == 0
    accepted = client.post(
        url, {**HAND, "scored_by": seats[0], "confirmed_by": seats[1]}, format="json"
    )
    assert accepted.status_code == 201, accepted.json()
    body = accepted.json()
    assert (body["scored_by"]["id"], body["confirmed_by"]["id"]) == (seats[0], seats[1])
    assert body["accepted_by_organiser"] is None


def test_a_correction_and_an_undo_need_their_own_acceptance(setup):
    table, game, client, seats = setup
    hands = f"/api/games/{game['id']}/hands/"
    assert (
        client.post(
            hands, {**HAND, "scored_by": seats[0], "confirmed_by": seats[1]}, format="json"
        ).status_code
        == 201
    )
    etag = client.get(f"/api/games/{game['id']}/")["ETag"]
    unaccepted = client.put(
        f"{hands}1/", {**CORRECTED, "scored_by": seats[1]}, format="json", HTTP_IF_MATCH=etag
    )
    assert _error(unaccepted) == (400, "confirmation_required", "/confirmed_by")
    # Seán (side 1) enters the correction: Mary (side 0) accepts it, not Seán's first acceptance.
    corrected = client.put(
        f"{hands}1/",
        {**CORRECTED, "scored_by": seats[1], "confirmed_by": seats[0]},
        format="json",
        HTTP_IF_MATCH=etag,
    )
    assert corrected.status_code == 200, corrected.json()
    hand = Hand.objects.get(number=1)
    assert (hand.scored_by_id, hand.confirmed_by_id) == (seats[1], seats[0])
    etag = corrected["ETag"]
    refused = client.delete(f"{hands}1/", HTTP_IF_MATCH=etag)
    assert _error(refused) == (400, "confirmation_required", "/confirmed_by")
    undone = client.delete(
        f"{hands}1/",
        {"scored_by": seats[0], "confirmed_by": seats[3]},
        format="json",
        HTTP_IF_MATCH=etag,
    )
    assert undone.status_code == 200, undone.json()
    assert Hand.objects.count() == 0

    # The audit: each version of hand 1 with who entered it, who accepted it, and when.
    history = table.client("organiser").get(f"/api/games/{game['id']}/history/").json()["results"]
    rows = [
        (entry["action"], entry["scored_by"]["name"], entry["accepted_by"]["name"])
        for entry in history
        if entry["object"] == "hand"
    ]
    names = {seat["player"]["id"]: seat["player"]["name"] for seat in game["seats"]}
    assert rows == [
        ("created", names[seats[0]], names[seats[1]]),
        ("changed", names[seats[1]], names[seats[0]]),
        ("deleted", names[seats[0]], names[seats[3]]),
    ]
    assert all(entry["at"] and entry["by"] for entry in history if entry["object"] == "hand")


def test_the_organisers_console_entry_stands_as_the_acceptance(setup):
    table, game, client, seats = setup
    organiser = table.world.users["organiser"]
    hand, _ = services.record_hand(
        game_id=game["id"], user=organiser, record=HAND, organiser_entry=True
    )
    assert (hand.accepted_by_organiser, hand.confirmed_by, hand.entered_by) == (
        organiser,
        None,
        organiser,
    )
    # A scorekeeper's entry is not an organiser's; nor is one through a table link.
    with pytest.raises(Problem) as refused:
        services.undo_last_hand(
            game_id=game["id"],
            number=1,
            user=table.world.users["scorekeeper"],
            if_match=None,
            organiser_entry=True,
        )
    assert refused.value.status_code == 403
    with pytest.raises(Problem) as through_link:
        services.undo_last_hand(
            game_id=game["id"],
            number=1,
            user=organiser,
            if_match=None,
            organiser_entry=True,
            table_link_id=1,
        )
    assert through_link.value.status_code == 403
    body = table.client("organiser").get(f"/api/games/{game['id']}/hands/1/").json()
    assert body["accepted_by_organiser"]["username"] == organiser.get_username()
