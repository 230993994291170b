"""The two-factor services: who must have a second factor, setting it up and turning it off (the
account's other sessions and tokens end), codes (the app's once per period, recovery codes once,
spaces and case forgiven) and the challenge."""

from __future__ import annotations

import pytest
from django_otp.plugins.otp_static.models import StaticDevice
from django_otp.plugins.otp_totp.models import TOTPDevice

from accounts import two_factor
from accounts.models import BrowserSession, DeviceToken
from accounts.services import issue_device_token
from accounts.sessions_store import SessionStore, key_hash
from clubs.models import Club, Membership, Role
from config.problems import Problem
from tests.accounts.helpers import make_user
from tests.accounts.two_factor_helpers import code_of, give_second_factor

pytestmark = pytest.mark.django_db


def _session_of(user) -> str:
    session = SessionStore()
    session["_auth_user_id"] = str(user.pk)
    session.create()
    return session.session_key


def _kept() -> set[str]:
    return set(BrowserSession.objects.values_list("key_hash", flat=True))


def _club(*, required: bool) -> Club:
    return Club.objects.create(
        name="Ballyjink",
        slug="ballyjink",
        currency="EUR",
        time_zone="Europe/Dublin",
        require_two_factor=required,
    )


def test_who_needs_a_second_factor():
    staff = make_user("staff", is_staff=True)
    organiser = make_user("org")
    scorekeeper = make_user("score")
    elsewhere = make_user("else")
    club = _club(required=True)
    Membership.objects.create(club=club, user=organiser, role=Role.ORGANISER)
    Membership.objects.create(club=club, user=scorekeeper, role=Role.SCOREKEEPER)
    relaxed = Club.objects.create(
        name="Other", slug="other", currency="EUR", time_zone="Europe/Dublin"
    )
    Membership.objects.create(club=relaxed, user=elsewhere, role=Role.ORGANISER)

    assert [
        two_factor.needs_second_factor(u) for u in (staff, organiser, scorekeeper, elsewhere)
    ] == [
        True,
        True,
        False,
        False,
    ]


def test_setting_it_up_ends_the_other_sessions_and_tokens_but_the_callers():
    user = make_user()
    stranger = make_user("ann")
    mine, _other, theirs = _session_of(user), _session_of(user), _session_of(stranger)
    kept, _ = issue_device_token(user=user, device="phone")
    issue_device_token(user=user, device="tablet")
    issue_device_token(user=stranger, device="tablet")
    device = two_factor.start_set_up(user)

    confirmed, codes = two_factor.confirm_set_up(
        user, code_of(device), keep_session_key=mine, keep_token_key=kept.token_key
    )

    assert confirmed.confirmed is True
    assert len(codes) == len(set(codes)) == two_factor.RECOVERY_CODE_COUNT
    assert _kept() == {key_hash(mine), key_hash(theirs)}
    assert sorted(DeviceToken.objects.values_list("user__username", "device")) == [
        ("ann", "tablet"),
        ("mary", "phone"),
    ]


def test_a_wrong_first_code_confirms_nothing():
    user = make_user()
    two_factor.start_set_up(user)

    with pytest.raises(Problem) as refused:
        two_factor.confirm_set_up(user, "000000")

    assert (refused.value.code, refused.value.status_code) == ("invalid_code", 400)
    assert not two_factor.has_second_factor(user)
    assert StaticDevice.objects.count() == 0


def test_setting_it_up_twice_is_refused():
    user = make_user()
    give_second_factor(user)

    with pytest.raises(Problem) as refused:
        two_factor.start_set_up(user)

    assert (refused.value.code, refused.value.status_code) == ("second_factor_already_on", 409)


def test_codes_forgive_spaces_and_case_and_work_once():
    user = make_user()
    device = give_second_factor(user)
    recovery = two_factor.replace_recovery_codes(user)[0]
    code = code_of(device)

    assert two_factor.verify_code(user, f" {code[:3]} {code[3:]} ") == device
    assert two_factor.verify_code(user, code) is None  # this period's code is used
    assert isinstance(two_factor.verify_code(user, recovery.upper()), StaticDevice)
    assert two_factor.verify_code(user, recovery) is None
    assert two_factor.verify_code(user, "") is None


def test_turning_it_off_removes_both_and_ends_the_others():
    user = make_user()
    device = give_second_factor(user)
    two_factor.replace_recovery_codes(user)
    mine, other = _session_of(user), _session_of(user)

    two_factor.turn_off(user, code_of(device), keep_session_key=mine)

    assert TOTPDevice.objects.count() == StaticDevice.objects.count() == 0
    assert _kept() == {key_hash(mine)}
    assert key_hash(other) not in _kept()


def test_an_organiser_of_a_club_that_requires_it_may_not_turn_it_off():
    user = make_user()
    Membership.objects.create(club=_club(required=True), user=user, role=Role.ORGANISER)
    device = give_second_factor(user)

    with pytest.raises(Problem) as refused:
        two_factor.turn_off(user, code_of(device))

    assert (refused.value.code, refused.value.status_code) == ("second_factor_must_stay", 409)
    assert two_factor.has_second_factor(user)


def test_the_challenge_names_the_account_and_device():
    user = make_user()

    assert two_factor.read_challenge(two_factor.make_challenge(user, "phone")) == (user, "phone")
    with pytest.raises(Problem) as refused:
        two_factor.read_challenge("garbled")
    assert (refused.value.code, refused.value.status_code) == ("invalid_challenge", 401)
