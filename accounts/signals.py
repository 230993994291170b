"""Device tokens and signed-in browsers die with the password they were issued under.

What it does: after any save of a user whose password was just set (``set_password`` then
``save``: the API's password change, Django's password pages, the admin, ``changepassword``),
every device token and every browser session of that user is ended
(``accounts.devices.end_other_sessions``), except the ones ``keep_device_token`` and
``keep_session`` name (the device or browser making the change through the API keeps working).
A stolen tablet's token, or a browser left signed in elsewhere, stops working the moment its
owner changes their password.

Django's password change page keeps its own browser another way: it renews that browser's
session after the save (``update_session_auth_hash`` stores the session again under a new key).

What it does not do: decide who may change a password (``accounts.services.change_password``).

Terms: Django's ``AbstractBaseUser`` keeps the new raw password in ``_password`` from
``set_password`` until the end of ``save``; ``post_save`` runs before it is cleared.
"""

from __future__ import annotations

from django.conf import settings
from django.db.models.signals import post_save
from django.dispatch import receiver

from accounts.devices import end_other_sessions

KEEP_TOKEN_ATTRIBUTE = "_keep_device_token_key"
KEEP_SESSION_ATTRIBUTE = "_keep_session_key"


def keep_device_token(user, device_token) -> None:
    """Mark ``device_token`` (or None) as the one to keep at ``user``'s next password save."""
    setattr(user, KEEP_TOKEN_ATTRIBUTE, getattr(device_token, "token_key", None))


def keep_session(user, session_key: str | None) -> None:
    """Mark the browser session ``session_key`` (or None) as the one to keep at ``user``'s next
    password save."""
    setattr(user, KEEP_SESSION_ATTRIBUTE, session_key)


@receiver(post_save, sender=settings.AUTH_USER_MODEL, dispatch_uid="revoke_tokens_on_password")
def revoke_device_tokens_on_password_change(sender, instance, created, **kwargs) -> None:
    if created or getattr(instance, "_password", None) is None:
        return
    end_other_sessions(
        instance,
        keep_session_key=getattr(instance, KEEP_SESSION_ATTRIBUTE, None),
        keep_token_key=getattr(instance, KEEP_TOKEN_ATTRIBUTE, None),
    )
    setattr(instance, KEEP_TOKEN_ATTRIBUTE, None)
    setattr(instance, KEEP_SESSION_ATTRIBUTE, None)
