"""Stored season tables and ratings of a club's players.

What it holds:
- ``SeasonSnapshot``: a club's season table over a date range (by default a calendar year), as a
  job last computed it: ``version`` (its ``ETag``), the ``data_stamp`` of the games it was
  computed from, the rows and ``computed_at``.
- ``PlayerRating``: each player's current OpenSkill rating (``mu``, ``sigma``) and its
  conservative ``ordinal`` (mu - 3 sigma), with the number of rated games.
- ``RatingChange``: the history — a player's rating after each rated game.
- ``RatedGame``: which game was rated, in which order (``sequence``, and the ``finished_at`` it
  was ordered by), at which game version; a change of a rated game (a correction) or a game
  finishing before the last rated one makes the job re-rate the club from that game on.
- ``ClubRatingState``: per club, the last game rated (its sequence, finished time and id: where
  the next finished game goes) and whether a re-rating is still catching up.

What it does not do: compute (``seasons.league_table``, ``seasons.ratings``).

Terms: *data stamp* — ``"<games>:<sum of their versions>"`` over the club's games of the range:
any hand recorded, corrected or undone bumps a game's version, so the stamp moves with every
change; *ordinal* — the rating shown, mu - 3 sigma: what the player is at least, almost surely.
"""

from __future__ import annotations

from django.db import models


class SeasonSnapshot(models.Model):
    club = models.ForeignKey("clubs.Club", on_delete=models.CASCADE, related_name="+")
    date_from = models.DateField()
    date_to = models.DateField(help_text="Inclusive.")
    version = models.PositiveIntegerField(default=1)
    data_stamp = models.CharField(max_length=64)
    rows = models.JSONField()
    computed_at = models.DateTimeField()

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["club", "date_from", "date_to"], name="seasons_snapshot_unique_range"
            )
        ]

    def __str__(self) -> str:
        return f"season {self.date_from}..{self.date_to} of {self.club_id}, v{self.version}"


class PlayerRating(models.Model):
    player = models.OneToOneField(
        "clubs.Player", on_delete=models.CASCADE, primary_key=True, related_name="rating"
    )
    club = models.ForeignKey("clubs.Club", on_delete=models.CASCADE, related_name="+")
    mu = models.FloatField()
    sigma = models.FloatField()
    ordinal = models.FloatField(db_index=True)
    games = models.PositiveIntegerField(default=0)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["club_id", "-ordinal", "player_id"]

    def __str__(self) -> str:
        return f"{self.player_id}: {self.ordinal:.2f}"


class RatingChange(models.Model):
    player = models.ForeignKey("clubs.Player", on_delete=models.CASCADE, related_name="+")
    game = models.ForeignKey("games.Game", on_delete=models.CASCADE, related_name="+")
    sequence = models.PositiveIntegerField(help_text="The game's place in the club's rated order.")
    mu = models.FloatField()
    sigma = models.FloatField()
    ordinal = models.FloatField()

    class Meta:
        ordering = ["player_id", "sequence"]
        constraints = [
            models.UniqueConstraint(fields=["player", "game"], name="seasons_change_once")
        ]
        indexes = [models.Index(fields=["player", "sequence"], name="seasons_change_by_player")]

    def __str__(self) -> str:
        return f"{self.player_id} after game {self.game_id}: {self.ordinal:.2f}"


class RatedGame(models.Model):
    game = models.OneToOneField(
        "games.Game", on_delete=models.CASCADE, primary_key=True, related_name="+"
    )
    club = models.ForeignKey("clubs.Club", on_delete=models.CASCADE, related_name="+")
    sequence = models.PositiveIntegerField()
    game_version = models.PositiveIntegerField()
    finished_at = models.DateTimeField(
        null=True, help_text="The game's last hand when it was rated: the rating order's key."
    )

    class Meta:
        ordering = ["club_id", "sequence"]
        indexes = [
            models.Index(fields=["club", "sequence"], name="seasons_rated_by_sequence"),
            models.Index(fields=["club", "finished_at", "game"], name="seasons_rated_by_finish"),
        ]

    def __str__(self) -> str:
        return f"game {self.game_id} rated #{self.sequence}"


class ClubRatingState(models.Model):
    """Where a club's ratings stand: the last game rated, so the next finished game is rated
    after it without reading the club's history, and whether a re-rating is catching up (then a
    finished game is left to it)."""

    club = models.OneToOneField(
        "clubs.Club", on_delete=models.CASCADE, primary_key=True, related_name="+"
    )
    last_sequence = models.PositiveIntegerField(default=0)
    last_finished_at = models.DateTimeField(null=True)
    last_game_id = models.PositiveBigIntegerField(null=True)
    catching_up = models.BooleanField(default=False)

    def __str__(self) -> str:
        return f"ratings of {self.club_id}: #{self.last_sequence}"
