"""``manage.py ensure_superuser``: the demo's admin, with a second factor and printed recovery
codes that reach the admin (staff need a second factor there)."""

from __future__ import annotations

import re
from io import StringIO

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.test import Client
from django_otp.plugins.otp_totp.models import TOTPDevice

pytestmark = pytest.mark.django_db


def _run(*extra: str) -> str:
    out = StringIO()
    call_command(
        "ensure_superuser", "--username", "boss", "--password", "pw-1234", *extra, stdout=out
    )
    return out.getvalue()


def test_a_superuser_is_made_then_updated_without_a_second_factor_unless_asked():
    assert _run() == "Created superuser boss.\n"
    assert _run() == "Updated superuser boss.\n"
    user = get_user_model().objects.get(username="boss")
    assert (user.is_staff, user.is_superuser, user.check_password("pw-1234")) == (True, True, True)
    assert not TOTPDevice.objects.filter(user=user).exists()


def test_recovery_codes_are_printed_and_one_signs_in_to_the_admin_once():
    printed = _run("--recovery-codes")
    codes = re.search(r"recovery codes \(each signs in once\): (.+)", printed).group(1).split()
    assert len(codes) == 10
    assert "otpauth://totp/" in printed
    again = _run("--recovery-codes")  # a second run keeps the app's secret, makes new codes
    assert (
        re.search(r"otpauth://\S+", again).group() == re.search(r"otpauth://\S+", printed).group()
    )
    new_codes = re.search(r"once\): (.+)", again).group(1).split()
    assert set(new_codes).isdisjoint(codes)
    assert TOTPDevice.objects.filter(user__username="boss", confirmed=True).count() == 1

    client = Client()
    client.post("/admin/login/", {"username": "boss", "password": "pw-1234", "next": "/admin/"})
    assert client.get("/admin/")["Location"] == "/accounts/two-factor/?next=%2Fadmin%2F"
    old = client.post("/accounts/two-factor/", {"code": codes[0], "action": "verify"})
    assert old.status_code == 400  # the first run's codes were replaced: refused
    assert client.get("/admin/").status_code == 302
    used = client.post(
        "/accounts/two-factor/", {"code": new_codes[0], "action": "verify", "next": "/admin/"}
    )
    assert used["Location"] == "/admin/"
    assert client.get("/admin/").status_code == 200
    other = Client()
    other.post("/admin/login/", {"username": "boss", "password": "pw-1234"})
    reused = other.post("/accounts/two-factor/", {"code": new_codes[0], "action": "verify"})
    assert reused.status_code == 400
    assert other.get("/admin/").status_code == 302
