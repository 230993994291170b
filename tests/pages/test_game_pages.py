"""One game's page (``/clubs/<slug>/games/<id>/``) and the balances page (``…/balances/``)."""

from __future__ import annotations

import pytest

from tests.pages.html import items, links, table_rows, text_of
from tests.pages.seed import play_hands, start_game

pytestmark = pytest.mark.django_db


def game_url(game) -> str:
    return f"/clubs/{game.club.slug}/games/{game.pk}/"


def test_a_finished_game_shows_sides_winner_stake_and_every_hand_with_running_totals(
    seed, client_for
):
    game = seed.games["twenty_five"]
    response = client_for("pat").get(game_url(game))

    assert response.status_code == 200
    html = response.content
    assert text_of(html, "game-status") == "Finished Won by Ann & Cait"
    assert text_of(html, "stake") == "€0.20 a head"
    assert "double-stake" not in html.decode()
    assert items(html, "sides") == [
        "Ann & Cait 25 Seat 1: Ann Seat 3: Cait", "Seat 1: Ann", "Seat 3: Cait",
        "Bill & Pat 20 Seat 2: Bill Seat 4: Pat", "Seat 2: Bill", "Seat 4: Pat",
    ]
    # Dealer, trumps, then each side's points in the hand and its running total.
    assert table_rows(html, "hands-table", section="thead") == [
        ["#", "Dealer", "Trumps", "Ann & Cait", "Bill & Pat"]
    ]
    assert table_rows(html, "hands-table") == [
        ["1", "Pat", "♠", "+15 15", "+10 10"],
        ["2", "Ann", "♥", "+10 25", "+10 20"],
    ]
    assert table_rows(html, "hands-table", section="tfoot") == [["Total", "25", "20"]]


def test_a_jink_doubles_the_stake_and_the_game_links_its_tournament_match(seed, client_for):
    game = seed.games["semi_final_1"]
    html = client_for("pat").get(game_url(game)).content

    assert text_of(html, "game-status") == "Finished Won by Ann"
    assert text_of(html, "stake") == "€0.10 a head, doubled: €0.20"
    assert text_of(html, "double-stake") == "Yes"
    assert text_of(html, "tournament-link") == "Winter Cup · Semi-finals, table 1"
    assert f"/clubs/kilkenny/tournaments/{seed.tournaments['cup'].pk}/" in links(html)
    assert table_rows(html, "hands-table") == [["1", "Ann", "♠", "+25 25", "0 0"]]


def test_a_game_in_progress_shows_the_next_dealer_and_the_best_trump_of_each_hand(
    seed, client_for
):
    game = seed.games["forty_five"]
    html = client_for("pat").get(game_url(game)).content

    assert text_of(html, "game-status") == "In progress Next dealer: Finn"
    assert text_of(html, "stake") == "None"
    assert table_rows(html, "hands-table", section="thead") == [
        ["#", "Dealer", "Trumps", "Dan & Finn", "Eve & Gus"]
    ]
    # What else happened in a hand is on a line of its own under it.
    assert table_rows(html, "hands-table") == [
        ["1", "Dan", "♣", "+15 15", "+15 15"],
        ["Best trump: Dan"],
        ["2", "Eve", "♦", "+15 30", "+15 30"],
        ["Best trump: Gus"],
    ]


def test_misdeals_bids_reneges_and_robs_are_written_out(seed, client_for):
    club = seed.clubs["kilkenny"]
    players = seed.players
    scorekeeper = seed.users["sean"]
    seats = [players["Ann"], players["Bill"], players["Cait"], players["Dan"]]
    auction = start_game(club, scorekeeper, "auction45", seats, teams=[[0, 2], [1, 3]])
    play_hands(auction, scorekeeper, [
        {"dealer": 0, "misdeal": True},
        {"dealer": 0, "trump": "H", "trick_winners": [1, 1, 3, 0, 1],
         "best_trump": {"seat": 1, "trick": 0}, "bid": {"seat": 1, "amount": 20}},
        {"dealer": 1, "trump": "S", "trick_winners": [0, 0, 3, 3, 3],
         "best_trump": {"seat": 3, "trick": 2}, "bid": {"seat": 0, "amount": 20}},
    ])
    forty_five = start_game(club, scorekeeper, "45", seats, teams=[[0, 2], [1, 3]])
    play_hands(forty_five, scorekeeper, [
        {"dealer": 0, "trump": "H", "renege": {"seat": 1, "trick": 3},
         "trick_winners": [1, 1, 0, 2, 1], "best_trump": {"seat": 0, "trick": 2},
         "rob": {"seat": 0}},
    ])
    client = client_for("pat")

    assert table_rows(client.get(game_url(auction)).content, "hands-table") == [
        ["1", "Ann", "–", "0 0", "0 0"],
        ["Misdeal: no score"],
        ["2", "Ann", "♥", "+5 5", "+25 25"],
        ["Bill bid 20: made; Best trump: Bill"],
        ["3", "Bill", "♠", "-20 -15", "+20 45"],
        ["Ann bid 20: failed; Best trump: Dan"],
    ]
    assert table_rows(client.get(game_url(forty_five)).content, "hands-table") == [
        ["1", "Ann", "♥", "+15 15", "0 0"],
        ["Renege: Bill (trick 4); Best trump: Ann; Ann robbed"],
    ]


def test_a_game_with_no_hand_says_so(seed, client_for):
    game = start_game(
        seed.clubs["kilkenny"], seed.users["sean"], "25", [seed.players["Eve"], seed.players["Gus"]]
    )
    html = client_for("pat").get(game_url(game)).content

    assert text_of(html, "hands") == "Hand by hand No hand recorded yet."
    assert text_of(html, "game-status") == "In progress Next dealer: Eve"


def test_a_public_clubs_game_of_a_private_tournament_does_not_link_the_tournament(
    seed, client_for
):
    from tournaments.models import Tournament

    Tournament.objects.filter(pk=seed.tournaments["cup"].pk).update(is_public=False)
    kilkenny = seed.clubs["kilkenny"]
    type(kilkenny).objects.filter(pk=kilkenny.pk).update(public_standings=True)
    game = seed.games["final"]

    html = client_for(None).get(game_url(game)).content

    assert text_of(html, "tournament-link") == "Winter Cup · Final, table 1"
    assert not [link for link in links(html) if "/tournaments/" in link]


def test_balances_show_each_players_net_and_the_transfers_that_settle_them(seed, client_for):
    response = client_for("pat").get("/clubs/kilkenny/balances/")

    assert response.status_code == 200
    html = response.content
    assert items(html, "transfers") == [
        "Dan pays Ann €0.20",
        "Pat pays Ann €0.20",
        "Bill pays Cait €0.10",
    ]
    assert table_rows(html, "balances-table") == [
        ["Ann", "+€0.40", "receives"],
        ["Bill", "-€0.10", "pays"],
        ["Cait", "+€0.10", "receives"],
        ["Dan", "-€0.20", "pays"],
        ["Pat (you)", "-€0.20", "pays"],
    ]


def test_balances_use_the_clubs_currency_and_minor_unit(seed, client_for):
    callan = seed.clubs["callan"]
    type(callan).objects.filter(pk=callan.pk).update(currency="JPY")
    # 200, -100, -100 minor units are 200, -100, -100 yen (no decimals) in a JPY club.

    html = client_for("cara").get("/clubs/callan/balances/").content

    assert table_rows(html, "balances-table") == [
        ["Cara (you)", "+200 JPY", "receives"],
        ["Declan", "-100 JPY", "pays"],
        ["Eoin", "-100 JPY", "pays"],
    ]
    assert items(html, "transfers") == [
        "Declan pays Cara 100 JPY",
        "Eoin pays Cara 100 JPY",
    ]


def test_balances_of_a_club_without_stakes_say_nobody_owes_anybody(seed, client_for):
    from games.models import LedgerEntry

    LedgerEntry.objects.filter(club=seed.clubs["callan"]).delete()

    html = client_for("cara").get("/clubs/callan/balances/").content

    assert text_of(html, "transfers") == "To settle up Nobody owes anybody."
    assert text_of(html, "balances") == "Balances No stakes booked yet."
