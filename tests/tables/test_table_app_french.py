"""The score pad in French, in a real browser (Chromium) against the live server.

What it proves: with the browser's language French, the score page and the steps its modules
draw (trumps, each trick, the summary, the confirmation, the hand list) are in French: the
modules' words come from the "table-strings" JSON the server renders into the page
(web/scorepad/strings.py), so they need no script of their own and are in the page the service
worker keeps for offline use. A hand tapped in French is stored exactly as tapped.
"""

from __future__ import annotations

import json

from playwright.sync_api import expect

from games.models import Hand
from tests.browser import PHONE
from tests.tables.browser_helpers import logged_in, seed, tap, wait_ready


def test_a_hand_of_25_tapped_in_french(live_server, new_context, outside_requests):
    data = seed()
    game = data.new_game("25", 2, first_dealer=1)  # Seán deals, Mary leads
    context = logged_in(
        new_context(viewport=PHONE, has_touch=True, locale="fr-FR"), live_server, data.scorekeeper
    )
    page = context.new_page()
    page.set_default_timeout(10_000)
    page.goto(f"{live_server.url}/clubs/{game.club.slug}/games/{game.pk}/score/")
    wait_ready(page)
    title = page.locator(".step-title")

    assert page.locator("html").get_attribute("lang") == "fr"
    strings = json.loads(page.locator("#table-strings").text_content())
    assert strings["Trick %(number)s: who took it?"] == "Pli %(number)s : qui l'a remporté ?"
    expect(page.locator("#connection")).to_have_text("En ligne")
    expect(page.locator("#dealer")).to_have_text("Donne 1 : Seán donne")
    expect(page.locator("#hands-heading")).to_have_text("Donnes")
    expect(page.locator("#hands-body")).to_have_text("Aucune donne pour l'instant.")
    expect(title).to_have_text("Atout")
    expect(page.get_by_role("button", name="Maldonne", exact=True)).to_be_visible()
    expect(page.get_by_role("button", name="Carte par carte", exact=True)).to_be_visible()

    tap(page, "Pique")
    expect(title).to_have_text("Pli 1 : qui l'a remporté ?")
    expect(page.locator(".trump-line")).to_have_text("Atout ♠ Pique")
    for number, name in enumerate(["Mary", "Seán", "Mary", "Seán", "Mary"], start=1):
        expect(title).to_have_text(f"Pli {number} : qui l'a remporté ?")
        page.locator(".seat-buttons button:enabled", has_text=name).first.wait_for()
        tap(page, name)

    expect(title).to_have_text("Vérifier la donne")
    lines = page.locator(".summary .line-label")
    expect(lines).to_have_text(["Donneur", "Atout", "Plis"])
    expect(page.locator(".verdict")).to_have_text(
        "Mary marquent 15, Seán marquent 10 — nouveaux totaux 15–10."
    )
    tap(page, "Confirmer la donne 1")
    page.locator("#hands-body tr[data-number='1']:not(.waiting)").wait_for()
    expect(page.locator("#dealer")).to_have_text("Donne 2 : Mary donne")
    expect(page.locator(".message")).to_have_text("Donne 1 envoyée.")
    row = page.locator("#hands-body tr[data-number='1']")
    expect(row.get_by_role("button", name="Corriger la donne 1")).to_be_visible()
    expect(row.get_by_role("button", name="Annuler la donne 1")).to_be_visible()

    assert Hand.objects.get(game=game, number=1).record == {
        "dealer": 1,
        "trump": "S",
        "trick_winners": [0, 1, 0, 1, 0],
    }
    assert outside_requests == []
