"""A night's exchange file costs a fixed number of queries, however many games and hands it
holds (the archive's readers: one query per kind of row)."""

from __future__ import annotations

import pytest

from tests.exchange.helpers import played_night
from tests.helpers import count_queries
from tests.tournaments.play_helpers import build_event, win_game

pytestmark = pytest.mark.django_db


def test_a_night_of_three_games_costs_what_a_night_of_one_does():
    home = build_event(players=4)
    big = played_night(home, "Three games")
    small = home.ok(
        "post",
        f"/api/clubs/{home.club.slug}/nights/",
        {"name": "One game", "entry_fee": "2.50", "prize_split": [100]},
        status=201,
    )
    ann, bill = home.players[:2]
    game = home.ok(
        "post",
        f"/api/nights/{small['id']}/games/",
        {"game": "25", "seats": [ann.pk, bill.pk], "table": 1, "first_dealer": 0, "stake": "0.20"},
        status=201,
    )
    win_game(home, game["id"], 0)
    home.ok(
        "post", f"/api/nights/{small['id']}/fees/", {"player": ann.pk, "status": "cash"}, status=201
    )
    home.ok("post", f"/api/nights/{small['id']}/close/")
    client = home.client()
    client.get(f"/api/nights/{small['id']}/exchange/")  # the site's key is made once, here
    one = count_queries(client.get, f"/api/nights/{small['id']}/exchange/")
    three = count_queries(client.get, f"/api/nights/{big['id']}/exchange/")
    assert len(one.response.json()["games"]) == 1
    assert len(three.response.json()["games"]) == 3
    assert one.count == three.count == 19
