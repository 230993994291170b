"""The score pad's words: the list the server translates is exactly what the modules show.

``web/scorepad/strings.py`` lists the English strings; the modules (static/table/*.js) look them up
with ``t("...")``. A string shown but not listed would stay English on a French page; a string
listed but never shown is dead weight. Also: the French page carries them translated.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from django.utils import translation

from tests.tables.browser_helpers import seed
from web.scorepad.strings import COMPUTED_STRINGS, STRINGS, table_strings

STATIC = Path(__file__).resolve().parents[2] / "static" / "table"
LOOKED_UP = re.compile(r'\bt\("((?:[^"\\]|\\.)*)"')


def _module_sources() -> str:
    return "\n".join(path.read_text() for path in sorted(STATIC.glob("*.js")))


def test_the_strings_listed_are_the_strings_the_modules_look_up():
    looked_up = set(LOOKED_UP.findall(_module_sources()))
    assert looked_up == set(STRINGS)
    assert len(STRINGS) == len(set(STRINGS))


def test_each_computed_string_is_written_in_a_module():
    sources = _module_sources()
    assert [text for text in COMPUTED_STRINGS if f'"{text}"' not in sources] == []


def test_every_string_has_a_french_translation_with_the_same_placeholders():
    placeholders = re.compile(r"%\(\w+\)s")
    with translation.override("fr"):
        french = table_strings()
    untranslated = [text for text, shown in french.items() if shown == text]
    assert untranslated == []
    assert [
        text
        for text, shown in french.items()
        if sorted(placeholders.findall(text)) != sorted(placeholders.findall(shown))
    ] == []


@pytest.mark.django_db
def test_the_french_score_page_carries_the_french_strings(client):
    data = seed()
    game = data.new_game("25", 2, first_dealer=1)
    client.force_login(data.scorekeeper)

    response = client.get(
        f"/clubs/{game.club.slug}/games/{game.pk}/score/", headers={"accept-language": "fr"}
    )

    html = response.content.decode()
    start = html.index('<script id="table-strings" type="application/json">')
    strings = json.loads(html[html.index(">", start) + 1 : html.index("</script>", start)])
    assert strings["Trumps"] == "Atout"
    assert strings["Check the hand"] == "Vérifier la donne"
    assert strings["Hand %(number)s: %(name)s deals"] == "Donne %(number)s : %(name)s donne"
    assert '<html lang="fr">' in html
    assert '<p id="dealer" class="dealer">Seán donne</p>' in html
    assert "Chargement de la feuille de marque…" in html
