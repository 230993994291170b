"""Two-factor sign-in: an authenticator app's codes (TOTP) and single-use recovery codes.

What it does: the services behind the set-up page, the sign-in pages and the API's token
exchange, on django-otp's models (``TOTPDevice``: the app's secret; ``StaticDevice``: the
recovery codes, each deleted when used). ``start_set_up`` gives the account an unconfirmed
authenticator; ``confirm_set_up`` checks a first code, confirms it, makes the recovery codes and
ends the account's other sessions and device tokens (``accounts.devices.end_other_sessions``);
``turn_off`` (a current code needed) removes
both and ends the others too; ``new_recovery_codes`` replaces the codes. ``verify_code`` accepts
a current code or an unused recovery code. ``needs_second_factor`` says whether an account must
have one: staff always, an organiser of a club that requires it (``Club.require_two_factor``).
``make_challenge``/``read_challenge`` sign the short-lived proof, handed out by the API's token
endpoint, that the password was right.

What it does not do: count wrong codes (``accounts.two_factor_lockout``, through django-axes as
wrong passwords), pages or HTTP (``web.two_factor_pages``, ``accounts.views``).

Terms:
- *second factor*: a confirmed authenticator (TOTP device) on the account.
- *verified session*: a browser session signed in with a code (django-otp's
  ``request.user.is_verified()``); a device token is only ever issued after a code, so an
  account's tokens count as verified once it has a second factor.
- *challenge*: ``signing.dumps`` of the account id, the device name and a mark of the password,
  valid ``CHALLENGE_SECONDS`` and only while the password is unchanged.
"""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.core import signing
from django.db import transaction
from django.utils.translation import gettext
from django_otp.plugins.otp_static.models import StaticDevice, StaticToken
from django_otp.plugins.otp_totp.models import TOTPDevice

from accounts.devices import end_other_sessions
from clubs.models import Role
from clubs.permissions import second_factor_verified
from config.problems import Problem

RECOVERY_CODE_COUNT = 10
CHALLENGE_SECONDS = 300
CHALLENGE_SALT = "accounts.two_factor.challenge"
DEVICE_NAME = "authenticator"
RECOVERY_NAME = "recovery codes"


def has_second_factor(user) -> bool:
    """Whether ``user`` has a confirmed authenticator."""
    if user is None or not user.is_authenticated:
        return False
    return TOTPDevice.objects.filter(user=user, confirmed=True).exists()


def needs_second_factor(user) -> bool:
    """Staff always; an organiser of any club that requires two factors."""
    if user is None or not user.is_authenticated:
        return False
    if user.is_staff:
        return True
    return user.club_memberships.filter(role=Role.ORGANISER, club__require_two_factor=True).exists()


def is_verified(user) -> bool:
    """The session was signed in with a code (``clubs.permissions.second_factor_verified``)."""
    return second_factor_verified(user)


def start_set_up(user) -> TOTPDevice:
    """The account's unconfirmed authenticator (made once, shown until confirmed).

    Refused (409 ``second_factor_already_on``) when the account has a confirmed one.
    """
    if has_second_factor(user):
        raise Problem(
            code="second_factor_already_on",
            detail=gettext("Two-factor sign-in is already on for this account."),
        )
    device = TOTPDevice.objects.filter(user=user, confirmed=False).first()
    if device is None:
        device = TOTPDevice.objects.create(user=user, name=DEVICE_NAME, confirmed=False)
    return device


def wrong_code() -> Problem:
    return Problem(
        code="invalid_code",
        detail=gettext("That code is wrong or has been used."),
        pointer="/code",
    )


def _normalised(code: str) -> str:
    return "".join(str(code).split()).replace("-", "").lower()


@transaction.atomic
def confirm_set_up(
    user, code: str, *, keep_session_key: str | None = None, keep_token_key: str | None = None
) -> tuple[TOTPDevice, list[str]]:
    """Confirm the unconfirmed authenticator with its first code; returns it and the new
    recovery codes (shown once). Ends the account's other sessions and device tokens.

    Raises ``Problem``: 409 ``second_factor_already_on``; 400 ``invalid_code`` (the caller counts
    it as a failed login).
    """
    device = start_set_up(user)
    if not device.verify_token(_normalised(code)):
        raise wrong_code()
    device.confirmed = True
    device.save(update_fields=["confirmed"])
    codes = replace_recovery_codes(user)
    end_other_sessions(user, keep_session_key=keep_session_key, keep_token_key=keep_token_key)
    return device, codes


def replace_recovery_codes(user) -> list[str]:
    """New recovery codes for ``user`` (the old ones end); no code asked: callers check one."""
    StaticDevice.objects.filter(user=user).delete()
    static = StaticDevice.objects.create(user=user, name=RECOVERY_NAME, confirmed=True)
    codes = [StaticToken.random_token() for _ in range(RECOVERY_CODE_COUNT)]
    StaticToken.objects.bulk_create([StaticToken(device=static, token=code) for code in codes])
    return codes


def verify_code(user, code: str):
    """The device that accepts ``code`` (the authenticator's current code, or an unused recovery
    code, which is used up), or None."""
    token = _normalised(code)
    if not token:
        return None
    with transaction.atomic():
        totp = TOTPDevice.objects.select_for_update().filter(user=user, confirmed=True).first()
        if totp is None:
            return None
        if token.isdigit() and totp.verify_token(token):
            return totp
        for static in StaticDevice.objects.select_for_update().filter(user=user, confirmed=True):
            if static.verify_token(token):
                return static
    return None


def check_code(user, code: str):
    """``verify_code`` or 400 ``invalid_code``."""
    device = verify_code(user, code)
    if device is None:
        raise wrong_code()
    return device


def new_recovery_codes(user, code: str) -> list[str]:
    """Replace the recovery codes (a current code needed); returns the new ones."""
    with transaction.atomic():
        check_code(user, code)
        return replace_recovery_codes(user)


def recovery_codes_left(user) -> int:
    return StaticToken.objects.filter(device__user=user, device__confirmed=True).count()


@transaction.atomic
def turn_off(
    user, code: str, *, keep_session_key: str | None = None, keep_token_key: str | None = None
) -> None:
    """Remove the authenticator and recovery codes (a current code needed) and end the account's
    other sessions and device tokens.

    Raises ``Problem``: 409 ``second_factor_must_stay`` for an account that must keep it (staff,
    an organiser of a club that requires it); 400 ``invalid_code``.
    """
    if needs_second_factor(user):
        raise Problem(
            code="second_factor_must_stay",
            detail=gettext(
                "This account must keep two-factor sign-in: it is staff, or an organiser of a "
                "club that requires it."
            ),
        )
    check_code(user, code)
    TOTPDevice.objects.filter(user=user).delete()
    StaticDevice.objects.filter(user=user).delete()
    end_other_sessions(user, keep_session_key=keep_session_key, keep_token_key=keep_token_key)


def make_challenge(user, device: str) -> str:
    return signing.dumps(
        {"user": user.pk, "device": device, "hash": _password_mark(user)}, salt=CHALLENGE_SALT
    )


def _password_mark(user) -> str:
    # A challenge dies with the password it was earned with.
    return user.get_session_auth_hash()[:16]


def read_challenge(challenge: str) -> tuple[object, str]:
    """The account and device name a challenge was given for; 401 ``invalid_challenge`` when it
    is forged, garbled or older than ``CHALLENGE_SECONDS``."""
    try:
        data = signing.loads(challenge, salt=CHALLENGE_SALT, max_age=CHALLENGE_SECONDS)
        user = get_user_model().objects.get(pk=data["user"], is_active=True)
        if data["hash"] != _password_mark(user):
            raise signing.BadSignature("the password has changed")
    except (signing.BadSignature, KeyError, TypeError, get_user_model().DoesNotExist) as error:
        raise Problem(
            code="invalid_challenge",
            detail=gettext("The sign-in challenge is wrong or has expired. Sign in again."),
            pointer="/challenge",
        ) from error
    return user, str(data.get("device", ""))
