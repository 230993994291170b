"""A tournament's page (``/clubs/<slug>/tournaments/<id>/``): standings, rounds, tables, games."""

from __future__ import annotations

import pytest

from tests.pages.html import Element, links, parse, table_rows, text_of
from tests.pages.seed import draw, play_hands
from tournaments.draw.ranking import lot

pytestmark = pytest.mark.django_db


def tournament_url(tournament) -> str:
    return f"/clubs/{tournament.club.slug}/tournaments/{tournament.pk}/"


def winners_of(html, element_id: str) -> list[str]:
    table: Element = parse(html).by_id(element_id)
    return [
        item.find_all(lambda element: "entrant-name" in element.classes)[0].text()
        for item in table.find_all(lambda element: element.tag == "li")
        if "winner" in item.classes
    ]


def entrant_rows(html) -> list[list[str]]:
    """The standings' entrant rows (each is followed by its detail row and maybe a note), as a
    wide screen shows them (a knockout's round reached in its own column, not under the name)."""
    table = parse(html).by_id("standings-table")
    return [
        [cell_text(cell) for cell in row.children if isinstance(cell, Element)]
        for row in table.find_all(
            lambda element: element.tag == "tr" and "entrant-row" in element.classes
        )
    ]


def cell_text(cell: Element) -> str:
    return " ".join(
        " ".join(
            (child if isinstance(child, str) else child.text())
            for child in cell.children
            if isinstance(child, str) or "stage-under" not in child.classes
        ).split()
    )


def notes(html) -> list[str]:
    table = parse(html).by_id("standings-table")
    return [
        row.text()
        for row in table.find_all(lambda element: element.tag == "tr" and "why" in element.classes)
    ]


def test_standings_show_the_deciding_figures_first_and_explain_each_tie(seed, client_for):
    response = client_for("pat").get(tournament_url(seed.tournaments["cup"]))

    assert response.status_code == 200
    html = response.content
    # A knockout ranks by the round reached, then by its chain (match wins, games won, points
    # difference, lots): those figures show; the others wait behind "All figures" (columns on a
    # wide screen, a detail row under each entrant on a phone).
    assert table_rows(html, "standings-table", section="thead") == [
        ["#", "Player", "Reached", "W", "G", "+/−", "P", "D", "L", "Pts", "For"]
    ]
    assert entrant_rows(html) == [
        ["1", "Ann", "Final", "1", "1", "25", "1", "0", "0", "2", "25"],
        ["2", "Bill", "Final", "1", "1", "15", "1", "0", "0", "2", "25"],
        ["3", "Cait", "Semi-finals", "0", "0", "-15", "1", "0", "1", "0", "10"],
        ["4", "Dan", "Semi-finals", "0", "0", "-25", "1", "0", "1", "0", "0"],
    ]
    extra = [
        element.text()
        for element in parse(html)
        .by_id("standings-table")
        .find_all(lambda element: element.tag == "th" and "extra" in element.classes)
    ]
    assert extra == ["P", "D", "L", "Pts", "For"]
    assert text_of(html, "standings-more") == (
        "All figures W Matches won G Games won +/− Points difference P Matches played "
        "D Matches drawn L Matches lost Pts Match points For Points scored"
    )
    assert notes(html) == [
        "Level with Ann on match wins and games won; split by points difference (25 to 15).",
        "Level with Cait on match wins and games won; split by points difference (-15 to -25).",
    ]
    # The figure that put each entrant below the one above is marked: Bill's and Dan's points
    # difference, Cait's match wins.
    deciders = [
        cell.text()
        for cell in parse(html)
        .by_id("standings-table")
        .find_all(lambda element: element.tag == "td" and "decider" in element.classes)
    ]
    assert deciders == ["15", "0", "-25"]
    details = [
        row.text()
        for row in parse(html)
        .by_id("standings-table")
        .find_all(lambda element: element.tag == "tr" and "detail" in element.classes)
    ]
    assert details[0] == (
        "Matches played 1 Matches drawn 0 Matches lost 0 Match points 2 Points scored 25"
    )
    assert text_of(html, "tie-breaks") == (
        "Order: match wins, games won, points difference. Entrants level on all of these share "
        "a place (=); a drawing of lots only orders them in the list."
    )
    assert "tournament-winners" not in html.decode()


def test_before_any_play_the_standings_say_not_started_and_rank_nobody(seed, client_for):
    html = client_for("cara").get(tournament_url(seed.tournaments["members_night"])).content

    assert text_of(html, "not-started") == "Not started"
    assert entrant_rows(html) == [
        ["–", "Cara (you)", "0", "0", "0", "0", "0", "0", "0", "0"],
        ["–", "Declan", "0", "0", "0", "0", "0", "0", "0", "0"],
    ]
    # Nobody is placed yet: no "All figures" and no detail rows.
    assert "standings-more" not in html.decode()
    assert 'class="detail' not in html.decode()
    assert notes(html) == []


def test_the_bracket_shows_rounds_tables_entrants_winners_and_games(seed, client_for):
    games = seed.games
    html = client_for("pat").get(tournament_url(seed.tournaments["cup"])).content

    # A table of one game shows each side's score; its title links to the game.
    assert text_of(html, "round-1") == (
        "Semi-finals Complete "
        "Table 1 Decided Ann ✓ winner 25 Dan 0 "
        "Table 2 Decided Bill ✓ winner 25 Cait 10"
    )
    assert winners_of(html, "round-1-table-1") == ["Ann"]
    assert winners_of(html, "round-1-table-2") == ["Bill"]
    # The final is under way: no winner yet, the score so far.
    # A table playing in a round in progress says nothing more than its round does.
    assert text_of(html, "round-2") == "Final In progress Table 1 Ann 10 Bill 15"
    # Each table says which table it feeds: the bracket's lines join them.
    root = parse(html)
    assert [
        root.by_id(f"round-1-table-{number}").attributes.get("data-feeds") for number in (1, 2)
    ] == ["round-2-table-1", "round-2-table-1"]
    assert "data-feeds" not in root.by_id("round-2-table-1").attributes
    assert winners_of(html, "round-2-table-1") == []
    page_links = links(html)
    for name in ("semi_final_1", "semi_final_2", "final"):
        assert f"/clubs/kilkenny/games/{games[name].pk}/" in page_links


def test_a_decided_final_crowns_the_champion(seed, client_for):
    play_hands(
        seed.games["final"],
        seed.users["sean"],
        [
            {"dealer": 1, "trump": "S", "trick_winners": [0, 0, 0]},
        ],
    )

    html = client_for("pat").get(tournament_url(seed.tournaments["cup"])).content

    assert text_of(html, "tournament-winners") == "Winner: Ann"
    assert winners_of(html, "round-2-table-1") == ["Ann"]
    assert text_of(html, "round-2") == "Final Complete Table 1 Decided Ann ✓ winner 25 Bill 15"
    rows = entrant_rows(html)
    assert [row[:2] for row in rows] == [["1", "Ann"], ["2", "Bill"], ["3", "Cait"], ["4", "Dan"]]
    highlighted = [row for row in entrant_rows(html) if row[1] == "Ann"]
    assert highlighted == [["1", "Ann", "Winner", "2", "2", "35", "2", "0", "0", "4", "50"]]
    assert [
        element.attributes["class"]
        for element in parse(html)
        .by_id("standings-table")
        .find_all(lambda element: element.tag == "tr" and "winner" in element.classes)
    ] == ["entrant-row winner"]


def test_a_walkover_and_a_table_still_waiting_for_its_entrants(seed, client_for):
    from tournaments import services

    players = seed.players
    tournament = services.create_tournament(
        club=seed.clubs["kilkenny"],
        user=seed.users["orla"],
        values={"name": "Three Way", "game": "25", "format": "knockout", "lots_seed": 1},
        entrants=[
            {"player": players[name].pk, "seed": seed_number}
            for seed_number, name in enumerate(["Eve", "Finn", "Gus"], start=1)
        ],
    )
    draw(tournament, seed.users["orla"])

    html = client_for("pat").get(tournament_url(tournament)).content

    assert text_of(html, "round-1") == (
        "Semi-finals In progress Table 1 Walkover Eve ✓ winner Table 2 Finn Gus"
    )
    # Eve went through by walkover: she is already in the final, waiting for table 2's winner.
    assert text_of(html, "round-2") == (
        "Final Not started Table 1 Waiting Eve Winner of round 1 table 2"
    )


def test_a_round_robin_with_a_bye(seed, client_for):
    tournament = seed.tournaments["open_drive"]
    html = client_for(None).get(tournament_url(tournament)).content
    assert text_of(html, "rounds") == "Rounds No round drawn yet."

    draw(tournament, seed.users["cara"])
    html = client_for(None).get(tournament_url(tournament)).content

    assert text_of(html, "round-1") == (
        "Round 1 In progress Table 1 Declan Eoin Table 2 Bye Cara ✓ winner"
    )
    # Declan and Eoin are level on everything: they share second place ("=2", read out as "2,
    # shared"), and the drawing of lots only orders them in the list: its number comes from the
    # tournament's stored seed and the entrant's id, which the database assigns.
    entrant_ids = {
        entrant.player.display_name: entrant.pk
        for entrant in tournament.entrants.select_related("player")
    }
    second, third = sorted(
        ["Declan", "Eoin"],
        key=lambda name: lot(tournament.lots_seed, entrant_ids[name]),
        reverse=True,
    )
    # Round robin: match points, their meetings, games won, points difference (then lots).
    assert entrant_rows(html) == [
        ["1", "Cara", "2", "0", "0", "0", "1", "0", "0", "0"],
        ["=2 2, shared", second, "0", "0", "0", "0", "0", "0", "0", "0"],
        ["=2 2, shared", third, "0", "0", "0", "0", "0", "0", "0", "0"],
    ]
    # The shared place says it: no note under the second of them.
    assert notes(html) == []


def test_a_public_tournament_of_a_private_club_shows_no_club_or_game_links_to_visitors(
    seed, client_for
):
    from tournaments.models import Tournament

    cup = seed.tournaments["cup"]
    Tournament.objects.filter(pk=cup.pk).update(is_public=True)

    response = client_for(None).get(tournament_url(cup))

    assert response.status_code == 200
    html = response.content
    assert entrant_rows(html)[0][:2] == ["1", "Ann"]
    # The club and its games stay private: shown as text, never linked.
    assert not [link for link in links(html) if link.startswith("/clubs/")]
    assert "Table 1 Decided Ann ✓ winner 25 Dan 0" in text_of(html, "round-1")


def test_a_team_knockout_feeds_the_final_and_the_third_place_match(seed, client_for):
    from clubs.services import create_team
    from tournaments import services

    club = seed.clubs["kilkenny"]
    players = seed.players
    pairs = [("Ann", "Bill"), ("Cait", "Dan"), ("Eve", "Finn"), ("Gus", "Pat")]
    teams = [
        create_team(
            club=club,
            name=f"{first} and {second}",
            member_ids=[players[first].pk, players[second].pk],
        )
        for first, second in pairs
    ]
    tournament = services.create_tournament(
        club=club,
        user=seed.users["orla"],
        values={
            "name": "Pairs Cup",
            "game": "25",
            "format": "knockout",
            "entrant_kind": "team",
            "third_place_match": True,
            "lots_seed": 2,
        },
        entrants=[{"team": team.pk, "seed": number} for number, team in enumerate(teams, 1)],
    )
    draw(tournament, seed.users["orla"])

    html = client_for("pat").get(tournament_url(tournament)).content
    root = parse(html)

    # Each semi-final sends its winners to the final and its losers to the third-place match.
    for number in (1, 2):
        table = root.by_id(f"round-1-table-{number}")
        assert (table.attributes["data-feeds"], table.attributes["data-feeds-losers"]) == (
            "round-2-table-1",
            "round-2-table-2",
        )
    assert (
        root.by_id("round-2-table-2").find_all(lambda element: element.tag == "h4")[0].text()
        == "Third place"
    )
    # A team's members show on a tap (a details element) or on hover (its title).
    summaries = root.by_id("round-1").find_all(lambda element: element.tag == "summary")
    assert sorted((summary.text(), summary.attributes["title"]) for summary in summaries) == [
        ("Ann and Bill", "Ann, Bill"),
        ("Cait and Dan", "Cait, Dan"),
        ("Eve and Finn", "Eve, Finn"),
        ("Gus and Pat", "Gus, Pat"),
    ]
    # Pat plays in a team: the panel names the team's table and Pat's partner.
    assert text_of(html, "tonight-partners") == "Your partner Gus"
    assert text_of(html, "tonight-opponents").startswith("Against ")


def test_a_quarter_final_winner_is_in_the_semi_final_table_at_once_page_and_api(seed, client_for):
    from games.models import Game
    from tournaments import services

    players = seed.players
    names = ["Ann", "Bill", "Cait", "Dan", "Eve", "Finn", "Gus", "Pat"]
    tournament = services.create_tournament(
        club=seed.clubs["kilkenny"],
        user=seed.users["orla"],
        values={"name": "Eight Cup", "game": "25", "format": "knockout", "lots_seed": 3},
        entrants=[
            {"player": players[name].pk, "seed": number}
            for number, name in enumerate(names, start=1)
        ],
    )
    draw(tournament, seed.users["orla"])
    # Quarter-final table 1 is Ann (seed 1) v Pat (seed 8): Ann takes every trick.
    game = Game.objects.get(match_link__match__tournament=tournament, match_link__match__table=1)
    ann_seat = next(seat.seat for seat in game.seats.all() if seat.player_id == players["Ann"].pk)
    play_hands(
        game, seed.users["sean"], [{"dealer": 0, "trump": "S", "trick_winners": [ann_seat] * 5}]
    )

    html = client_for("pat").get(tournament_url(tournament)).content
    assert text_of(html, "round-2-table-1") == ("Table 1 Waiting Ann Winner of round 1 table 2")
    body = client_for("pat").get(f"/api/tournaments/{tournament.pk}/bracket/").json()
    semi_final = body["rounds"][1]["tables"][0]
    ann = tournament.entrants.get(player=players["Ann"]).pk
    assert (semi_final["kind"], semi_final["entrants"], semi_final["waiting_for"]) == (
        "waiting",
        [ann],
        [{"round": 1, "table": 2}],
    )
    assert body["rounds"][2]["tables"][0]["waiting_for"] == [
        {"round": 2, "table": 1},
        {"round": 2, "table": 2},
    ]
