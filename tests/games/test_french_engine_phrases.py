"""An engine refusal whose detail quotes words the engine made is French all the way down.

Some details of the rules engine are built from a phrase that is itself words: the play that
went wrong ("seat 1 played 4H to trick 4"), the rule that made it illegal, who should have led,
what the best trump really was, the formations a game is played in, a suit's name. The engine
keeps each such phrase as a ``Phrase`` (its own ``N_`` template and params), and
``config.problems.localized_detail`` translates it inside the message. These tests post each
case through the API with ``Accept-Language: fr`` and check the exact French detail, and the
English one with ``Accept-Language: en``.
"""

from __future__ import annotations

import copy

import pytest

from rules_engine import seating
from tests.games.helpers import build_table
from tests.rules_engine.fixtures.examples import EXAMPLE_H, example_a

pytestmark = pytest.mark.django_db

FRENCH = {"Accept-Language": "fr"}
ENGLISH = {"Accept-Language": "en"}


def _45(table):
    return table.new_game("45", 4, teams=[[0, 2], [1, 3]], first_dealer=0)


def _details(table, game, record) -> tuple[dict, str]:
    french = table.post_hand(game["id"], record, **FRENCH)
    english = table.post_hand(game["id"], record, **ENGLISH)
    assert french.status_code == english.status_code == 400
    problem = french.json()
    assert problem["errors"][0]["detail"] == problem["detail"]
    return problem, english.json()["detail"]


def test_a_card_of_another_seat_names_the_play_and_where_the_card_was_in_french():
    table = build_table()
    game = _45(table)
    record = example_a()
    record["tricks"][3][1] = "4H"  # dealt to seat 3

    problem, english = _details(table, game, record)

    assert (problem["code"], problem["errors"][0]["pointer"]) == ("duplicate_card", "/tricks/3/1")
    assert problem["detail"] == (
        "la place 1 a joué 4H à la levée 4, mais 4H appartient à la place 3 (en /deal/3/0)"
    )
    assert english == "seat 1 played 4H to trick 4, but 4H belongs to seat 3 (at /deal/3/0)"


def test_a_card_nobody_was_dealt_and_a_card_played_twice_in_french():
    table = build_table()
    game = _45(table)
    never_dealt = example_a()
    never_dealt["tricks"][3][1] = "KC"
    twice = example_a(deal=False)
    twice["tricks"][3][1] = "QD"  # seat 1 played QD in trick 2 already

    assert _details(table, game, never_dealt)[0]["detail"] == (
        "la place 1 a joué KC à la levée 4, mais ne l'avait pas reçue"
    )
    problem, english = _details(table, game, twice)
    assert problem["detail"] == "QD apparaît en /tricks/3/1 et en /tricks/1/3"
    assert english == "QD appears at /tricks/3/1 and at /tricks/1/3"


def test_the_reason_a_play_was_illegal_is_french():
    table = build_table()
    game = _45(table)
    record = example_a()
    record["tricks"][0][3] = "10H"
    record["tricks"][3][0] = "3S"

    problem, english = _details(table, game, record)

    assert problem["code"] == "illegal_play"
    assert problem["detail"] == (
        "la place 0 a joué 10H à la levée 1, mais un atout a été entamé et la main tenait 3S"
    )
    assert english == "seat 0 played 10H to trick 1, but a trump was led and the hand held 3S"


def test_the_suit_led_is_named_in_french():
    table = build_table()
    game = table.new_game(
        "25", 2, first_dealer=0, house_rules={"ace_of_hearts_follows_hearts": True}
    )

    problem, english = _details(table, game, copy.deepcopy(EXAMPLE_H))

    assert problem["detail"] == (
        "la place 0 a joué 2C à la levée 1, mais la couleur entamée était cœur et la main tenait "
        "AH : fournir ou couper"
    )
    assert english == (
        "seat 0 played 2C to trick 1, but hearts were led and the hand held AH: follow suit or "
        "trump"
    )


def test_the_reason_of_a_wrong_leader_is_french():
    table = build_table()
    game = _45(table)
    record = example_a()
    leaders = [1, 2, 2, 0, 0]
    record["tricks"] = [
        {"leader": leader, "cards": cards}
        for leader, cards in zip(leaders, record["tricks"], strict=True)
    ]
    first_wrong = copy.deepcopy(record)
    first_wrong["tricks"][0]["leader"] = 3

    problem, english = _details(table, game, record)
    assert (problem["code"], problem["errors"][0]["pointer"]) == (
        "wrong_leader",
        "/tricks/2/leader",
    )
    assert problem["detail"] == (
        "la levée 3 est saisie comme entamée par la place 2, mais c'est la place 1 qui l'a "
        "entamée (le gagnant de la levée 2 entame)"
    )
    assert english == (
        "trick 3 is recorded as led by seat 2, but seat 1 led it (the winner of trick 2 leads)"
    )
    assert _details(table, game, first_wrong)[0]["detail"] == (
        "la levée 1 est saisie comme entamée par la place 3, mais c'est la place 1 qui l'a "
        "entamée (la première levée est entamée par la place à gauche du donneur ou du preneur)"
    )


def test_what_the_best_trump_really_was_is_french():
    table = build_table()
    game = _45(table)
    record = example_a()
    record["best_trump"] = {"seat": 2, "trick": 0}

    problem, english = _details(table, game, record)

    assert problem["code"] == "best_trump_mismatch"
    assert problem["detail"] == (
        "best_trump est saisi comme {'seat': 2, 'trick': 0}, mais la place 2 a joué le meilleur "
        "atout, 5S, à la levée 5 (levée 4 en comptant à partir de 0)"
    )
    assert english == (
        "best_trump is recorded as {'seat': 2, 'trick': 0}, but seat 2 played the best trump, "
        "5S, in trick 5 (trick 4 counting from 0)"
    )


def test_the_formations_of_45_are_listed_in_french():
    table = build_table()
    seats = table.player_ids(5)
    url = f"/api/clubs/{table.club.slug}/games/"

    french = table.client().post(url, {"game": "45", "seats": seats}, format="json", headers=FRENCH)
    english = table.client().post(
        url, {"game": "45", "seats": seats}, format="json", headers=ENGLISH
    )

    assert french.status_code == english.status_code == 400
    assert french.json()["code"] == "invalid_seating"
    assert french.json()["detail"] == (
        "le jeu 45 se joue 1 c. 1 c. 1 (3 places), 2 c. 2 (4 places), 3 c. 3 (6 places) ; reçu 5 "
        "places en 5 camps"
    )
    assert english.json()["detail"] == (
        "game 45 is played 1 v 1 v 1 (3 seats), 2 v 2 (4 seats), 3 v 3 (6 seats); got 5 seats in "
        "5 sides"
    )


def test_the_reason_a_card_is_not_legal_is_french():
    table = build_table()
    game = table.new_game("25", 4, teams=[[0, 2], [1, 3]])
    body = {"hand": ["KH", "5S", "2C"], "trick": ["QH"], "trump": "S"}

    response = table.client("player").post(
        f"/api/games/{game['id']}/legal-plays/", body, format="json", headers=FRENCH
    )

    assert response.json()["illegal"] == [
        {
            "card": "2C",
            "reason": "la couleur entamée était cœur et la main tenait KH : fournir ou couper",
        }
    ]


@pytest.mark.parametrize("game", sorted(seating._FIXED_FORMATIONS))
def test_the_formations_in_words_are_the_formations_of_the_table(game):
    in_words = ", ".join(
        " v ".join([str(count // sides)] * sides) + f" ({count} seats)"
        for count, sides in seating._FIXED_FORMATIONS[game].items()
    )
    assert seating._FORMATIONS_IN_WORDS[game] == in_words
