"""Device tokens: one API token per user and device, hashed at rest, with an expiry.

What it does: ``DeviceToken`` is django-rest-knox's token model (``KNOX_TOKEN_MODEL``) with a
device name and a plain integer id. Knox stores only a SHA-512 digest of each token, so a
database leak does not leak tokens; the token itself is shown once, at login. A user has at most
one token per device name (a database constraint backs it): logging in again from the same device
replaces that device's token, and revoking a device (a lost tablet) deletes its token. It also
keeps when the token was last used and the address it came from (``accounts.token_activity``
writes them, at most once a minute per token): columns of the token rather than a model of
their own because there is exactly one of each per token, they live and die with it (ending a
token ends its activity, with nothing to cascade or clean), the account page and the devices
list read them with the token (no join, no extra query), and one ``UPDATE`` of the token's row
writes them where a separate row would need an insert-or-update.

``MailSettings``: what an account wants by e-mail — the language of its messages and whether it
gets the results after each event — and which address it verified (``accounts.verification``)
(``accounts.mail_settings`` reads and writes it, and signs the
link that turns the results off).

``BrowserSession``: a signed-in browser, and Django's session store itself
(``SESSION_ENGINE = "accounts.sessions_store"``): the session's data and expiry as Django's own
database store keeps them, the key only as a SHA-256 hash (a leaked dump or backup holds no live
session cookie, as knox keeps only digests of tokens), and beside them what the account page shows:
the account, the browser's user agent and address, when it signed in and when it was last seen.
Deleting a row ends that browser's session (``accounts.devices``).

What it does not do: users (Django's ``auth.User`` is the account) or club roles
(``clubs.Membership``).

Terms:
- *device*: the name a client gives itself at login ("bar tablet", "Mary's phone"); "default"
  when it gives none.
- *key hash*: the hexadecimal SHA-256 of a session key (the cookie's value).
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
    last_used = models.DateTimeField(
        null=True,
        blank=True,
        help_text="When the token last authenticated a request (or signed in); written at most "
        "once a minute, so up to a minute behind; empty when never used.",
    )
    address = models.GenericIPAddressField(
        null=True,
        blank=True,
        help_text="The client address of that request (as django-axes reads it); empty when "
        "never used or unreadable.",
    )

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
    verified_email = models.EmailField(
        blank=True,
        help_text="The address its owner proved they read (the verification link); results and "
        "settle-up mail go only to the account's address when it is this one.",
    )
    email_verified_at = models.DateTimeField(null=True, blank=True)
    updated_at = models.DateTimeField(auto_now=True)

    def __str__(self) -> str:
        return f"mail settings of {self.user_id}"


class BrowserSession(models.Model):
    """One browser's session: Django's session data, stored under the hash of its key, with what
    the account page lists (``accounts.sessions_store`` reads and writes it)."""

    id = models.BigAutoField(primary_key=True)
    key_hash = models.CharField(max_length=64, unique=True)
    session_data = models.TextField()
    expire_date = models.DateTimeField(db_index=True)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="browser_sessions",
        help_text="The signed-in account; empty for a visitor's session.",
    )
    user_agent = models.CharField(max_length=300, blank=True)
    address = models.GenericIPAddressField(null=True, blank=True)
    signed_in_at = models.DateTimeField(null=True, blank=True)
    last_seen = models.DateTimeField(
        null=True, blank=True, help_text="Updated at most once a minute."
    )

    class Meta:
        ordering = ["-last_seen", "-id"]

    def __str__(self) -> str:
        return f"session {self.pk} of {self.user_id or 'a visitor'}"
