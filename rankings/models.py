"""Stored rankings of a federation: what the job (``rankings.build``) last computed.

What it holds:
- ``RankingState``: per federation, the last game ranked (its sequence, finished time and id:
  where the next one goes), the *identity stamp* (a digest of the memberships and current links
  the ranking was built with: when it moves, the ranking is rebuilt), ``as_of`` (the last ranked
  game's finish: the end of the form window) and ``version`` (the ranking's ``ETag``).
- ``FederationRating``: one row per ranked federation player: the OpenSkill rating (``mu``,
  ``sigma``, ``ordinal``), the rated ``games``, the current ``form`` (and the games in its
  window), the lifetime ``points`` and the ``events`` placed at.
- ``RankedGame``: which club game counts, in which order, at which game version.
- ``RankingChange``: a federation player's step in one game: rating after it, whether their side
  won, its chance of winning before it, and the form after it (the history's chart).
- ``Placing``: a federation player's place at one event (a tournament or a club night) of a
  member club, the field's size and the lifetime points it earned, from the event's latest
  settle-up version.

What it does not do: compute (``rankings.build``, ``rankings.form``, ``rankings.points``) or
read for the pages and API (``rankings.selectors``).

Terms: *ordinal* — mu - 3 sigma (as in ``seasons``); *form* — docs/rankings.md.
"""

from __future__ import annotations

from django.db import models


class RankingState(models.Model):
    federation = models.OneToOneField(
        "federations.Federation", on_delete=models.CASCADE, primary_key=True, related_name="+"
    )
    last_sequence = models.PositiveIntegerField(default=0)
    last_finished_at = models.DateTimeField(null=True, blank=True)
    last_game_id = models.PositiveBigIntegerField(null=True, blank=True)
    identity_stamp = models.CharField(max_length=64, blank=True)
    as_of = models.DateTimeField(null=True, blank=True)
    version = models.PositiveIntegerField(default=0)
    updated_at = models.DateTimeField(auto_now=True)

    def __str__(self) -> str:
        return f"rankings of {self.federation_id}: #{self.last_sequence} v{self.version}"


class FederationRating(models.Model):
    federation = models.ForeignKey(
        "federations.Federation", on_delete=models.CASCADE, related_name="+"
    )
    federation_player = models.ForeignKey(
        "federations.FederationPlayer", on_delete=models.CASCADE, related_name="+"
    )
    mu = models.FloatField(default=25.0)
    sigma = models.FloatField(default=25.0 / 3)
    ordinal = models.FloatField(default=0.0)
    games = models.PositiveIntegerField(default=0)
    form = models.FloatField(null=True, blank=True)
    form_games = models.PositiveIntegerField(default=0)
    points = models.PositiveIntegerField(default=0)
    events = models.PositiveIntegerField(default=0)

    class Meta:
        ordering = ["federation_id", "-ordinal", "-points", "federation_player_id"]
        constraints = [
            models.UniqueConstraint(
                fields=["federation", "federation_player"], name="rankings_rating_once"
            )
        ]
        indexes = [
            models.Index(fields=["federation", "-ordinal"], name="rankings_rating_by_ordinal")
        ]

    def __str__(self) -> str:
        return f"{self.federation_player_id}: {self.ordinal:.2f}"


class RankedGame(models.Model):
    federation = models.ForeignKey(
        "federations.Federation", on_delete=models.CASCADE, related_name="+"
    )
    game = models.ForeignKey("games.Game", on_delete=models.CASCADE, related_name="+")
    club = models.ForeignKey("clubs.Club", on_delete=models.CASCADE, related_name="+")
    sequence = models.PositiveIntegerField()
    game_version = models.PositiveIntegerField()
    finished_at = models.DateTimeField(null=True)

    class Meta:
        ordering = ["federation_id", "sequence"]
        constraints = [
            models.UniqueConstraint(fields=["federation", "game"], name="rankings_game_once")
        ]
        indexes = [
            models.Index(fields=["federation", "sequence"], name="rankings_game_by_sequence")
        ]

    def __str__(self) -> str:
        return f"game {self.game_id} ranked #{self.sequence} in {self.federation_id}"


class RankingChange(models.Model):
    federation = models.ForeignKey(
        "federations.Federation", on_delete=models.CASCADE, related_name="+"
    )
    federation_player = models.ForeignKey(
        "federations.FederationPlayer", on_delete=models.CASCADE, related_name="+"
    )
    game = models.ForeignKey("games.Game", on_delete=models.CASCADE, related_name="+")
    club = models.ForeignKey("clubs.Club", on_delete=models.CASCADE, related_name="+")
    variant = models.CharField(max_length=16)
    sequence = models.PositiveIntegerField()
    finished_at = models.DateTimeField(null=True)
    mu = models.FloatField()
    sigma = models.FloatField()
    ordinal = models.FloatField()
    won = models.BooleanField()
    chance = models.FloatField(help_text="The side's chance of winning before the game.")
    form = models.FloatField(help_text="The player's form after this game.")

    class Meta:
        ordering = ["federation_id", "federation_player_id", "sequence"]
        constraints = [
            models.UniqueConstraint(
                fields=["federation", "federation_player", "game"], name="rankings_change_once"
            )
        ]
        indexes = [
            models.Index(
                fields=["federation_player", "sequence"], name="rankings_change_by_player"
            ),
            models.Index(fields=["federation", "variant"], name="rankings_change_by_variant"),
            # the form's window of some players (rankings.build._recent), and the games leaving
            # the federation's window as it moves on (_leaving_the_window)
            models.Index(
                fields=["federation_player", "finished_at"], name="rankings_change_window"
            ),
            models.Index(fields=["federation", "finished_at"], name="rankings_change_by_time"),
        ]

    def __str__(self) -> str:
        return f"{self.federation_player_id} after game {self.game_id}: {self.ordinal:.2f}"


class Placing(models.Model):
    federation = models.ForeignKey(
        "federations.Federation", on_delete=models.CASCADE, related_name="+"
    )
    federation_player = models.ForeignKey(
        "federations.FederationPlayer", on_delete=models.CASCADE, related_name="+"
    )
    club = models.ForeignKey("clubs.Club", on_delete=models.CASCADE, related_name="+")
    settlement = models.ForeignKey(
        "settlements.Settlement", on_delete=models.CASCADE, related_name="+"
    )
    event_name = models.CharField(max_length=120)
    place = models.PositiveIntegerField()
    field = models.PositiveIntegerField(help_text="How many placed at the event.")
    points = models.PositiveIntegerField()
    held_at = models.DateTimeField(help_text="When the event was first settled.")

    class Meta:
        ordering = ["federation_id", "federation_player_id", "held_at", "id"]
        indexes = [
            models.Index(fields=["federation_player", "held_at"], name="rankings_placing_by_player")
        ]

    def __str__(self) -> str:
        return f"{self.federation_player_id}: {self.place} of {self.field} ({self.points})"
