"""A player's page, the "this is me" pick on the club page, and the "tonight" panel it enables.

The player page (``/clubs/<slug>/players/<id>/``) shows results, games, events and, for members
only, the balance over time as a server-drawn SVG chart. A visitor picks their name on the club
page (``?player=<id>``): a cookie remembers it and the event pages show that player's panel; an
unknown id is a 400 problem, ``?player=`` forgets.
"""

from __future__ import annotations

import re

import pytest

from tests.pages.html import items, parse, text_of
from web.pages.players import balance_chart

pytestmark = pytest.mark.django_db


def player_url(seed, name: str, club: str = "kilkenny") -> str:
    return f"/clubs/{club}/players/{seed.players[name].pk}/"


def test_a_players_page_shows_results_games_events_and_their_balance(seed, client_for):
    html = client_for("pat").get(player_url(seed, "Ann")).content

    # Finished games only: the final is still being played.
    assert text_of(html, "results") == "Games played 2 Won 2 Lost 0"
    assert items(html, "events") == [
        "Winter Cup In progress Twenty-Five · won 1 table of 1",
    ]
    cards = items(html, "games")
    assert [re.match(r".*? \d+ hands?", card).group(0) for card in cards] == [
        "Winter Cup · Final · table 1 In progress Ann 10 – 15 Bill 1 hand",
        "Winter Cup · Semi-finals · table 1 Won Ann 25 – 0 Dan 1 hand",
        "Twenty-Five Won Ann & Cait 25 – 20 Bill & Pat 2 hands",
    ]
    # Each rated game says the rating it left her with (the final is not finished: not rated).
    from seasons.models import RatingChange

    after = {
        change.game_id: f"{change.ordinal:.1f}"
        for change in RatingChange.objects.filter(player=seed.players["Ann"])
    }
    assert [card.partition("rating after: ")[2] or None for card in cards] == [
        None,
        after[seed.games["semi_final_1"].pk],
        after[seed.games["twenty_five"].pk],
    ]
    assert text_of(html, "rating-history") == (
        "After each of the last 2 rated games, oldest first: "
        f"{after[seed.games['twenty_five'].pk]} → {after[seed.games['semi_final_1'].pk]}."
    )
    # Ann received 0.20 (the first game) and then 0.10 from Dan (the semi-final, doubled: 0.20).
    assert text_of(html, "balance-summary") == (
        "Now +€0.40 after 2 stakes (lowest €0.00, highest +€0.40)."
    )
    chart = parse(html).by_id("balance-chart")
    line = chart.find_all(lambda element: element.tag == "polyline")[0]
    assert line.attributes["points"] == "8.0,112.0 160.0,60.0 312.0,8.0"


def test_money_stays_with_the_members(seed, client_for):
    html = client_for(None).get(player_url(seed, "Cara", "callan")).content

    assert text_of(html, "results") == "Games played 1 Won 1 Lost 0"
    assert "balance" not in html.decode()
    # A private club's player does not exist for an outsider.
    assert client_for("olive").get(player_url(seed, "Ann")).status_code == 404


def test_balance_chart_spacing_and_scale():
    class Club:
        minor_unit_exponent = 2
        currency = "EUR"

    assert balance_chart([], Club()) is None
    chart = balance_chart([(None, -50), (None, 100)], Club())
    # Balances 0, -0.50, +0.50 in a 320 x 120 box with a margin of 8: the lowest on the bottom
    # edge (y 112), the highest on the top (y 8), zero half way (8 + 104 / 2 = 60).
    assert chart["points"] == "8.0,60.0 160.0,112.0 312.0,8.0"
    assert chart["zero_y"] == "60.0"  # text made in Python: never localised
    assert (chart["final"], chart["lowest"], chart["highest"]) == ("+€0.50", "-€0.50", "+€0.50")


def test_a_visitor_picks_their_name_and_the_event_page_shows_their_table(seed, client_for):
    client = client_for(None)
    cara = seed.players["Cara"]
    response = client.get(f"/clubs/callan/?player={cara.pk}")

    assert response.status_code == 200
    assert response.cookies["jink_player_callan"].value == str(cara.pk)
    assert text_of(response.content, "picked") == "Remembered: you are Cara."

    from tests.pages.test_tournament_pages import draw

    tournament = seed.tournaments["open_drive"]
    draw(tournament, seed.users["cara"])
    html = client.get(f"/clubs/callan/tournaments/{tournament.pk}/").content
    # Cara has the bye of round 1.
    assert text_of(html, "tonight-title") == "Tonight for Cara"
    assert text_of(html, "tonight-table") == "Round 1: table 2, seat 1 See the table"
    assert text_of(html, "tonight-place") == "Place 1 of 3 · 0 points"

    forget = client.get("/clubs/callan/?player=")
    assert forget.cookies["jink_player_callan"].value == ""
    html = client.get(f"/clubs/callan/tournaments/{tournament.pk}/").content
    assert "tonight" not in [
        element.attributes.get("id")
        for element in parse(html).find_all(lambda element: element.tag == "section")
    ]


def test_an_unknown_pick_is_a_problem(seed, client_for):
    response = client_for(None).get(f"/clubs/callan/?player={seed.players['Ann'].pk}")

    assert response.status_code == 400
    assert response["Content-Type"] == "application/problem+json"
    assert response.json()["code"] == "unknown_player"


def test_the_tonight_panel_in_a_knockout_names_the_next_table(seed, client_for):
    # Ann won her semi-final: the panel shows the final (the current round) against Bill.
    from clubs.models import Player

    Player.objects.filter(pk=seed.players["Ann"].pk).update(user=seed.users["olive"])
    from clubs.models import Membership, Role

    Membership.objects.create(
        club=seed.clubs["kilkenny"], user=seed.users["olive"], role=Role.PLAYER
    )
    html = (
        client_for("olive")
        .get(f"/clubs/kilkenny/tournaments/{seed.tournaments['cup'].pk}/")
        .content
    )

    assert text_of(html, "tonight-table") == "Final: table 1, seat 1 See the table"
    assert text_of(html, "tonight-opponents") == "Against Bill"
    assert text_of(html, "tonight-score-1") == "Ann 10 – 15 Bill"
    assert text_of(html, "tonight-place") == "Place 1 of 4 · 25 points"
    # Her row of the standings and her table are highlighted.
    root = parse(html)
    mine = root.find_all(
        lambda element: (
            element.tag == "tr" and "me" in element.classes and "entrant-row" in element.classes
        )
    )
    assert [row.text() for row in mine][0].startswith("1 Ann (you)")
    assert "mine" in root.by_id("round-2-table-1").classes


def test_a_semi_final_winner_is_told_where_to_go_next(seed, client_for):
    from clubs.models import Membership, Player, Role
    from tournaments import services

    players = seed.players
    tournament = services.create_tournament(
        club=seed.clubs["kilkenny"],
        user=seed.users["orla"],
        values={"name": "Spring Cup", "game": "25", "format": "knockout", "lots_seed": 5},
        entrants=[
            {"player": players[name].pk, "seed": number}
            for number, name in enumerate(["Eve", "Finn", "Gus", "Dan"], start=1)
        ],
    )
    from tests.pages.seed import play_hands
    from tests.pages.test_tournament_pages import draw

    draw(tournament, seed.users["orla"])
    Player.objects.filter(pk=players["Eve"].pk).update(user=seed.users["olive"])
    Membership.objects.create(
        club=seed.clubs["kilkenny"], user=seed.users["olive"], role=Role.PLAYER
    )
    from games.models import Game

    table_one = Game.objects.get(
        match_link__match__tournament=tournament, match_link__match__table=1
    )
    eve_seat = next(
        seat.seat for seat in table_one.seats.all() if seat.player_id == players["Eve"].pk
    )
    play_hands(
        table_one,
        seed.users["sean"],
        [
            {"dealer": 0, "trump": "S", "trick_winners": [eve_seat] * 5},
        ],
    )

    html = client_for("olive").get(f"/clubs/kilkenny/tournaments/{tournament.pk}/").content

    assert text_of(html, "tonight-table").startswith("Semi-finals: table 1")
    assert text_of(html, "tonight-next") == "Next: round 2, table 1."
