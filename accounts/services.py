"""Writes of the accounts app: register a user, issue and revoke device tokens.

What it does: ``check_registration`` validates a new account (free username, Django's password
validators) and ``register_user`` creates it (and queues the e-mail verification link);
``change_password`` checks the current password and
sets a new one (every other device token and browser session is ended: ``accounts.signals``);
``issue_device_token`` replaces the caller's token
for one device with a new one; ``revoke_device_token`` deletes one.

What it does not do: authenticate (views call ``django.contrib.auth.authenticate`` so that
django-axes counts failures) or decide HTTP status codes beyond raising ``Problem``.

Terms: see ``accounts.models``.
"""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.contrib.auth.password_validation import validate_password
from django.core.exceptions import ValidationError as DjangoValidationError
from django.db import transaction
from django.utils.translation import gettext

from accounts.models import DeviceToken
from accounts.signals import keep_device_token as keep_device_token_for_change
from accounts.signals import keep_session as keep_session_for_change
from accounts.verification import queue_verification_mail
from config.problems import Problem


def check_registration(*, username: str, password: str, email: str = "") -> None:
    """Raise ``Problem`` (400) listing everything wrong with a registration."""
    User = get_user_model()
    errors = []
    if User.objects.filter(username__iexact=username).exists():
        errors.append(
            {
                "code": "username_taken",
                "detail": gettext("That username is taken."),
                "pointer": "/username",
            }
        )
    try:
        validate_password(password, User(username=username, email=email))
    except DjangoValidationError as error:
        errors.extend(
            {"code": single.code or "invalid", "detail": message, "pointer": "/password"}
            for single in error.error_list
            for message in single.messages
        )
    if errors:
        raise Problem(
            code="invalid",
            detail=errors[0]["detail"] if len(errors) == 1 else f"{len(errors)} errors.",
            errors=errors,
        )


def register_user(*, username: str, password: str, email: str = ""):
    """Create an account after ``check_registration``; returns the user. An address given is
    sent its verification link after the commit (``accounts.verification``)."""
    check_registration(username=username, password=password, email=email)
    User = get_user_model()
    with transaction.atomic():
        user = User.objects.create_user(username=username, password=password, email=email)
        queue_verification_mail(user)
    return user


def change_password(
    *,
    user,
    current_password: str,
    new_password: str,
    keep_device_token=None,
    keep_session_key: str | None = None,
):
    """Set ``user``'s password after checking the current one and Django's validators.

    Every device token and browser session of ``user`` is ended except ``keep_device_token``
    and the session ``keep_session_key`` (the caller's own, ``accounts.signals``). Raises
    ``Problem`` (400) naming what is wrong.
    """
    if not user.check_password(current_password):
        raise Problem(
            code="invalid_credentials",
            detail="The current password is wrong.",
            pointer="/current_password",
        )
    try:
        validate_password(new_password, user)
    except DjangoValidationError as error:
        errors = [
            {"code": single.code or "invalid", "detail": message, "pointer": "/new_password"}
            for single in error.error_list
            for message in single.messages
        ]
        raise Problem(
            code="invalid",
            detail=errors[0]["detail"] if len(errors) == 1 else f"{len(errors)} errors.",
            errors=errors,
        ) from error
    with transaction.atomic():
        keep_device_token_for_change(user, keep_device_token)
        keep_session_for_change(user, keep_session_key)
        user.set_password(new_password)
        user.save(update_fields=["password"])


def issue_device_token(*, user, device: str) -> tuple[DeviceToken, str]:
    """A new token for ``user`` on ``device``, replacing that device's old token.

    Returns the stored token (its digest only) and the token string, which exists nowhere else.
    """
    with transaction.atomic():
        # Lock the user row so two logins from the same device cannot both insert a token.
        get_user_model().objects.select_for_update().filter(pk=user.pk).first()
        DeviceToken.objects.filter(user=user, device=device).delete()
        return DeviceToken.objects.create(user=user, device=device)


def revoke_device_token(*, user, device_token_id: int) -> None:
    """Delete one of ``user``'s tokens; 404 problem when it is not theirs or does not exist."""
    deleted, _ = DeviceToken.objects.filter(user=user, pk=device_token_id).delete()
    if not deleted:
        raise Problem(code="not_found", detail=gettext("No such device."))
