"""The practice table in French: the page's words, the engine's reasons and the refusals.

The same position as the English tests (test_pages.py), asked with ``Accept-Language: fr``: the
reason a card is refused is the engine's ``Phrase`` translated all the way down, and no page of
the practice table shows an English word (the check of tests/pages/test_french.py).
"""

from __future__ import annotations

from django.utils import translation
from django.utils.dates import MONTHS_3

from practice.services import start_practice_game
from tests.pages.test_french import SHARED_WORDS, french_words, words_not_french
from tests.practice.helpers import DEAL, set_deal

FRENCH = {"HTTP_ACCEPT_LANGUAGE": "fr"}


def test_an_illegal_follow_is_refused_in_french(client_of, learner):
    game = start_practice_game(player=learner, session_key="", game="45")
    set_deal(game, "KD 2C 3C 6C 7C | 7D 8H 9H 10H JH | QD 3D 2H 4H 8C", "4S", dealer=1)
    client_of.post(f"/practice/{game.pk}/advance/", **FRENCH)

    response = client_of.post(
        f"/practice/{game.pk}/move/", {"kind": "play", "card": "8H"}, **FRENCH
    )
    hint = client_of.get(f"/practice/{game.pk}/?hint=1", **FRENCH).content.decode()
    as_json = client_of.post(
        f"/practice/{game.pk}/move/",
        {"kind": "play", "card": "8H"},
        content_type="application/json",
        **FRENCH,
    )

    # The page words it for the player, cards by name; a script keeps the engine's words.
    words = "la couleur entamée est carreau et vous avez le sept de carreau : fournissez ou coupez"
    assert response.status_code == 400
    assert f"Pas permis : {words}" in response.content.decode()
    assert f"Vous ne pouvez pas jouer le huit de cœur : {words}." in hint
    assert "À vous : jouez une carte." in hint
    reason = "la couleur entamée était carreau et la main tenait 7D : fournir ou couper"
    assert as_json.json()["errors"][0]["detail"] == reason


def test_the_practice_pages_show_no_english(client_of, learner):
    game = start_practice_game(player=learner, session_key="", game="45")
    set_deal(game, DEAL, "4S", dealer=2)
    # A puzzle keeps the names its maker saw ("Vous" for the seat of a French maker).
    page = client_of.get(f"/practice/{game.pk}/", **FRENCH)
    puzzle = page.context["puzzle_url"].split("testserver")[1]
    pages = ["/practice/", f"/practice/{game.pk}/", f"/practice/{game.pk}/?hint=1", puzzle]
    with translation.override("fr"):
        short_months = {str(month).title() for month in MONTHS_3.values()}  # "2 Déc 2026"
    allowed = (
        french_words()
        | SHARED_WORDS
        | short_months
        | {"Nora", "Finn", "learner", "S", "H", "D", "C", "J", "Q", "K", "A"}
    )
    assert words_not_french(client_of, pages, allowed) == {}
