"""The error pages in Chromium with debug off, in English and in French, each with a way back.

What it does, on the page tests' seed with ``DEBUG`` off (as pytest-django runs the live server):
a page that does not exist (404), a page for a club's members only (403), a form sent after its
CSRF cookie was lost (403, then "Back to the form" leads back to it), a failing page (500: a URL
conf with one page that raises, ``tests/pages/error_urls.py``) and too many failed logins (429),
in the language the browser asks for (``Accept-Language``); each is the site's page (its header
and stylesheet, ``<html lang>``), and its way back leads where it says. ``/favicon.ico`` answers.
"""

from __future__ import annotations

from tests.browser import PHONE
from tests.helpers import log_in


def shown(page) -> dict:
    return {
        "lang": page.get_attribute("html", "lang"),
        "title": page.title(),
        "heading": page.inner_text("h1"),
        "has the site's header": page.is_visible(".site-header .brand"),
        "styled": page.eval_on_selector("main", "main => getComputedStyle(main).maxWidth"),
        "way back": page.eval_on_selector_all(
            "#way-back a", "links => links.map(link => link.innerText)"
        ),
    }


def test_error_pages_in_the_site_in_both_languages(
    live_server, new_context, outside_requests, settings
):
    from tests.pages.seed import PASSWORD, seed_clubs

    assert settings.DEBUG is False
    seed_clubs()
    settings.ROOT_URLCONF = "tests.pages.error_urls"
    english = new_context(viewport=PHONE, locale="en-IE").new_page()
    french = new_context(viewport=PHONE, locale="fr-FR").new_page()

    response = english.goto(f"{live_server.url}/clubs/kilkenny/tournaments/9999/")
    assert response.status == 404
    assert shown(english) == {
        "lang": "en",
        "title": "Page not found · Jink",
        "heading": "There is no page here",
        "has the site's header": True,
        "styled": "960px",
        "way back": ["Back to the club's page", "Back to the home page"],
    }
    with english.expect_navigation():
        english.click("text=Back to the home page")
    assert english.url == f"{live_server.url}/"

    response = french.goto(f"{live_server.url}/nulle-part/")
    assert response.status == 404
    assert shown(french) == {
        "lang": "fr",
        "title": "Page introuvable · Jink",
        "heading": "Il n'y a pas de page ici",
        "has the site's header": True,
        "styled": "960px",
        "way back": ["Retour à l'accueil"],
    }

    response = french.goto(f"{live_server.url}/clubs/kilkenny/boom/")
    assert response.status == 500
    assert shown(french)["heading"] == "Une erreur s'est produite de notre côté"
    with french.expect_navigation():
        french.click("text=Revenir à la page du club")
    assert french.url == f"{live_server.url}/clubs/kilkenny/"  # private: a 404 page, in French
    assert french.title() == "Page introuvable · Jink"

    # Logged in as Pat (not a member of Callan): its balances are for its members.
    log_in(french, live_server.url, "pat", PASSWORD)
    response = french.goto(f"{live_server.url}/clubs/callan/balances/")
    assert response.status == 403
    assert shown(french)["heading"] == "Cette page ne vous est pas ouverte"

    # The login form sent after its CSRF cookie was lost: refused, with the way back to it.
    english.goto(f"{live_server.url}/accounts/login/")
    english.context.clear_cookies()
    english.fill("input[name=username]", "pat")
    english.fill("input[name=password]", PASSWORD)
    with english.expect_navigation() as navigation:
        english.click("main button[type=submit]")
    assert navigation.value.status == 403
    assert shown(english)["way back"] == ["Back to the form", "Back to the home page"]
    with english.expect_navigation():
        english.click("text=Back to the form")
    assert english.url == f"{live_server.url}/accounts/login/"

    # Five failed logins lock the name out for this address: a 429 page, in French.
    for attempt in range(5):
        french.context.clear_cookies()
        french.goto(f"{live_server.url}/accounts/login/")
        french.fill("input[name=username]", "pat")
        french.fill("input[name=password]", f"not it {attempt}")
        with french.expect_navigation() as navigation:
            french.click("main button[type=submit]")
    assert navigation.value.status == 429
    assert shown(french)["heading"] == "Trop de connexions échouées"
    assert shown(french)["way back"] == ["Retour à l'accueil"]

    assert french.request.get(f"{live_server.url}/favicon.ico").status == 200
    assert outside_requests == []
