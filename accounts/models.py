"""Device tokens: one API token per user and device, hashed at rest, with an expiry.

What it does: ``DeviceToken`` is django-rest-knox's token model (``KNOX_TOKEN_MODEL``) with a
device name and a plain integer id. Knox stores only a SHA-512 digest of each token, so a
database leak does not leak tokens; the token itself is shown once, at login. A user has at most
one token per device name (a database constraint backs it): logging in again from the same device
replaces that device's token, and revoking a device (a lost tablet) deletes its token.

What it does not do: users (Django's ``auth.User`` is the account) or club roles
(``clubs.Membership``).

Terms:
- *device*: the name a client gives itself at login ("bar tablet", "Mary's phone"); "default"
  when it gives none.
- *token key*: the first characters of a token, stored in clear so authentication can find the
  candidate rows before comparing digests.
"""

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
