"""The sign-in pages with a second factor, the two-factor page (set up, new recovery codes, turn
off), and who is sent there first: staff before the admin, organisers of a club that requires it
before the console."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django_otp import DEVICE_ID_SESSION_KEY
from django_otp.plugins.otp_static.models import StaticToken
from django_otp.plugins.otp_totp.models import TOTPDevice
from rest_framework.test import APIClient

from accounts import two_factor
from accounts.models import DeviceToken
from clubs.models import Club, Membership, Role
from tests.accounts.helpers import PASSWORD, login, make_user
from tests.accounts.two_factor_helpers import code_of, give_second_factor, verify_session

pytestmark = pytest.mark.django_db


def _password_step(client: Client, username: str = "mary", next_url: str = "/me/"):
    return client.post(
        "/accounts/login/", {"username": username, "password": PASSWORD, "next": next_url}
    )


def _code_step(client: Client, code: str, next_url: str = "/me/"):
    return client.post("/accounts/login/code/", {"code": code, "next": next_url})


def _signed_in(client: Client) -> bool:
    return "_auth_user_id" in client.session


def test_a_password_alone_does_not_sign_in_an_account_with_two_factors():
    give_second_factor(make_user())
    client = Client()

    response = _password_step(client)

    assert (response.status_code, response["Location"]) == (
        302,
        "/accounts/login/code/?next=%2Fme%2F",
    )
    assert not _signed_in(client)
    page = client.get(response["Location"])
    assert page.status_code == 200
    assert 'autocomplete="one-time-code"' in page.content.decode()


def test_the_code_signs_in_and_marks_the_session_verified():
    user = make_user()
    device = give_second_factor(user)
    client = Client()
    _password_step(client)

    response = _code_step(client, code_of(device))

    assert (response.status_code, response["Location"]) == (302, "/me/")
    assert client.session["_auth_user_id"] == str(user.pk)
    assert client.session[DEVICE_ID_SESSION_KEY] == device.persistent_id


def test_a_recovery_code_signs_in_once():
    user = make_user()
    give_second_factor(user)
    code = two_factor.replace_recovery_codes(user)[0]
    first, second = Client(), Client()
    _password_step(first)
    _password_step(second)

    assert _code_step(first, code.upper()).status_code == 302
    refused = _code_step(second, code)

    assert refused.status_code == 400
    assert "That code is wrong or has been used." in refused.content.decode()
    assert not _signed_in(second)


def test_wrong_codes_lock_the_page_out():
    device = give_second_factor(make_user())
    client = Client()
    _password_step(client)

    statuses = [_code_step(client, f"00000{n}").status_code for n in range(5)]
    locked = _code_step(client, code_of(device))

    assert statuses == [400, 400, 400, 400, 429]
    assert locked.status_code == 429
    assert "Too many failed logins" in locked.content.decode()
    assert not _signed_in(client)


def test_the_code_step_without_a_password_step_goes_back_to_the_login():
    response = Client().get("/accounts/login/code/?next=/me/")

    assert (response.status_code, response["Location"]) == (302, "/accounts/login/?next=%2Fme%2F")


def test_an_account_without_two_factors_signs_in_with_the_password():
    make_user()
    client = Client()

    response = _password_step(client)

    assert (response.status_code, response["Location"]) == (302, "/me/")
    assert _signed_in(client)


def test_staff_without_a_second_factor_are_sent_to_set_one_up():
    make_user(is_staff=True)
    client = Client()

    response = _password_step(client, next_url="/admin/")

    assert response["Location"] == "/accounts/two-factor/?next=%2Fadmin%2F"
    assert client.get("/admin/")["Location"] == "/accounts/two-factor/?next=%2Fadmin%2F"
    page = client.get("/accounts/two-factor/?next=/admin/").content.decode()
    assert "Set up two-factor sign-in to go on" in page
    assert "<svg" in page


def test_an_unverified_staff_session_is_asked_for_a_code_before_the_admin():
    user = make_user(is_staff=True, is_superuser=True)
    device = give_second_factor(user)
    client = Client()
    client.force_login(user)  # as the admin's own login page would: the password alone
    assert client.get("/admin/").status_code == 302

    response = client.post(
        "/accounts/two-factor/",
        {"action": "verify", "code": code_of(device), "next": "/admin/"},
    )

    assert response["Location"] == "/admin/"
    assert client.get("/admin/").status_code == 200


def _club(organiser, *, required: bool) -> Club:
    club = Club.objects.create(
        name="Ballyjink", slug="ballyjink", currency="EUR", time_zone="Europe/Dublin"
    )
    club.require_two_factor = required
    club.save()
    Membership.objects.create(club=club, user=organiser, role=Role.ORGANISER)
    return club


def test_an_organiser_of_a_club_that_requires_it_is_sent_to_set_up():
    _club(make_user(), required=True)
    client = Client()

    response = _password_step(client, next_url="/clubs/ballyjink/console/")

    assert response["Location"] == "/accounts/two-factor/?next=%2Fclubs%2Fballyjink%2Fconsole%2F"
    console = client.get("/clubs/ballyjink/console/")
    assert console["Location"] == "/accounts/two-factor/?next=%2Fclubs%2Fballyjink%2Fconsole%2F"


def test_the_console_opens_for_a_verified_organiser_and_where_it_is_not_required():
    user = make_user()
    _club(user, required=True)
    client = Client()
    client.force_login(user)
    verify_session(client, user)
    assert client.get("/clubs/ballyjink/console/").status_code == 200

    other = make_user("ann")
    Club.objects.update(require_two_factor=False)
    Membership.objects.create(club=Club.objects.get(), user=other, role=Role.ORGANISER)
    plain = Client()
    plain.force_login(other)
    assert plain.get("/clubs/ballyjink/console/").status_code == 200


def _setup_page(client: Client) -> str:
    return client.get("/accounts/two-factor/").content.decode()


def test_setting_it_up_shows_the_recovery_codes_once_and_ends_the_other_sessions():
    user = make_user()
    other_browser = Client()
    other_browser.force_login(user)
    login(APIClient(), device="tablet")
    client = Client()
    client.force_login(user)
    page = _setup_page(client)
    secret = re.search(r'id="two-factor-secret">([A-Z2-7 ]+)<', page).group(1)
    device = TOTPDevice.objects.get(user=user, confirmed=False)
    assert secret.replace(" ", "") == __import__("base64").b32encode(device.bin_key).decode()

    response = client.post("/accounts/two-factor/", {"action": "confirm", "code": code_of(device)})

    assert response.status_code == 200
    shown = re.findall(r"<li><code>([a-z2-7]+)</code></li>", response.content.decode())
    assert len(shown) == two_factor.RECOVERY_CODE_COUNT
    assert sorted(shown) == sorted(StaticToken.objects.values_list("token", flat=True))
    assert two_factor.has_second_factor(user)
    assert client.session[DEVICE_ID_SESSION_KEY] == device.persistent_id
    assert not _signed_in(other_browser)
    assert DeviceToken.objects.count() == 0
    assert "<li><code>" not in _setup_page(client)  # shown only then


def test_a_wrong_first_code_leaves_it_off():
    user = make_user()
    client = Client()
    client.force_login(user)
    _setup_page(client)

    response = client.post("/accounts/two-factor/", {"action": "confirm", "code": "000000"})

    assert response.status_code == 400
    assert "That code is wrong or has been used." in response.content.decode()
    assert not two_factor.has_second_factor(user)


def test_turning_it_off_needs_a_code_and_ends_the_other_sessions():
    user = make_user()
    device = give_second_factor(user)
    other_browser = Client()
    other_browser.force_login(user)
    client = Client()
    client.force_login(user)
    verify_session(client, user)

    refused = client.post("/accounts/two-factor/", {"action": "turn_off", "code": "000000"})
    assert refused.status_code == 400
    response = client.post("/accounts/two-factor/", {"action": "turn_off", "code": code_of(device)})

    assert response["Location"] == "/accounts/two-factor/"
    assert not two_factor.has_second_factor(user)
    assert not _signed_in(other_browser)
    assert _signed_in(client)


def test_staff_may_not_turn_it_off():
    user = make_user(is_staff=True)
    device = give_second_factor(user)
    client = Client()
    client.force_login(user)
    verify_session(client, user)

    response = client.post("/accounts/two-factor/", {"action": "turn_off", "code": code_of(device)})

    assert response.status_code == 409
    assert "must keep two-factor sign-in" in response.content.decode()
    assert two_factor.has_second_factor(user)


def test_new_recovery_codes_replace_the_old_ones():
    user = make_user()
    device = give_second_factor(user)
    old = two_factor.replace_recovery_codes(user)
    client = Client()
    client.force_login(user)
    verify_session(client, user)

    response = client.post(
        "/accounts/two-factor/", {"action": "new_codes", "code": code_of(device)}
    )

    shown = re.findall(r"<li><code>([a-z2-7]+)</code></li>", response.content.decode())
    assert len(shown) == two_factor.RECOVERY_CODE_COUNT
    assert not set(shown) & set(old)
    assert sorted(StaticToken.objects.values_list("token", flat=True)) == sorted(shown)


def test_the_console_settings_set_the_requirement():
    user = make_user()
    club = _club(user, required=False)
    client = Client()
    client.force_login(user)
    fields = {"name": "Ballyjink", "slug": "ballyjink", "currency": "EUR"}

    response = client.post(
        "/clubs/ballyjink/console/settings/",
        {**fields, "time_zone": "Europe/Dublin", "require_two_factor": "on"},
    )

    assert response.status_code == 302
    club.refresh_from_db()
    assert club.require_two_factor is True
    # the organiser's own session has no second factor yet: set-up first
    assert client.get("/clubs/ballyjink/console/settings/")["Location"].startswith(
        "/accounts/two-factor/"
    )
