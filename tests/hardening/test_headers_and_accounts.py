"""Headers on every answer, and the account fixes: caching, CSP, tokens and If-Match.

What it proves:
- API answers carry ``Cache-Control``: ``private, no-store`` for the token, my devices, balances,
  a ledger and a settlement (secret, even with an ETag), ``private, no-cache`` for answers with
  an ETag (a game, standings);
- every page and API answer carries the strict Content-Security-Policy (no 'unsafe-inline'
  script anywhere), ``Referrer-Policy``, ``X-Content-Type-Options`` and ``Permissions-Policy``;
  the Swagger UI at /api/docs/ is the one page with inline styles allowed, and in Chromium it
  renders the schema with no CSP violation (and the home page none either);
- a password change through the API revokes every other device token and keeps the caller's;
  a change anywhere else (Django's ``set_password`` + ``save``) revokes them all;
- a token login creates no session row and sets no cookie;
- an empty ``If-Match`` is 428 ``precondition_required`` on a hand correction, undo and record,
  and on a tournament change.

What it does not do: walk every page (tests/test_permission_matrix.py walks every route).
"""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from accounts.models import BrowserSession, DeviceToken
from accounts.services import issue_device_token
from tests.helpers import logged_in_client
from tests.permission_requests import world_for_matrix

PASSWORD = "cards-on-the-table-77"


@pytest.fixture
def world(db):
    return world_for_matrix(
        public=True, with_game=True, with_tournament=True, with_practice=True, with_jobs=True
    )


def _token_client(user, device="tablet") -> Client:
    _, token = issue_device_token(user=user, device=device)
    return Client(HTTP_AUTHORIZATION=f"Token {token}")


def test_cache_control_of_api_answers(world):
    organiser = _token_client(world.users["organiser"])
    values = world.path_values()
    no_store = [
        "/api/auth/me/",
        "/api/auth/devices/",
        f"/api/clubs/{world.club.slug}/balances/",
        f"/api/games/{values['game_id']}/ledger/",
        f"/api/tournaments/{values['tournament_id']}/settlement/",
    ]
    for url in no_store:
        response = organiser.get(url)
        assert response.status_code == 200, url
        assert response["Cache-Control"] == "private, no-store", url
    assert organiser.get(no_store[-1]).has_header("ETag")
    for url in (
        f"/api/games/{values['game_id']}/",
        f"/api/tournaments/{values['tournament_id']}/standings/",
    ):
        response = organiser.get(url)
        assert response.has_header("ETag"), url
        assert response["Cache-Control"] == "private, no-cache", url

    get_user_model().objects.create_user(username="mary", password=PASSWORD)
    login = Client().post(
        "/api/auth/token/",
        {"username": "mary", "password": PASSWORD},
        content_type="application/json",
    )
    assert login.status_code == 200
    assert login["Cache-Control"] == "private, no-store"


def _csp(response) -> dict[str, list[str]]:
    policy = response["Content-Security-Policy"]
    return {
        part.split()[0]: part.split()[1:] for part in (p.strip() for p in policy.split(";")) if part
    }


def test_security_headers_on_pages_and_api(world):
    organiser = world.users["organiser"]
    session = logged_in_client(organiser)
    for client, url in [
        (Client(), "/"),
        (Client(), "/accounts/login/"),
        (session, f"/clubs/{world.club.slug}/"),
        (Client(), "/api/schema/"),
        (_token_client(organiser), "/api/auth/me/"),
        (Client(), "/admin/login/"),
    ]:
        response = client.get(url)
        assert response.status_code == 200, url
        policy = _csp(response)
        assert policy["default-src"] == ["'none'"], url
        assert policy["script-src"] == ["'self'"], url
        assert policy["style-src"] == ["'self'"], url
        assert policy["frame-ancestors"] == ["'none'"], url
        assert policy["object-src"] == ["'none'"], url
        assert response["Referrer-Policy"] == "same-origin"
        assert response["X-Content-Type-Options"] == "nosniff"
        assert "camera=()" in response["Permissions-Policy"]
        assert "geolocation=()" in response["Permissions-Policy"]
    docs = Client().get("/api/docs/")
    assert docs.status_code == 200
    assert _csp(docs)["script-src"] == ["'self'"]
    assert _csp(docs)["style-src"] == ["'self'", "'unsafe-inline'"]
    assert b"<script>" not in docs.content  # the start-up script is a file: /api/docs/?script=


def test_pages_and_swagger_ui_run_under_the_policy(world, new_context, live_server):
    context = new_context()
    page = context.new_page()
    violations: list[str] = []
    page.on(
        "console",
        lambda message: (
            violations.append(message.text) if "Content Security Policy" in message.text else None
        ),
    )
    page.goto(f"{live_server.url}/")
    page.goto(f"{live_server.url}/api/docs/")
    page.wait_for_selector(".swagger-ui .info .title", timeout=15000)
    assert "Jink API" in page.inner_text(".swagger-ui .info .title")
    page.wait_for_selector(".opblock-tag", timeout=15000)
    assert violations == []


def test_password_change_revokes_the_other_devices(db):
    user = get_user_model().objects.create_user(username="mary", password=PASSWORD)
    phone = _token_client(user, device="phone")
    _token_client(user, device="tablet")
    _token_client(user, device="laptop")
    response = phone.post(
        "/api/auth/password/",
        {"current_password": PASSWORD, "new_password": "a-brand-new-secret-9"},
        content_type="application/json",
    )
    assert response.status_code == 204, response.content
    assert list(DeviceToken.objects.filter(user=user).values_list("device", flat=True)) == ["phone"]
    assert phone.get("/api/auth/me/").status_code == 200
    user.refresh_from_db()
    assert user.check_password("a-brand-new-secret-9")

    wrong = phone.post(
        "/api/auth/password/",
        {"current_password": "not-it", "new_password": "another-secret-99"},
        content_type="application/json",
    )
    assert wrong.status_code == 400
    assert wrong.json()["errors"][0]["pointer"] == "/current_password"

    # Elsewhere (admin, password pages, changepassword): no device is kept.
    user.set_password("changed-by-the-admin-1")
    user.save()
    assert not DeviceToken.objects.filter(user=user).exists()
    assert phone.get("/api/auth/me/").status_code == 401


def test_token_login_creates_no_session(db):
    get_user_model().objects.create_user(username="mary", password=PASSWORD)
    client = Client()
    response = client.post(
        "/api/auth/token/",
        {"username": "mary", "password": PASSWORD},
        content_type="application/json",
    )
    assert response.status_code == 200
    assert BrowserSession.objects.count() == 0
    assert "sessionid" not in response.cookies
    assert not response.has_header("Set-Cookie")


def test_an_empty_if_match_is_428(world):
    organiser = _token_client(world.users["organiser"])
    values = world.path_values()
    game, tournament = values["game_id"], values["tournament_id"]
    requests = [
        ("put", f"/api/games/{game}/hands/1/", {"dealer": 0, "misdeal": True}),
        ("delete", f"/api/games/{game}/hands/1/", None),
        ("post", f"/api/games/{game}/hands/", {"dealer": 0, "misdeal": True}),
        ("patch", f"/api/tournaments/{tournament}/", {"name": "Renamed"}),
    ]
    for method, url, body in requests:
        for empty in ("", "   "):
            response = getattr(organiser, method)(
                url, body, content_type="application/json", HTTP_IF_MATCH=empty
            )
            assert response.status_code == 428, (method, url, response.content)
            assert response.json()["code"] == "precondition_required"
