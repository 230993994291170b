"""The club overview (``/clubs/<slug>/``), "my clubs" (``/me/``) and the home page's links.

Each game card is titled by its event, round and table (or, outside events, by its kind) and
names every side with its score: "Ann 10 – 15 Bill" for two sides (the first side's name, the
scores, the second side's name), "Cara 25 – Declan 0 – Eoin 0" for more; never a game's id.
"""

from __future__ import annotations

import pytest

from tests.pages.html import elements, links, parse, table_rows, text_of

pytestmark = pytest.mark.django_db


def game_cards(html, section_id: str) -> list[str]:
    return [card.text() for card in elements(html, section_id, "li") if "card" in card.classes]


def winners(html, section_id: str) -> list[str]:
    return [
        item.text() for item in elements(html, section_id, "span") if "winner-name" in item.classes
    ]


def test_overview_lists_games_in_progress_tournaments_and_recent_results(seed, client_for):
    games = seed.games
    response = client_for("pat").get("/clubs/kilkenny/")

    assert response.status_code == 200
    html = response.content
    assert parse(html).find_all(lambda element: element.tag == "h1")[0].text() == (
        "Kilkenny Card Club"
    )
    # Tonight first: the event under way with its round, then the games in progress outside
    # events (newest first; the date is the creation time in the club's time zone, not asserted).
    sections = [
        element.attributes["id"]
        for element in parse(html).find_all(
            lambda element: (
                element.tag in ("section", "details")
                and element.attributes.get("id")
                in (
                    "on-now",
                    "me",
                    "coming-up",
                    "season-fold",
                    "finished-fold",
                    "tournaments-fold",
                    "players-fold",
                )
            )
        )
    ]
    assert sections == [
        "on-now",
        "me",
        "season-fold",
        "finished-fold",
        "tournaments-fold",
        "players-fold",
    ]
    assert game_cards(html, "events") == [
        "Winter Cup In progress Final · Twenty-Five · Knockout · 4 entrants"
    ]
    in_progress = [card.rsplit(" · ", 1)[0] for card in game_cards(html, "in-progress")]
    assert in_progress == ["Forty-Five In progress Dan & Finn 30 – 30 Eve & Gus 2 hands"]
    finished = [card.rsplit(" · ", 1)[0] for card in game_cards(html, "finished")]
    assert finished == [
        "Winter Cup · Semi-finals · table 2 Finished Bill 25 – 10 Cait 2 hands",
        "Winter Cup · Semi-finals · table 1 Finished Ann 25 – 0 Dan 1 hand",
        "Twenty-Five Finished Ann & Cait 25 – 20 Bill & Pat 2 hands",
    ]
    assert winners(html, "finished") == ["Bill", "Ann", "Ann & Cait"]
    assert game_cards(html, "tournaments") == []
    # The older parts are folded (a phone keeps tonight on its first screen).
    folds = parse(html).find_all(
        lambda element: element.tag == "details" and "fold" in element.classes
    )
    assert [("open" in fold.attributes, "data-open-wide" in fold.attributes) for fold in folds] == [
        (False, True)
    ] * 4
    page_links = links(html)
    cup = seed.tournaments["cup"]
    for name in ("semi_final_1", "semi_final_2", "twenty_five", "forty_five"):
        assert f"/clubs/kilkenny/games/{games[name].pk}/" in page_links
    # The final is in progress at the event: its page lists it, the club page links the event.
    assert f"/clubs/kilkenny/games/{games['final'].pk}/" not in page_links
    assert f"/clubs/kilkenny/tournaments/{cup.pk}/" in page_links
    assert "/clubs/kilkenny/balances/" in page_links
    assert "/static/css/pages.css" in response.content.decode()


def test_overview_of_a_public_club_for_a_visitor_shows_public_tournaments_only(seed, client_for):
    html = client_for(None).get("/clubs/callan/").content

    assert game_cards(html, "coming-up") == [
        "Open Drive Registration Twenty-Five · Round robin · 3 entrants"
    ]
    finished = [card.rsplit(" · ", 1)[0] for card in game_cards(html, "finished")]
    assert finished == ["Twenty-Five Finished Cara 25 – Declan 0 – Eoin 0 1 hand"]
    assert text_of(html, "on-now") == "On now Nothing on just now."
    # Declan and Eoin are level on wins and points: they share second place.
    assert [row[:2] for row in table_rows(html, "season-table")[::2]] == [
        ["1", "Cara"],
        ["=2", "Declan"],
        ["=2", "Eoin"],
    ]
    # Money is for members: no balances link for a visitor.
    assert "/clubs/callan/balances/" not in links(html)


def test_overview_of_a_public_club_for_its_member_shows_every_tournament(seed, client_for):
    html = client_for("cara").get("/clubs/callan/").content

    assert game_cards(html, "coming-up") == [
        "Members Night Registration Twenty-Five · Round robin · 2 entrants",
        "Open Drive Registration Twenty-Five · Round robin · 3 entrants",
    ]
    assert "/clubs/callan/balances/" in links(html)


def test_my_clubs_lists_the_users_clubs_and_their_recent_games_with_their_result(seed, client_for):
    response = client_for("pat").get("/me/")

    assert response.status_code == 200
    html = response.content
    sections = [
        element.attributes["id"]
        for element in parse(html).find_all(lambda element: element.tag == "section")
    ]
    assert sections == ["club-kilkenny"]
    assert text_of(html, "club-kilkenny").startswith(
        "Kilkenny Card Club Player · playing as Pat · Who owes whom Your recent games"
    )
    cards = [card.rsplit(" · ", 1)[0] for card in game_cards(html, "club-kilkenny")]
    assert cards == ["Twenty-Five Lost Ann & Cait 25 – 20 Bill & Pat 2 hands"]


def test_my_clubs_shows_a_public_club_where_the_user_plays_without_a_role(seed, client_for):
    from clubs.models import Player

    Player.objects.filter(pk=seed.players["Declan"].pk).update(user=seed.users["olive"])

    html = client_for("olive").get("/me/").content

    assert text_of(html, "club-callan").startswith(
        "Callan Club Public club · playing as Declan Your recent games"
    )
    cards = [card.rsplit(" · ", 1)[0] for card in game_cards(html, "club-callan")]
    assert cards == ["Twenty-Five Lost Cara 25 – Declan 0 – Eoin 0 1 hand"]
    assert "/clubs/callan/balances/" not in links(html)


def test_my_clubs_hides_a_private_club_where_the_user_plays_without_a_role(seed, client_for):
    from clubs.models import Player

    Player.objects.filter(pk=seed.players["Gus"].pk).update(user=seed.users["olive"])

    html = client_for("olive").get("/me/").content

    assert "Kilkenny" not in html.decode()
    assert "You are not in any club yet." in html.decode()


def test_my_clubs_shows_at_most_five_games_per_club_newest_first(seed, client_for):
    from tests.pages.seed import play_hands, start_game

    club = seed.clubs["kilkenny"]
    players = seed.players
    started = [
        start_game(club, seed.users["sean"], "25", [players["Pat"], players["Eve"]])
        for _ in range(6)
    ]
    play_hands(
        started[-1],
        seed.users["sean"],
        [
            {"dealer": 0, "trump": "S", "trick_winners": [0, 0, 0, 0, 0]},
        ],
    )

    html = client_for("pat").get("/me/").content

    cards = [card for card in elements(html, "club-kilkenny", "li") if "card" in card.classes]
    targets = [
        card.find_all(lambda element: element.tag == "a")[0].attributes["href"] for card in cards
    ]
    results = [
        card.find_all(lambda element: "badge" in element.classes)[0].text() for card in cards
    ]
    assert targets == [f"/clubs/kilkenny/games/{game.pk}/" for game in reversed(started[1:])]
    assert results == ["Won", "In progress", "In progress", "In progress", "In progress"]


def test_my_clubs_sends_a_visitor_to_the_login_page(seed, client_for):
    response = client_for(None).get("/me/")

    assert response.status_code == 302
    assert response["Location"] == "/accounts/login/?next=/me/"


def test_home_page_links_each_public_club_to_its_page(seed, client_for):
    html = client_for(None).get("/").content

    assert "/clubs/callan/" in links(html)
    assert "/clubs/kilkenny/" not in links(html)


def test_the_header_links_my_clubs_for_a_logged_in_user_only(seed, client_for):
    assert "/me/" in links(client_for("pat").get("/clubs/kilkenny/").content)
    assert "/me/" not in links(client_for(None).get("/clubs/callan/").content)


def test_a_player_who_said_who_they_are_sees_their_table_in_each_event_on_now(seed, client_for):
    cup = seed.tournaments["cup"]
    client = client_for(None)
    from tournaments.models import Tournament

    type(seed.clubs["kilkenny"]).objects.filter(pk=seed.clubs["kilkenny"].pk).update(
        public_standings=True
    )
    Tournament.objects.filter(pk=cup.pk).update(is_public=True)
    html = client.get(f"/clubs/kilkenny/?player={seed.players['Ann'].pk}").content

    assert game_cards(html, "events") == [
        "Winter Cup In progress Final · Twenty-Five · Knockout · 4 entrants You: table 1"
    ]
    assert f"/clubs/kilkenny/tournaments/{cup.pk}/#round-2-table-1" in links(html)
    # Dan is out of the cup: no table this round.
    html = client.get(f"/clubs/kilkenny/?player={seed.players['Dan'].pk}").content
    assert game_cards(html, "events") == [
        "Winter Cup In progress Final · Twenty-Five · Knockout · 4 entrants"
    ]
