"""Helpers of the two-factor tests: an authenticator for an account, its current code, and a
test client's session marked as signed in with a second factor (as the admin requires of staff).
"""

from __future__ import annotations

import time

from django_otp import DEVICE_ID_SESSION_KEY
from django_otp.oath import TOTP
from django_otp.plugins.otp_totp.models import TOTPDevice


def give_second_factor(user) -> TOTPDevice:
    """A confirmed authenticator for ``user`` (made once)."""
    device = TOTPDevice.objects.filter(user=user, confirmed=True).first()
    return device or TOTPDevice.objects.create(user=user, name="authenticator", confirmed=True)


def code_of(device: TOTPDevice, *, steps_ahead: int = 0) -> str:
    """The code the app shows now (or ``steps_ahead`` periods later: a code is accepted one
    period early, and each period's code only once)."""
    totp = TOTP(device.bin_key, device.step, device.t0, device.digits, device.drift)
    totp.time = time.time() + steps_ahead * device.step
    return f"{totp.token():0{device.digits}d}"


def verify_session(client, user) -> TOTPDevice:
    """Mark ``client``'s session (already logged in as ``user``) as signed in with a code."""
    device = give_second_factor(user)
    session = client.session
    session[DEVICE_ID_SESSION_KEY] = device.persistent_id
    session.save()
    return device
