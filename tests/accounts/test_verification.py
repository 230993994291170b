"""E-mail verification: the signed link (valid, expired, tampered, for an old address), the
account page's resend (rate-limited: 429 with Retry-After), and results mail only for verified
addresses (``accounts.verification.mail_refused``, the one filter of ``settlements.mails``)."""

from __future__ import annotations

import time
from unittest import mock

import pytest
from django.core import mail
from django.test import Client
from rest_framework.throttling import ScopedRateThrottle

from accounts import verification
from accounts.mail_settings import turn_off_results_mail
from accounts.models import MailSettings
from tests.accounts.helpers import PASSWORD, make_user, with_verified_address

pytestmark = pytest.mark.django_db


def link_of(user) -> str:
    return f"/account/verify/{verification.verification_token(user)}/"


def test_a_valid_link_verifies_the_address():
    user = make_user(email="Mary@Example.org")

    response = Client().get(link_of(user))

    assert response.status_code == 200
    assert 'id="verify-done"' in response.content.decode()
    settings_row = MailSettings.objects.get(user=user)
    assert settings_row.verified_email == "Mary@example.org"  # the domain as Django stores it
    assert settings_row.email_verified_at is not None
    assert verification.is_verified(user)


def test_an_expired_link_is_refused():
    user = make_user(email="mary@example.org")
    signed_at = time.time() - (3 * 24 * 3600 + 1)  # just over the link's 3 days ago
    with mock.patch("django.core.signing.time.time", return_value=signed_at):
        link = link_of(user)

    response = Client().get(link)

    assert response.status_code == 400
    assert 'id="verify-expired"' in response.content.decode()
    assert not verification.is_verified(user)


def test_a_tampered_link_is_refused():
    user = make_user(email="mary@example.org")
    other = make_user("john", email="john@example.org")
    token = verification.verification_token(user)
    forged = token.replace(":", "x", 1)
    # Another purpose's signature (the results-off link) is no verification either.
    from accounts.mail_settings import results_mail_token

    for bad in (forged, token[:-2] + "aa", results_mail_token(other.pk)):
        response = Client().get(f"/account/verify/{bad}/")
        assert response.status_code == 400
        assert 'id="verify-invalid"' in response.content.decode()
    assert not MailSettings.objects.exists()


def test_a_link_for_an_old_address_is_refused_and_a_changed_address_is_unverified_again():
    user = with_verified_address(make_user(email="mary@example.org"))
    old_link = link_of(user)
    user.email = "mary@elsewhere.org"
    user.save()

    assert not verification.is_verified(user)
    assert Client().get(old_link).status_code == 400
    assert not verification.is_verified(user)


def test_mail_refused_is_off_or_unverified():
    verified = with_verified_address(make_user("ann", email="ann@example.org"))
    unverified = make_user("bill", email="bill@example.org")
    turned_off = with_verified_address(make_user("cait", email="cait@example.org"))
    turn_off_results_mail(user=turned_off)

    refused = verification.mail_refused([verified.pk, unverified.pk, turned_off.pk])

    assert refused == {unverified.pk, turned_off.pk}


def signed_in(user) -> Client:
    client = Client()
    assert client.post("/accounts/login/", {"username": user.username, "password": PASSWORD})
    return client


def test_the_account_page_says_verify_and_resends_at_most_three_times_an_hour(
    monkeypatch, django_capture_on_commit_callbacks
):
    monkeypatch.setattr(
        ScopedRateThrottle, "THROTTLE_RATES", {"register": "20/hour", "verify_email": "3/hour"}
    )
    monkeypatch.setattr(ScopedRateThrottle, "timer", lambda self: 1_000_000.0)  # Retry-After exact
    user = make_user(email="mary@example.org")
    client = signed_in(user)

    page = client.get("/account/").content.decode()
    assert 'id="email-unverified"' in page and 'id="verify-resend"' in page

    with django_capture_on_commit_callbacks(execute=True):
        for _ in range(3):
            assert client.post("/account/verify/").status_code == 302
        refused = client.post("/account/verify/")

    assert refused.status_code == 429
    assert refused["Retry-After"] == "3600"
    assert "Too many messages asked for. Try again in 60 minutes." in refused.content.decode()
    assert [message.to for message in mail.outbox] == [["mary@example.org"]] * 3


def test_a_verified_address_shows_no_resend():
    user = with_verified_address(make_user(email="mary@example.org"))

    page = signed_in(user).get("/account/").content.decode()

    assert "mary@example.org is verified." in page
    assert 'id="verify-resend"' not in page


def test_the_results_mail_skips_an_unverified_address():
    from django.test import TestCase

    from settlements import services
    from settlements.models import SettleUpMail
    from tests.clubs.factories import make_user as make_account
    from tests.tournaments.play_helpers import build_event, start_game, win_game

    event = build_event(players=4)
    organiser = event.world.users["organiser"]
    night = services.open_night(
        club=event.club, user=organiser, name="Friday", entry_fee_minor=500, prize_split=[70, 30]
    )
    ann, bill, *_ = event.players
    ann.user = with_verified_address(make_account("ann", email="ann@example.org"))
    bill.user = make_account("bill", email="bill@example.org")  # never followed the link
    for player in (ann, bill):
        player.save()
    game = start_game(event, [ann, bill])
    win_game(event, game, 0)

    with TestCase.captureOnCommitCallbacks(execute=True):
        services.close_night(night_id=night.pk, user=organiser)

    assert [message.to for message in mail.outbox] == [["ann@example.org"]]
    assert list(SettleUpMail.objects.values_list("address", flat=True)) == ["ann@example.org"]
