"""The problems a person reads come in their language, the engine's and the draw's too.

``rules_engine`` and ``tournaments.draw`` are pure Python: they mark their message templates with
``N_`` and keep the named parameters; ``config.problems.localized_detail`` translates them. These
tests post an illegal hand in French and check the exact French detail, and check that every
template marked ``N_`` in the pure packages has a French translation in the catalogue.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import polib
import pytest
from django.utils import translation

from config.problems import localized_detail
from rules_engine.errors import RulesError
from tests.games.helpers import build_table
from tournaments.draw.errors import DrawError, check_entrant_id

ROOT = Path(__file__).resolve().parents[2]
CATALOGUE = ROOT / "locale" / "fr" / "LC_MESSAGES" / "django.po"
PURE_PACKAGES = [ROOT / "rules_engine", ROOT / "tournaments" / "draw"]
ILLEGAL_BID = {
    "dealer": 0,
    "trump": "S",
    "bid": {"seat": 1, "amount": 17},
    "trick_winners": [1, 1, 1, 1, 1],
    "best_trump": None,
}


@pytest.mark.django_db
def test_an_illegal_hand_posted_in_french_gets_a_french_detail():
    table = build_table()
    game = table.new_game("110", 3, first_dealer=0)

    french = table.post_hand(game["id"], ILLEGAL_BID, **{"Accept-Language": "fr"})
    english = table.post_hand(game["id"], ILLEGAL_BID, **{"Accept-Language": "en"})

    assert french.status_code == 400
    problem = french.json()
    assert problem["code"] == "illegal_bid"
    assert problem["detail"] == (
        "la place 1 a demandé 17 : les enchères possibles sont 10, 15, 20, 25, 60"
    )
    assert problem["errors"][0]["detail"] == problem["detail"]
    assert english.json()["detail"] == "seat 1 bid 17: the bids are 10, 15, 20, 25, 60"


def test_a_draw_error_and_a_combined_rules_error_are_translated_one_by_one():
    with pytest.raises(DrawError) as raised:
        check_entrant_id("7")
    combined = RulesError.combine(
        [
            RulesError("invalid_record", "missing field: dealer", "/dealer"),
            RulesError("invalid_record", "missing field: trump", "/trump"),
        ]
    )
    with translation.override("fr"):
        assert localized_detail(raised.value) == (
            "les identifiants des participants sont des entiers, reçu '7'"
        )
        assert localized_detail(combined) == "champ manquant : dealer; champ manquant : trump"
    assert raised.value.detail == "entrant ids are ints, got '7'"


def _marked_templates() -> set[str]:
    templates = set()
    for package in PURE_PACKAGES:
        for path in package.glob("*.py"):
            for node in ast.walk(ast.parse(path.read_text())):
                if (
                    isinstance(node, ast.Call)
                    and isinstance(node.func, ast.Name)
                    and node.func.id == "N_"
                    and node.args
                    and isinstance(node.args[0], ast.Constant)
                ):
                    templates.add(node.args[0].value)
    return templates


def test_every_engine_and_draw_message_template_has_a_french_entry():
    templates = _marked_templates()
    entries = {entry.msgid: entry for entry in polib.pofile(str(CATALOGUE))}
    placeholders = re.compile(r"%\(\w+\)[sr]")

    assert len(templates) > 150  # every refusal of the engine and the draw is marked
    missing = sorted(
        template
        for template in templates
        if template not in entries
        or not entries[template].msgstr
        or "fuzzy" in entries[template].flags
    )
    assert missing == []
    wrong = sorted(
        template
        for template in templates
        if sorted(placeholders.findall(template))
        != sorted(placeholders.findall(entries[template].msgstr))
    )
    assert wrong == []
