"""The table link: a credential that opens one table — a physical table of an event or of a club
night, a game, or a tournament match's games.

What it holds: ``TableLink`` — the club, exactly one of a game, a tournament match, a tournament
and a table number (table *N* of the event, whatever round is playing), or a club night and a
table number (table *N* of the night, whatever game is being played at it), the SHA-256 of its
token and of its short code, the random ``salt`` they are derived from (with the site's secret
key: ``table_links.services.reveal_table_link``), when it expires (never, for an event's or a
night's table: it ends when the event or the night closes), when it was revoked, who made it.

What it does not do: decide what a link allows (``table_links.selectors.TableGrant``) or make links
(``table_links.services``).

Terms:
- *token*: 32 random bytes, URL-safe base64; carried in the QR code's URL (``/t/<token>/``).
- *short code*: ten characters of Crockford's base32 (no I, L, O, U), typed at ``/t/``; as
  good as the token for the same table until the link expires (50 random bits, and a day's life).
- *table*: table *N* of an event (the game of the match at table *N* in the latest released
  round: the link follows the movement from round to round), table *N* of a club night (the
  games started at that table, ``settlements.NightGame.table_number``: the link follows it from
  game to game), one game, or one tournament match (every game of the match, the next one
  included when it starts).
- *salt*: 16 random bytes (hex) stored with the link; the token and the code are HMACs of it under
  ``SECRET_KEY``. The database alone reveals neither (it holds the salt and the hashes); the
  server can show them again to an organiser (the printed cards of every round). Links made
  before the salt existed have an empty salt and can be shown only when made.
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
    tournament = models.ForeignKey(
        "tournaments.Tournament", null=True, blank=True, on_delete=models.CASCADE, related_name="+"
    )
    night = models.ForeignKey(
        "settlements.Night", null=True, blank=True, on_delete=models.CASCADE, related_name="+"
    )
    table_number = models.PositiveSmallIntegerField(
        null=True,
        blank=True,
        help_text="1-based: table N of the event (every round) or of the club night (every game).",
    )
    token_hash = models.CharField(max_length=64, unique=True)
    code_hash = models.CharField(max_length=64, unique=True)
    salt = models.CharField(max_length=32, blank=True, default="")
    expires_at = models.DateTimeField(
        null=True, blank=True, help_text="Empty: until the event or the night closes (its table)."
    )
    revoked_at = models.DateTimeField(null=True, blank=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(
                    game__isnull=False,
                    match__isnull=True,
                    tournament__isnull=True,
                    night__isnull=True,
                    table_number__isnull=True,
                    expires_at__isnull=False,
                )
                | models.Q(
                    game__isnull=True,
                    match__isnull=False,
                    tournament__isnull=True,
                    night__isnull=True,
                    table_number__isnull=True,
                    expires_at__isnull=False,
                )
                | models.Q(
                    game__isnull=True,
                    match__isnull=True,
                    tournament__isnull=False,
                    night__isnull=True,
                    table_number__isnull=False,
                )
                | models.Q(
                    game__isnull=True,
                    match__isnull=True,
                    tournament__isnull=True,
                    night__isnull=False,
                    table_number__isnull=False,
                ),
                name="tables_link_one_table_v3",
            )
        ]

    def __str__(self) -> str:
        if self.tournament_id:
            target = f"tournament {self.tournament_id} table {self.table_number}"
        elif self.night_id:
            target = f"night {self.night_id} table {self.table_number}"
        else:
            target = f"game {self.game_id}" if self.game_id else f"match {self.match_id}"
        return f"Table link {self.pk} ({target})"
