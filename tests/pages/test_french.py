"""The pages in French: a complete catalogue, compiled, and no English left on a French page.

What it does: checks that ``locale/fr/LC_MESSAGES/django.po`` translates every message (no empty
or fuzzy entry) and that the committed ``django.mo`` holds exactly the ``.po``'s translations
(read back with polib); then renders every player page with ``Accept-Language: fr`` and
compares its visible words against the catalogue: every word shown must come from a French
translation, from the seeded data (names of people, clubs, events) or be a number or symbol —
an English string left unmarked, or marked but untranslated, fails with the words it showed.
It also checks that money is formatted for the language and that a problem document's title
and a service's refusal (its detail) follow the request's language.

What it does not do: judge the quality of the French.
"""

from __future__ import annotations

import re
from pathlib import Path

import polib
import pytest
from django.utils import translation
from django.utils.dates import MONTHS_3

from tests.pages.html import parse

pytestmark = pytest.mark.django_db

CATALOGUE = Path(__file__).resolve().parents[2] / "locale" / "fr" / "LC_MESSAGES"
WORD = re.compile(r"[^\W\d_]+(?:['’][^\W\d_]+)*", re.UNICODE)
# Words that are the same in both languages and come from no catalogue entry: the language
# switch names each language in itself, and the brand.
SHARED_WORDS = {"English", "Français", "Jink", "API", "api", "schema"}
# Dates are formatted by Django's own French locale (its catalogue, not ours).
MONTHS = {
    "janvier",
    "février",
    "mars",
    "avril",
    "mai",
    "juin",
    "juillet",
    "août",
    "septembre",
    "octobre",
    "novembre",
    "décembre",
}


def test_the_french_catalogue_is_complete_and_compiled():
    po = polib.pofile(str(CATALOGUE / "django.po"))
    untranslated = [entry.msgid for entry in po.untranslated_entries()]
    fuzzy = [entry.msgid for entry in po.fuzzy_entries()]
    assert (untranslated, fuzzy) == ([], [])
    compiled = polib.mofile(str(CATALOGUE / "django.mo"))
    as_compiled = {
        (entry.msgctxt, entry.msgid): (entry.msgstr, entry.msgstr_plural)
        for entry in compiled
        if entry.msgid
    }
    as_written = {
        (entry.msgctxt, entry.msgid): (entry.msgstr, entry.msgstr_plural)
        for entry in po
        if not entry.obsolete
    }
    assert as_compiled == as_written


def french_words() -> set[str]:
    po = polib.pofile(str(CATALOGUE / "django.po"))
    words = set()
    for entry in po:
        for text in [entry.msgstr, *entry.msgstr_plural.values()]:
            words.update(WORD.findall(re.sub(r"%\(\w+\)s|\{\w+\}|<[^>]+>", " ", text)))
    return words


def visible_words(html: bytes) -> list[str]:
    """Every word of the page's text nodes (each node on its own: "Cara" and "Declan" in two
    options are two words), leaving out scripts and styles."""
    texts = []

    def walk(element) -> None:
        # Scripts and styles are not text; <code> shows an identifier of the API (a house
        # rule's key), the same in every language.
        if element.tag in ("script", "style", "code"):
            return
        for child in element.children:
            if isinstance(child, str):
                texts.append(child)
            else:
                walk(child)

    walk(parse(html))
    return WORD.findall(" ".join(texts))


def words_not_french(client, pages: list[str], allowed: set[str]) -> dict[str, list[str]]:
    """Each page, asked for in French, with the visible words it shows outside ``allowed``."""
    foreign = {}
    for path in pages:
        response = client.get(path, HTTP_ACCEPT_LANGUAGE="fr")
        assert response.status_code == 200, path
        assert response.headers["Content-Language"] == "fr"
        unknown = sorted(set(visible_words(response.content)) - allowed)
        if unknown:
            foreign[path] = unknown
    return foreign


def data_words(seed) -> set[str]:
    names = [club.name for club in seed.clubs.values()]
    names += [player.display_name for player in seed.players.values()]
    names += [tournament.name for tournament in seed.tournaments.values()]
    names += [user.username for user in seed.users.values()]
    names += [club.slug for club in seed.clubs.values()]
    words = set()
    for name in names:
        words.update(WORD.findall(name))
    # Card notation (best trump "5D") and the currency code are data too.
    return words | {"EUR", "S", "H", "D", "C", "J", "Q", "K", "A"}


def test_the_french_pages_show_no_english(seed, client_for):
    pages = [
        "/",
        "/me/",
        "/clubs/kilkenny/",
        "/clubs/callan/",
        "/clubs/kilkenny/balances/",
        f"/clubs/kilkenny/games/{seed.games['twenty_five'].pk}/",
        f"/clubs/kilkenny/games/{seed.games['forty_five'].pk}/",
        f"/clubs/kilkenny/tournaments/{seed.tournaments['cup'].pk}/",
        f"/clubs/callan/tournaments/{seed.tournaments['open_drive'].pk}/",
        f"/clubs/kilkenny/players/{seed.players['Pat'].pk}/",
    ]
    allowed = french_words() | data_words(seed) | SHARED_WORDS | MONTHS
    assert words_not_french(client_for("pat"), pages, allowed) == {}


def test_money_and_problem_titles_follow_the_language(seed, client_for):
    client = client_for("pat")
    html = client.get(
        f"/clubs/kilkenny/games/{seed.games['twenty_five'].pk}/", HTTP_ACCEPT_LANGUAGE="fr"
    ).content
    # "0,20" then a no-break space (read as a space here) and the symbol after the amount.
    assert parse(html).by_id("stake").text() == "0,20 € par joueur"
    html = client.get(
        f"/clubs/kilkenny/games/{seed.games['twenty_five'].pk}/", HTTP_ACCEPT_LANGUAGE="en"
    ).content
    assert parse(html).by_id("stake").text() == "€0.20 a head"
    response = client.get("/api/games/999999/", HTTP_ACCEPT_LANGUAGE="fr")
    assert (response.status_code, response.json()["title"]) == (404, "Introuvable.")
    # A service's refusal reads in the request's language too (the code stays the same).
    game = seed.games["twenty_five"]
    scorekeeper = client_for("sean")
    for language, detail in (
        ("fr", f"La partie {game.pk} est terminée ; elle ne prend plus de donnes."),
        ("en", f"Game {game.pk} is finished; it takes no more hands."),
    ):
        response = scorekeeper.post(
            f"/api/games/{game.pk}/hands/",
            {"dealer": 0, "trump": "S", "trick_winners": [0]},
            content_type="application/json",
            HTTP_ACCEPT_LANGUAGE=language,
        )
        assert (response.status_code, response.json()["code"], response.json()["detail"]) == (
            409,
            "game_over",
            detail,
        )


def test_the_french_organiser_console_shows_no_english(seed, client_for):
    """Every console page and the table app's pages, as the organiser sees them in French: the
    same check as the player pages (each word from a French translation, the data or a
    number)."""
    from settlements import services as settlement_services

    night = settlement_services.open_night(
        club=seed.clubs["kilkenny"],
        user=seed.users["orla"],
        name="Vendredi",
        entry_fee_minor=200,
        prize_split=[60, 40],
    )
    cup = seed.tournaments["cup"].pk
    console = "/clubs/kilkenny/console/"
    pages = [
        console,
        f"{console}members/",
        f"{console}players/",
        f"{console}house-rules/",
        f"{console}house-rules/?game=110",
        f"{console}events/new/",
        f"{console}events/{cup}/",
        f"{console}events/{cup}/board/",
        f"{console}events/{cup}/board/?round=1",
        f"{console}events/{cup}/print/",
        f"{console}events/{cup}/results/",
        f"{console}nights/{night.pk}/",
        # The table app's pages: the score pad (its scripts' words are in a JSON block, checked
        # by tests/tables/test_strings.py), the table links and the code form.
        f"/clubs/kilkenny/games/{seed.games['forty_five'].pk}/score/",
        "/clubs/kilkenny/table-links/",
        "/t/",
    ]
    with translation.override("fr"):
        # The console's short dates ("2 Déc 2026"): Django's own French month abbreviations.
        short_months = {str(month).title() for month in MONTHS_3.values()}
    # The night's name and the site's address on a printed table card are data too.
    allowed = (
        french_words()
        | data_words(seed)
        | SHARED_WORDS
        | MONTHS
        | short_months
        | {"Vendredi", "CSV", "JSON", "QR", "UTF", "http", "testserver"}
    )
    assert words_not_french(client_for("orla"), pages, allowed) == {}
