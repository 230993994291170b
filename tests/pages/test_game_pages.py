"""One game's page (``/clubs/<slug>/games/<id>/``) and the balances page (``…/balances/``)."""

from __future__ import annotations

import pytest

from tests.pages.html import items, links, parse, table_rows, text_of
from tests.pages.seed import play_hands, start_game

pytestmark = pytest.mark.django_db


def game_url(game) -> str:
    return f"/clubs/{game.club.slug}/games/{game.pk}/"


def hand_cards(html) -> list[str]:
    """Each hand's card, newest first: "Hand 2 ♥ hearts dealt by Ann [Corrected|Undone]
    Ann & Cait 25 (+10) – (+10) 20 Bill & Pat" — each side named with its running total and, in
    brackets, the hand's points — then what else happened and who corrected or undid it."""
    return [text for text in items(html, "hand-list") if text.startswith("Hand ")]


def test_a_finished_game_shows_sides_winner_stake_and_every_hand_with_running_totals(
    seed, client_for
):
    game = seed.games["twenty_five"]
    response = client_for("pat").get(game_url(game))

    assert response.status_code == 200
    html = response.content
    assert text_of(html, "game-status") == "Finished Won by Ann & Cait"
    assert text_of(html, "score") == "Ann & Cait 25 – 20 Bill & Pat"
    assert text_of(html, "stake") == "€0.20 a head"
    assert "double-stake" not in html.decode()
    assert items(html, "sides") == [
        "Ann & Cait ✓ 25 Seat 1: Ann Seat 3: Cait",
        "Seat 1: Ann",
        "Seat 3: Cait",
        "Bill & Pat 20 Seat 2: Bill Seat 4: Pat",
        "Seat 2: Bill",
        "Seat 4: Pat",
    ]
    assert hand_cards(html) == [
        "Hand 2 ♥ hearts dealt by Ann Ann & Cait 25 (+10) – (+10) 20 Bill & Pat",
        "Hand 1 ♠ spades dealt by Pat Ann & Cait 15 (+15) – (+10) 10 Bill & Pat",
    ]
    # Every seated player links to their page.
    for name in ("Ann", "Bill", "Cait", "Pat"):
        assert f"/clubs/kilkenny/players/{seed.players[name].pk}/" in links(html)


def test_a_jink_doubles_the_stake_and_the_game_links_its_tournament_match(seed, client_for):
    game = seed.games["semi_final_1"]
    html = client_for("pat").get(game_url(game)).content

    assert text_of(html, "game-status") == "Finished Won by Ann"
    assert text_of(html, "stake") == "€0.10 a head, doubled: €0.20"
    assert text_of(html, "double-stake") == "Yes"
    assert text_of(html, "tournament-link") == "Winter Cup · Semi-finals, table 1"
    assert f"/clubs/kilkenny/tournaments/{seed.tournaments['cup'].pk}/" in links(html)
    assert hand_cards(html) == ["Hand 1 ♠ spades dealt by Ann Ann 25 (+25) – (0) 0 Dan"]


def test_a_game_in_progress_shows_the_next_dealer_and_the_best_trump_of_each_hand(seed, client_for):
    game = seed.games["forty_five"]
    html = client_for("pat").get(game_url(game)).content

    assert text_of(html, "game-status") == "In progress Next dealer: Finn"
    assert text_of(html, "stake") == "None"
    # A game in progress is polled: the live region carries its interval and entity tag.
    live = parse(html).by_id("live")
    assert live.attributes["data-poll"] == "15"
    assert live.attributes["data-etag"].startswith('W/"')
    assert hand_cards(html) == [
        "Hand 2 ♦ diamonds dealt by Eve Dan & Finn 30 (+15) – (+15) 30 Eve & Gus Best trump: Gus",
        "Hand 1 ♣ clubs dealt by Dan Dan & Finn 15 (+15) – (+15) 15 Eve & Gus Best trump: Dan",
    ]


def test_misdeals_bids_reneges_and_robs_are_written_out(seed, client_for):
    club = seed.clubs["kilkenny"]
    players = seed.players
    scorekeeper = seed.users["sean"]
    seats = [players["Ann"], players["Bill"], players["Cait"], players["Dan"]]
    auction = start_game(club, scorekeeper, "auction45", seats, teams=[[0, 2], [1, 3]])
    play_hands(
        auction,
        scorekeeper,
        [
            {"dealer": 0, "misdeal": True},
            {
                "dealer": 0,
                "trump": "H",
                "trick_winners": [1, 1, 3, 0, 1],
                "best_trump": {"seat": 1, "trick": 0},
                "bid": {"seat": 1, "amount": 20},
            },
            {
                "dealer": 1,
                "trump": "S",
                "trick_winners": [0, 0, 3, 3, 3],
                "best_trump": {"seat": 3, "trick": 2},
                "bid": {"seat": 0, "amount": 20},
            },
        ],
    )
    forty_five = start_game(club, scorekeeper, "45", seats, teams=[[0, 2], [1, 3]])
    play_hands(
        forty_five,
        scorekeeper,
        [
            {
                "dealer": 0,
                "trump": "H",
                "renege": {"seat": 1, "trick": 3},
                "trick_winners": [1, 1, 0, 2, 1],
                "best_trump": {"seat": 0, "trick": 2},
                "rob": {"seat": 0},
            },
        ],
    )
    client = client_for("pat")

    assert hand_cards(client.get(game_url(auction)).content) == [
        "Hand 3 ♠ spades dealt by Bill Ann & Cait -15 (-20) – (+20) 45 Bill & Dan "
        "Ann bid 20: failed; Best trump: Dan",
        "Hand 2 ♥ hearts dealt by Ann Ann & Cait 5 (+5) – (+25) 25 Bill & Dan "
        "Bill bid 20: made; Best trump: Bill",
        "Hand 1 dealt by Ann Ann & Cait 0 (0) – (0) 0 Bill & Dan Misdeal: no score",
    ]
    assert hand_cards(client.get(game_url(forty_five)).content) == [
        "Hand 1 ♥ hearts dealt by Ann Ann & Cait 15 (+15) – (0) 0 Bill & Dan "
        "Renege: Bill (trick 4); Best trump: Ann; Ann robbed",
    ]


def test_corrections_and_undos_are_shown_in_the_hand_list(seed, client_for):
    from django.test import TestCase

    from games import services

    game = start_game(
        seed.clubs["kilkenny"], seed.users["sean"], "25", [seed.players["Eve"], seed.players["Gus"]]
    )
    play_hands(
        game,
        seed.users["sean"],
        [
            {"dealer": 0, "trump": "S", "trick_winners": [0, 0, 1, 1, 1]},
            {"dealer": 1, "trump": "C", "trick_winners": [1, 1]},  # Gus reaches 25
        ],
    )
    game.refresh_from_db()
    with TestCase.captureOnCommitCallbacks(execute=True):
        services.undo_last_hand(
            game_id=game.pk, number=2, user=seed.users["sean"], if_match=game.etag
        )
    game.refresh_from_db()
    with TestCase.captureOnCommitCallbacks(execute=True):
        services.correct_hand(
            game_id=game.pk,
            number=1,
            user=seed.users["sean"],
            record={"dealer": 0, "trump": "S", "trick_winners": [0, 0, 0, 1, 1]},
            if_match=game.etag,
        )

    cards = hand_cards(client_for("pat").get(game_url(game)).content)

    assert [card.split(", ")[0] for card in cards] == [
        "Hand 2 ♣ clubs dealt by Gus Undone Eve 10 (0) – (+10) 25 Gus Undone by sean",
        "Hand 1 ♠ spades dealt by Eve Corrected Eve 15 (+15) – (+10) 10 Gus Corrected by sean",
    ]


def test_a_game_with_no_hand_says_so(seed, client_for):
    game = start_game(
        seed.clubs["kilkenny"], seed.users["sean"], "25", [seed.players["Eve"], seed.players["Gus"]]
    )
    html = client_for("pat").get(game_url(game)).content

    assert text_of(html, "hands") == "Hand by hand No hand recorded yet."
    assert text_of(html, "game-status") == "In progress Next dealer: Eve"


def test_a_public_clubs_game_of_a_private_tournament_does_not_link_the_tournament(seed, client_for):
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
