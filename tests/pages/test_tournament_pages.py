"""A tournament's page (``/clubs/<slug>/tournaments/<id>/``): standings, rounds, tables, games."""

from __future__ import annotations

import pytest
from django.test import TestCase

from tests.pages.html import Element, links, parse, table_rows, text_of
from tests.pages.seed import play_hands
from tournaments.draw.ranking import lot

pytestmark = pytest.mark.django_db


def tournament_url(tournament) -> str:
    return f"/clubs/{tournament.club.slug}/tournaments/{tournament.pk}/"


def draw(tournament, user) -> None:
    from tournaments import services

    with TestCase.captureOnCommitCallbacks(execute=True):
        services.draw_next_round(tournament_id=tournament.pk, user=user)


def winners_of(html, element_id: str) -> list[str]:
    table: Element = parse(html).by_id(element_id)
    return [
        item.find_all(lambda element: "entrant-name" in element.classes)[0].text()
        for item in table.find_all(lambda element: element.tag == "li")
        if "winner" in item.classes
    ]


def test_standings_rank_the_entrants_with_their_figures(seed, client_for):
    response = client_for("pat").get(tournament_url(seed.tournaments["cup"]))

    assert response.status_code == 200
    html = response.content
    assert table_rows(html, "standings-table", section="thead") == [
        ["#", "Player", "P", "W", "D", "L", "Pts", "G", "For", "+/−"]
    ]
    assert table_rows(html, "standings-table") == [
        ["1", "Ann", "1", "1", "0", "0", "2", "1", "25", "25"],
        ["2", "Bill", "1", "1", "0", "0", "2", "1", "25", "15"],
        ["3", "Cait", "1", "0", "0", "1", "0", "0", "10", "-15"],
        ["4", "Dan", "1", "0", "0", "1", "0", "0", "0", "-25"],
    ]
    assert "Ties broken by match wins, games won, points difference, lots." in text_of(
        html, "standings"
    )
    assert "tournament-winners" not in html.decode()


def test_the_bracket_shows_rounds_tables_entrants_winners_and_games(seed, client_for):
    games = seed.games
    html = client_for("pat").get(tournament_url(seed.tournaments["cup"])).content

    assert text_of(html, "round-1") == (
        "Semi-finals Complete "
        "Table 1 Decided Ann ✓ 1 won · 25 pts Dan 0 won · 0 pts Game 1: 25–0 (finished) "
        "Table 2 Decided Bill ✓ 1 won · 25 pts Cait 0 won · 10 pts Game 1: 25–10 (finished)"
    )
    assert winners_of(html, "round-1-table-1") == ["Ann"]
    assert winners_of(html, "round-1-table-2") == ["Bill"]
    # The final is under way: no winner yet, and no figures until it is decided.
    assert text_of(html, "round-2") == (
        "Final In progress Table 1 In progress Ann Bill Game 1: 10–15 (in progress)"
    )
    assert winners_of(html, "round-2-table-1") == []
    page_links = links(html)
    for name in ("semi_final_1", "semi_final_2", "final"):
        assert f"/clubs/kilkenny/games/{games[name].pk}/" in page_links


def test_a_decided_final_crowns_the_champion(seed, client_for):
    play_hands(seed.games["final"], seed.users["sean"], [
        {"dealer": 1, "trump": "S", "trick_winners": [0, 0, 0]},
    ])

    html = client_for("pat").get(tournament_url(seed.tournaments["cup"])).content

    assert text_of(html, "tournament-winners") == "Winner: Ann"
    assert winners_of(html, "round-2-table-1") == ["Ann"]
    assert text_of(html, "round-2").startswith("Final Complete Table 1 Decided Ann ✓ 1 won")
    rows = table_rows(html, "standings-table")
    assert [row[:2] for row in rows] == [["1", "Ann"], ["2", "Bill"], ["3", "Cait"], ["4", "Dan"]]
    highlighted = [
        row.text()
        for row in parse(html).by_id("standings-table").find_all(
            lambda element: element.tag == "tr" and "winner" in element.classes
        )
    ]
    assert highlighted == ["1 Ann 2 2 0 0 4 2 50 35"]


def test_a_walkover_and_a_table_still_waiting_for_its_entrants(seed, client_for):
    from tournaments import services

    players = seed.players
    tournament = services.create_tournament(
        club=seed.clubs["kilkenny"], user=seed.users["orla"],
        values={"name": "Three Way", "game": "25", "format": "knockout", "lots_seed": 1},
        entrants=[
            {"player": players[name].pk, "seed": seed_number}
            for seed_number, name in enumerate(["Eve", "Finn", "Gus"], start=1)
        ],
    )
    draw(tournament, seed.users["orla"])

    html = client_for("pat").get(tournament_url(tournament)).content

    assert text_of(html, "round-1") == (
        "Semi-finals In progress Table 1 Walkover Eve ✓ "
        "Table 2 In progress Finn Gus Game 1: 0–0 (in progress)"
    )
    assert text_of(html, "round-2") == (
        "Final Not started Table 1 Waiting Waiting for the earlier round"
    )


def test_a_round_robin_with_a_bye(seed, client_for):
    tournament = seed.tournaments["open_drive"]
    html = client_for(None).get(tournament_url(tournament)).content
    assert text_of(html, "rounds") == "Rounds No round drawn yet."

    draw(tournament, seed.users["cara"])
    html = client_for(None).get(tournament_url(tournament)).content

    assert text_of(html, "round-1") == (
        "Round 1 In progress Table 1 In progress Declan Eoin Game 1: 0–0 (in progress) "
        "Table 2 Bye Cara ✓"
    )
    # Declan and Eoin are level on everything, so the drawing of lots orders them: its number
    # comes from the tournament's stored seed and the entrant's id, which the database assigns.
    entrant_ids = {
        entrant.player.display_name: entrant.pk
        for entrant in tournament.entrants.select_related("player")
    }
    second, third = sorted(
        ["Declan", "Eoin"],
        key=lambda name: lot(tournament.lots_seed, entrant_ids[name]),
        reverse=True,
    )
    assert table_rows(html, "standings-table") == [
        ["1", "Cara", "0", "1", "0", "0", "2", "0", "0", "0"],
        ["2", second, "0", "0", "0", "0", "0", "0", "0", "0"],
        ["3", third, "0", "0", "0", "0", "0", "0", "0", "0"],
    ]


def test_a_public_tournament_of_a_private_club_shows_no_club_or_game_links_to_visitors(
    seed, client_for
):
    from tournaments.models import Tournament

    cup = seed.tournaments["cup"]
    Tournament.objects.filter(pk=cup.pk).update(is_public=True)

    response = client_for(None).get(tournament_url(cup))

    assert response.status_code == 200
    html = response.content
    assert table_rows(html, "standings-table")[0][:2] == ["1", "Ann"]
    # The club and its games stay private: shown as text, never linked.
    assert not [link for link in links(html) if link.startswith("/clubs/")]
    assert "Game 1: 25–0 (finished)" in text_of(html, "round-1")
