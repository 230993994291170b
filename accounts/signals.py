"""Device tokens die with the password they were issued under.

What it does: after any save of a user whose password was just set (``set_password`` then
``save``: the API's password change, Django's password pages, the admin, ``changepassword``),
every device token of that user is deleted, except the one ``keep_device_token`` names (the
device making the change through the API keeps working). A stolen tablet's token stops working
the moment its owner changes their password.

What it does not do: end browser sessions (Django does: a session holds a hash of the password
and is refused after a change, unless ``update_session_auth_hash`` renews the changer's).

Terms: Django's ``AbstractBaseUser`` keeps the new raw password in ``_password`` from
``set_password`` until the end of ``save``; ``post_save`` runs before it is cleared.
"""

from __future__ import annotations

from django.conf import settings
from django.db.models.signals import post_save
from django.dispatch import receiver

from accounts.models import DeviceToken

KEEP_ATTRIBUTE = "_keep_device_token_id"


def keep_device_token(user, device_token) -> None:
    """Mark ``device_token`` (or None) as the one to keep at ``user``'s next password save."""
    setattr(user, KEEP_ATTRIBUTE, getattr(device_token, "pk", None))


@receiver(post_save, sender=settings.AUTH_USER_MODEL, dispatch_uid="revoke_tokens_on_password")
def revoke_device_tokens_on_password_change(sender, instance, created, **kwargs) -> None:
    if created or getattr(instance, "_password", None) is None:
        return
    tokens = DeviceToken.objects.filter(user=instance)
    keep = getattr(instance, KEEP_ATTRIBUTE, None)
    if keep is not None:
        tokens = tokens.exclude(pk=keep)
    tokens.delete()
    setattr(instance, KEEP_ATTRIBUTE, None)
