"""Device tokens: one API token per user and device, hashed at rest, with an expiry.

What it does: ``DeviceToken`` is django-rest-knox's token model (``KNOX_TOKEN_MODEL``) with a
device name and a plain integer id. Knox stores only a SHA-512 digest of each token, so a
database leak does not leak tokens; the token itself is shown once, at login. A user has at most
one token per device name (a database constraint backs it): logging in again from the same device
replaces that device's token, and revoking a device (a lost tablet) deletes its token.

``MailSettings``: what an account wants by e-mail — the language of its messages and whether it
gets the results after each event (``accounts.mail_settings`` reads and writes it, and signs the
link that turns the results off).

What it does not do: users (Django's ``auth.User`` is the account) or club roles
(``clubs.Membership``).

Terms:
- *device*: the name a client gives itself at login ("bar tablet", "Mary's phone"); "default"
  when it gives none.
- *token key*: the first characters of a token, stored in clear so authentication can find the
  candidate rows before comparing digests.
"""

from django.conf import settings
from django.db import models
from knox.models import AbstractAuthToken
from knox.settings import CONSTANTS

DEFAULT_DEVICE_NAME = "default"


class DeviceToken(AbstractAuthToken):
    # Knox makes the digest the primary key; an integer id is what URLs should carry instead
    # (/api/auth/devices/{id}/), so the digest becomes an ordinary unique column.
    id = models.BigAutoField(primary_key=True)
    digest = models.CharField(max_length=CONSTANTS.DIGEST_LENGTH, unique=True)
    device = models.CharField(max_length=100, default=DEFAULT_DEVICE_NAME)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["user", "device"], name="one_token_per_user_device"),
        ]
        ordering = ["-created"]

    def __str__(self) -> str:
        return f"{self.user} on {self.device}"


class MailSettings(models.Model):
    """What an account wants by e-mail: the language of the messages, and whether it gets the
    results after each event (``settlements.mails``). No row: the site's language, messages on."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        primary_key=True,
        related_name="mail_settings",
    )
    language = models.CharField(
        max_length=8,
        blank=True,
        help_text="The account's language (the site's language switch, used while logged in).",
    )
    results_mail = models.BooleanField(
        default=True, help_text="Send the results after each event (off from the message's link)."
    )
    updated_at = models.DateTimeField(auto_now=True)

    def __str__(self) -> str:
        return f"mail settings of {self.user_id}"
