"""The practice pages through Django's test client: the menu and the record, the anonymous
trial, the table and its fragment, hints in the engine's words, a refused card, a club's rules,
shared puzzles, who may open a game, and each page's query count."""

import pytest
from django.test import Client

from clubs.models import Role
from practice.models import PracticeGame
from practice.services import start_practice_game
from tests.clubs.factories import make_club, make_membership, make_user
from tests.helpers import logged_in_client
from tests.practice.helpers import DEAL, play_to_the_end, set_deal

FRAGMENT = {"HTTP_X_PRACTICE_FRAGMENT": "1"}


def _leading_game(learner):
    game = start_practice_game(player=learner, session_key="", game="45")
    set_deal(game, DEAL, "4S", dealer=2)
    return game


def test_the_menu_and_the_record(client_of, learner, django_assert_num_queries):
    won = start_practice_game(player=learner, session_key="", game="25")
    play_to_the_end(won)
    start_practice_game(player=learner, session_key="", game="45")
    won.refresh_from_db()
    with django_assert_num_queries(4):  # session, user, record, recent games
        response = client_of.get("/practice/")
    assert response.status_code == 200
    record = response.context["record"]
    assert (record.games, record.finished, record.wins) == (2, 1, int(won.winner == 0))
    assert [game.game for game in response.context["recent"]] == ["45", "25"]


@pytest.mark.django_db
def test_the_anonymous_trial_is_one_game_per_session(django_assert_num_queries):
    client = Client()
    with django_assert_num_queries(0):
        assert client.get("/practice/").status_code == 200
    response = client.post("/practice/start/", {"game": "45", "level": "easy"})
    game = PracticeGame.objects.get()
    assert response.status_code == 302 and response["Location"] == f"/practice/{game.pk}/"
    assert game.player is None and game.levels == ["human", "easy", "easy"]
    assert client.get(f"/practice/{game.pk}/").status_code == 200
    again = client.post("/practice/start/", {"game": "25"})
    assert again.status_code == 403
    assert b"one game per visit" in again.content
    assert PracticeGame.objects.count() == 1
    # Another browser cannot open the trial's game.
    assert Client().get(f"/practice/{game.pk}/").status_code == 404


def test_the_table_its_fragment_and_the_hint(client_of, learner, django_assert_num_queries):
    game = _leading_game(learner)
    with django_assert_num_queries(4):  # session, user, the game with its club, its hands
        response = client_of.get(f"/practice/{game.pk}/")
    assert response.status_code == 200
    html = response.content.decode()
    assert "Your turn: play a card." in html and 'value="7D"' in html
    assert 'src="/static/js/practice/table.js"' in html and "<script>" not in html
    fragment = client_of.get(f"/practice/{game.pk}/?hint=1", **FRAGMENT).content.decode()
    assert fragment.lstrip().startswith('<section id="practice-table"')
    assert "You may play:" in fragment  # leading: every card
    assert "Not " not in fragment.split("You may play:")[1].split("</div>")[0]


def test_a_card_out_of_turn_is_refused_and_changes_nothing(client_of, learner):
    game = _leading_game(learner)
    response = client_of.post(f"/practice/{game.pk}/move/", {"kind": "play", "card": "7D"})
    assert response.status_code == 302
    # Nora (seat 1) is next: the person's next card waits.
    refused = client_of.post(
        f"/practice/{game.pk}/move/", {"kind": "play", "card": "AS"}, **FRAGMENT
    )
    assert refused.status_code == 409
    assert "it is not your turn" in refused.content.decode()
    game.refresh_from_db()
    assert game.moves == [{"kind": "play", "seat": 0, "card": "7D"}]


def test_an_illegal_follow_is_refused_with_the_reason(client_of, learner):
    game = start_practice_game(player=learner, session_key="", game="45")
    set_deal(game, "KD 2C 3C 6C 7C | 7D 8H 9H 10H JH | QD 3D 2H 4H 8C", "4S", dealer=1)
    assert client_of.post(f"/practice/{game.pk}/advance/", **FRAGMENT).status_code == 200
    response = client_of.post(f"/practice/{game.pk}/move/", {"kind": "play", "card": "8H"})
    assert response.status_code == 400
    # In a player's words: cards by name, not the engine's codes.
    assert (
        "Not allowed: diamonds were led and you hold the seven of diamonds: follow suit or "
        "play a trump" in response.content.decode()
    )
    hint = client_of.get(f"/practice/{game.pk}/?hint=1").content.decode()
    assert (
        "You may not play the eight of hearts: diamonds were led and you hold the seven of "
        "diamonds: follow suit or play a trump." in hint
    )


def test_a_game_is_only_for_whoever_plays_it(learner):
    game = _leading_game(learner)
    other = logged_in_client(make_user("someone-else"))
    assert other.get(f"/practice/{game.pk}/").status_code == 404
    assert (
        other.post(f"/practice/{game.pk}/move/", {"kind": "play", "card": "7D"}).status_code == 404
    )


def test_a_clubs_house_rules_for_its_members(client_of, learner):
    club = make_club("rules-club", default_game="45", default_house_rules={"target": 61})
    assert client_of.get("/practice/?club=rules-club").status_code == 404  # not a member
    make_membership(club, learner, Role.PLAYER)
    page = client_of.get("/practice/?club=rules-club").content.decode()
    assert "Rules-Club" in page or "Rules Club" in page
    client_of.post("/practice/start/", {"game": "45", "club": "rules-club"})
    game = PracticeGame.objects.get()
    assert (game.rules_name, game.house_rules["target"], game.club_id) == (club.name, 61, club.pk)
    assert "ace_of_hearts_lead" not in game.house_rules  # the club's rules, not the preset


def test_a_puzzle_link_shows_the_position_to_anyone(client_of, learner, django_assert_num_queries):
    game = _leading_game(learner)
    page = client_of.get(f"/practice/{game.pk}/")
    link = page.context["puzzle_url"]
    path = link.split("testserver", 1)[1]
    with django_assert_num_queries(0):
        puzzle = Client().get(path)
    assert puzzle.status_code == 200
    html = puzzle.content.decode()
    assert "What should I lead here?" in html and "Trumps" not in html.split("<h1>")[0]
    assert puzzle.context["position"]["hand"] == ["7D", "8H", "9H", "10H", "JH"]
    assert "KD" not in str(puzzle.context["position"])  # nobody else's cards
    tampered = path[:-3] + ("xyz" if not path.endswith("xyz/") else "abc") + "/"
    assert Client().get(tampered).status_code == 404


@pytest.mark.parametrize("game_code", ["110", "25"])
def test_a_hand_played_through_the_page_forms(client_of, learner, game_code):
    """The auction, the kitty (trumps and five discards as checkboxes) and the rob, posted as
    the page's forms post them, until the first hand is stored."""
    from practice.services import load_table
    from tests.practice.helpers import human_move

    client_of.post("/practice/start/", {"game": game_code, "level": "easy"})
    game = PracticeGame.objects.get()
    posts = 0
    while not game.hands.exists():
        table = load_table(game)
        if table.hand.turn()[1] == 0:
            move = human_move(table)
            form = {key: value for key, value in move.items() if value is not None}
            response = client_of.post(f"/practice/{game.pk}/move/", form)
        else:
            response = client_of.post(f"/practice/{game.pk}/advance/")
        assert response.status_code == 302, response.content[:500]
        posts += 1
        assert posts < 200
        game.refresh_from_db()
    page = client_of.get(f"/practice/{game.pk}/").content.decode()
    assert "Hand 1:" in page and "How hand 1 went" in page
    stored = game.hands.get()
    assert stored.result["number"] == 1 and sum(stored.points) == sum(
        stored.result["points"].values()
    )


def test_a_json_client_gets_a_problem_document(client_of, learner):
    game = start_practice_game(player=learner, session_key="", game="45")
    set_deal(game, "KD 2C 3C 6C 7C | 7D 8H 9H 10H JH | QD 3D 2H 4H 8C", "4S", dealer=1)
    client_of.post(f"/practice/{game.pk}/advance/")
    response = client_of.post(
        f"/practice/{game.pk}/move/",
        {"kind": "play", "card": "8H"},
        content_type="application/json",
    )
    assert response.status_code == 400
    assert response["Content-Type"] == "application/problem+json"
    assert response.json()["errors"] == [
        {
            "code": "illegal_play",
            "pointer": "",
            "detail": "diamonds were led and the hand held 7D: follow suit or trump",
        }
    ]
