"""The API's token login for an account with two factors: the challenge, the code step, recovery
codes used once, the lockout shared with passwords, and organiser actions refused (403) without a
second factor where one is required."""

from __future__ import annotations

import pytest
from django.core import signing
from rest_framework.test import APIClient

from accounts import two_factor
from accounts.models import DeviceToken
from clubs.models import Club, Membership, Role
from tests.accounts.helpers import PASSWORD, client_with_token, login, make_user
from tests.accounts.two_factor_helpers import code_of, give_second_factor

pytestmark = pytest.mark.django_db

CODE_DETAIL = "That code is wrong or has been used."
LOCKED_OUT_DETAIL = "Too many failed logins. Try again in 15 minutes."


def _challenge(client=None, **extra) -> str:
    response = login(client or APIClient(), **extra)
    assert response.status_code == 401
    return response.json()["challenge"]


def _second_step(client, challenge: str, code: str):
    return client.post("/api/auth/token/code/", {"challenge": challenge, "code": code})


def test_the_password_alone_gives_a_challenge_not_a_token():
    give_second_factor(make_user())

    response = login(APIClient(), device="phone")

    assert response.status_code == 401
    assert response["Content-Type"] == "application/problem+json"
    assert response["WWW-Authenticate"] == 'Token realm="api"'
    body = response.json()
    challenge = body.pop("challenge")
    detail = (
        "This account signs in with two factors: send the challenge and a code from the "
        "authenticator app (or a recovery code) to /api/auth/token/code/."
    )
    assert body == {
        "type": "urn:jink:problem:second_factor_required",
        "title": "Authentication required.",
        "status": 401,
        "detail": detail,
        "code": "second_factor_required",
        "errors": [{"code": "second_factor_required", "detail": detail, "pointer": None}],
        "challenge_expires_in": 300,
    }
    assert signing.loads(challenge, salt=two_factor.CHALLENGE_SALT)["device"] == "phone"
    assert DeviceToken.objects.count() == 0


def test_the_challenge_and_the_code_give_the_token():
    user = make_user()
    device = give_second_factor(user)
    client = APIClient()

    response = _second_step(client, _challenge(client, device="phone"), code_of(device))

    assert response.status_code == 200
    body = response.json()
    assert body["device"]["name"] == "phone"
    assert body["user"] == {"id": user.pk, "username": "mary", "email": ""}
    assert client_with_token(body["token"]).get("/api/auth/me/").status_code == 200
    assert list(DeviceToken.objects.values_list("device", flat=True)) == ["phone"]


def test_a_wrong_code_is_a_400_and_gives_no_token():
    give_second_factor(make_user())
    client = APIClient()

    response = _second_step(client, _challenge(client), "000000")

    assert response.status_code == 400
    assert response.json()["code"] == "invalid_code"
    assert response.json()["errors"] == [
        {"code": "invalid_code", "detail": CODE_DETAIL, "pointer": "/code"}
    ]
    assert DeviceToken.objects.count() == 0


def test_a_forged_or_expired_challenge_is_a_401(settings):
    user = make_user()
    device = give_second_factor(user)
    client = APIClient()
    forged = signing.dumps({"user": user.pk, "device": "x", "hash": "y"}, salt="other")

    response = _second_step(client, forged, code_of(device))

    assert response.status_code == 401
    assert response.json()["code"] == "invalid_challenge"
    assert response.json()["errors"][0]["pointer"] == "/challenge"


def test_a_challenge_dies_with_the_password():
    user = make_user()
    device = give_second_factor(user)
    client = APIClient()
    challenge = _challenge(client)
    user.set_password("a new one entirely 2026")
    user.save()

    assert _second_step(client, challenge, code_of(device)).json()["code"] == "invalid_challenge"


def test_a_recovery_code_works_once():
    user = make_user()
    give_second_factor(user)
    code = two_factor.replace_recovery_codes(user)[0]
    client = APIClient()

    first = _second_step(client, _challenge(client), code)
    second = _second_step(client, _challenge(client), code)

    assert first.status_code == 200
    assert second.status_code == 400
    assert second.json()["code"] == "invalid_code"
    assert two_factor.recovery_codes_left(user) == two_factor.RECOVERY_CODE_COUNT - 1


def test_an_authenticator_code_works_once():
    device = give_second_factor(make_user())
    client = APIClient()
    code = code_of(device)

    assert _second_step(client, _challenge(client), code).status_code == 200
    assert _second_step(client, _challenge(client), code).status_code == 400


def test_wrong_codes_lock_out_like_wrong_passwords():
    device = give_second_factor(make_user())
    client = APIClient()
    challenge = _challenge(client)

    statuses = [_second_step(client, challenge, f"00000{n}").status_code for n in range(5)]
    locked = _second_step(client, challenge, code_of(device))  # even the right code now

    assert statuses == [400, 400, 400, 400, 429]
    assert locked.status_code == 429
    assert locked["Retry-After"] == "900"
    assert locked.json()["code"] == "locked_out"
    assert locked.json()["detail"] == LOCKED_OUT_DETAIL
    assert login(client).status_code == 429  # and the password too
    assert DeviceToken.objects.count() == 0


def test_wrong_passwords_and_wrong_codes_count_together():
    give_second_factor(make_user())
    client = APIClient()
    for n in range(3):
        assert login(client, password=f"wrong {n}").status_code == 400
    challenge = _challenge(client)

    statuses = [_second_step(client, challenge, f"11111{n}").status_code for n in range(2)]

    assert statuses == [400, 429]


def test_a_right_code_resets_the_count():
    device = give_second_factor(make_user())
    client = APIClient()
    challenge = _challenge(client)
    for n in range(4):
        _second_step(client, challenge, f"22222{n}")

    assert _second_step(client, challenge, code_of(device)).status_code == 200
    statuses = [_second_step(client, challenge, f"33333{n}").status_code for n in range(4)]
    assert statuses == [400, 400, 400, 400]


def test_the_code_step_refuses_unknown_fields():
    response = APIClient().post(
        "/api/auth/token/code/", {"challenge": "x", "code": "1", "password": PASSWORD}
    )

    assert response.status_code == 400


# Organiser actions where a second factor is required ---------------------------------------


def _club(organiser, *, required: bool) -> Club:
    club = Club.objects.create(
        name="Ballyjink", slug="ballyjink", currency="EUR", time_zone="Europe/Dublin"
    )
    club.require_two_factor = required
    club.save()
    Membership.objects.create(club=club, user=organiser, role=Role.ORGANISER)
    return club


def _rename(client):
    return client.patch("/api/clubs/ballyjink/", {"name": "Renamed"})


def _token_client(username: str) -> APIClient:
    response = login(APIClient(), username=username)
    return client_with_token(response.json()["token"])


def test_an_organiser_without_a_second_factor_gets_403_where_the_club_requires_one():
    _club(make_user(), required=True)
    client = _token_client("mary")

    response = _rename(client)

    assert response.status_code == 403
    assert response.json()["code"] == "second_factor_setup_required"
    assert response.json()["detail"] == (
        "Organiser actions in this club need two-factor sign-in: turn it on at "
        "/accounts/two-factor/, then sign in again."
    )
    assert client.get("/api/clubs/ballyjink/").status_code == 200  # reading is not refused
    assert Club.objects.get().name == "Ballyjink"


def test_an_organiser_with_a_second_factor_acts():
    user = make_user()
    _club(user, required=True)
    device = give_second_factor(user)
    client = APIClient()
    token = _second_step(client, _challenge(client), code_of(device)).json()["token"]

    assert _rename(client_with_token(token)).status_code == 200


def test_a_club_that_does_not_require_it_lets_the_organiser_act():
    _club(make_user(), required=False)

    assert _rename(_token_client("mary")).status_code == 200


def test_staff_always_need_it_for_organiser_actions():
    _club(make_user(is_staff=True), required=False)

    assert _rename(_token_client("mary")).json()["code"] == "second_factor_setup_required"


def test_money_and_tournament_writes_are_refused_too():
    _club(make_user(), required=True)
    client = _token_client("mary")

    night = client.post("/api/clubs/ballyjink/nights/", {"name": "Friday"})
    event = client.post("/api/clubs/ballyjink/tournaments/", {"name": "Cup"})

    assert night.json()["code"] == "second_factor_setup_required"
    assert event.json()["code"] == "second_factor_setup_required"
