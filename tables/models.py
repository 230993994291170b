"""The table link: a credential that opens one table (a game, or a tournament match's games).

What it holds: ``TableLink`` — the club, exactly one of a game or a tournament match, the SHA-256
of its random token and of its short code (never the token or the code themselves: they are shown
once, when the link is made), when it expires, when it was revoked, who made it.

What it does not do: decide what a link allows (``tables.selectors.TableGrant``) or make links
(``tables.services``).

Terms:
- *token*: 32 random bytes, URL-safe base64; carried in the QR code's URL (``/t/<token>/``).
- *short code*: ten characters of Crockford's base32 (no I, L, O, U), typed at ``/t/``; as
  good as the token for the same table until the link expires (50 random bits, and a day's life).
- *table*: one game, or one tournament match (every game of the match, the next one included
  when it starts).
"""

from __future__ import annotations

from django.conf import settings
from django.db import models


class TableLink(models.Model):
    club = models.ForeignKey("clubs.Club", on_delete=models.CASCADE, related_name="table_links")
    game = models.ForeignKey(
        "games.Game", null=True, blank=True, on_delete=models.CASCADE, related_name="+"
    )
    match = models.ForeignKey(
        "tournaments.Match", null=True, blank=True, on_delete=models.CASCADE, related_name="+"
    )
    token_hash = models.CharField(max_length=64, unique=True)
    code_hash = models.CharField(max_length=64, unique=True)
    expires_at = models.DateTimeField()
    revoked_at = models.DateTimeField(null=True, blank=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(game__isnull=False, match__isnull=True)
                | models.Q(game__isnull=True, match__isnull=False),
                name="tables_link_one_table",
            )
        ]

    def __str__(self) -> str:
        target = f"game {self.game_id}" if self.game_id else f"match {self.match_id}"
        return f"Table link {self.pk} ({target})"
