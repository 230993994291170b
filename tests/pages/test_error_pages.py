"""Error pages in the site: 400, 403 (a CSRF refusal too), 404, 429 and 500 with debug off.

Each is the site's own page (its header, its stylesheet, the language switch but on the 500),
in the reader's language (``Accept-Language``), says what happened and offers a way back: the
club's page when the reader was inside a club, the form's page after a CSRF refusal, the home
page always. Under ``/api/`` the same errors stay problem documents. ``/favicon.ico`` answers.
"""

from __future__ import annotations

import pytest
from django.test import Client, override_settings

from tests.pages.html import parse, text_of

pytestmark = pytest.mark.django_db


def client_in(language: str, **options) -> Client:
    return Client(HTTP_ACCEPT_LANGUAGE=language, raise_request_exception=False, **options)


def page(response) -> dict:
    root = parse(response.content)
    return {
        "status": response.status_code,
        "lang": root.find_all(lambda element: element.tag == "html")[0].attributes["lang"],
        "title": root.find_all(lambda element: element.tag == "title")[0].text(),
        "main": text_of(response.content, "main"),
        "way back": text_of_links(response.content, "way-back"),
        "has header": bool(root.find_all(lambda element: element.tag == "header")),
    }


def text_of_links(html, element_id: str) -> list[str]:
    return [
        element.attributes["href"]
        for element in parse(html).by_id(element_id).find_all(lambda element: element.tag == "a")
    ]


def test_a_missing_page_in_english_and_french_with_a_way_back(seed):
    english = page(client_in("en").get("/clubs/kilkenny/tournaments/99999/"))
    assert english == {
        "status": 404,
        "lang": "en",
        "title": "Page not found · Jink",
        "main": "Error 404 There is no page here The address may be mistyped, or the page was "
        "moved or removed — or it belongs to a club whose pages are for its members: "
        "logging in may show it. Back to the club's page Back to the home page",
        "way back": ["/clubs/kilkenny/", "/"],
        "has header": True,
    }
    french = page(client_in("fr").get("/nowhere/"))
    assert (french["status"], french["lang"], french["title"], french["way back"]) == (
        404,
        "fr",
        "Page introuvable · Jink",
        ["/"],
    )
    assert french["main"].startswith("Erreur 404 Il n'y a pas de page ici")


def test_a_page_for_members_only_is_a_403_in_the_site(seed):
    client = client_in("fr")
    client.force_login(seed.users["olive"])
    response = client.get("/clubs/kilkenny/balances/")
    # Kilkenny is private: an outsider is told it does not exist. Callan's balances are for its
    # members: an outsider of a public club is refused.
    assert response.status_code == 404
    refused = page(client.get("/clubs/callan/balances/"))
    assert (refused["status"], refused["title"], refused["has header"]) == (
        403,
        "Accès refusé · Jink",
        True,
    )
    assert refused["main"].startswith("Erreur 403 Cette page ne vous est pas ouverte")
    assert text_of_links(client.get("/clubs/callan/balances/").content, "way-back") == [
        "/clubs/callan/",
        "/",
    ]


def test_a_form_refused_for_its_csrf_token_says_so_and_goes_back_to_the_form(seed):
    client = client_in("en", enforce_csrf_checks=True)
    response = client.post(
        "/accounts/login/",
        {"username": "pat", "password": "x"},
        HTTP_REFERER="http://testserver/accounts/login/",
    )
    assert page(response)["title"] == "Form expired · Jink"
    assert response.status_code == 403
    assert text_of_links(response.content, "way-back") == ["http://testserver/accounts/login/", "/"]
    # A referer from elsewhere is no way back.
    response = client.post("/accounts/login/", {}, HTTP_REFERER="https://elsewhere.example/")
    assert text_of_links(response.content, "way-back") == ["/"]
    french = client_in("fr", enforce_csrf_checks=True).post("/i18n/setlang/", {"language": "en"})
    assert page(french)["main"].startswith("Erreur 403 Ce formulaire avait expiré")


def test_a_malformed_request_is_a_400_in_the_site(seed):
    response = client_in("fr").get("/", HTTP_HOST="not a host")
    assert response.status_code == 400
    assert page(response)["title"] == "Demande incorrecte · Jink"


@override_settings(ROOT_URLCONF="tests.pages.error_urls")
def test_a_failing_page_is_a_500_in_the_site_without_touching_the_session(seed):
    client = client_in("fr")
    client.force_login(seed.users["pat"])
    response = client.get("/clubs/kilkenny/boom/")
    shown = page(response)
    assert (shown["status"], shown["lang"], shown["title"]) == (
        500,
        "fr",
        "Une erreur s'est produite · Jink",
    )
    assert shown["main"] == (
        "Erreur 500 Une erreur s'est produite de notre côté L'erreur a été enregistrée. "
        "Réessayez dans un instant ; si elle se reproduit, prévenez l'organisateur du club. "
        "Revenir à la page du club Retour à l'accueil"
    )
    # No session or user was read: no language form (it needs a CSRF token) and no user name.
    assert 'class="language"' not in response.content.decode()
    assert "pat" not in text_of(response.content, "main")


def test_too_many_failed_logins_is_a_429_in_the_site(seed):
    client = client_in("fr")
    for attempt in range(5):
        response = client.post("/accounts/login/", {"username": "pat", "password": f"no {attempt}"})
    shown = page(response)
    assert (shown["status"], shown["title"], shown["way back"]) == (
        429,
        "Accès bloqué · Jink",
        ["/"],
    )
    assert shown["main"].startswith("Erreur 429 Trop de connexions échouées")


def test_the_api_keeps_its_problem_documents_and_the_favicon_answers(seed):
    response = client_in("en").get("/api/nothing-here/")
    assert (response.status_code, response["Content-Type"]) == (404, "application/problem+json")
    favicon = client_in("en").get("/favicon.ico")
    assert (favicon.status_code, favicon["Content-Type"]) == (200, "image/x-icon")
    assert b"".join(favicon.streaming_content)[:4] == b"\x00\x00\x01\x00"
