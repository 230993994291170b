"""Club ratings with OpenSkill: every player of a club rated from their finished games.

What it does: ``update_ratings(club_id)`` rates the club's finished games in the order they
finished (the time of their last hand, then id) with OpenSkill's Plackett-Luce model: each game
is one match of its sides — one player each at a free-for-all table of 2 to 10, or partnerships
of any size — ranked by the result: the winner first, the other sides by their final points,
equal points tied. Only the games not rated yet are applied, after the last one rated; when a
rated game changed since (a correction: its version moved, or it is no longer finished) or a game
finished before the last one rated, the club is recomputed from scratch, which is also what
``recompute_ratings(club_id)`` (and the ``recompute_ratings`` command) does. It runs under a
PostgreSQL advisory lock per club, so two workers never rate one club at once.

What it does not do: rate unfinished games, mix clubs (a person's rating is per club player), or
decay ratings over time.

Terms: *mu*, *sigma* — OpenSkill's mean skill and its uncertainty (new players 25 and 25/3);
*ordinal* — mu - 3 sigma, the conservative rating shown and ranked by.
"""

from __future__ import annotations

from django.db import connection, transaction
from django.db.models import Exists, F, Max, Min, OuterRef
from django.utils import timezone
from openskill.models import PlackettLuce

from games.models import Game, GameStatus
from seasons.models import PlayerRating, RatedGame, RatingChange

ADVISORY_LOCK_CLASS = 0x5241  # "RA"; the second key is the club id
MODEL = PlackettLuce()


def _finished_games(club_id: int):
    return (
        Game.objects.filter(club_id=club_id, status=GameStatus.FINISHED)
        .annotate(finished_at=Max("hands__entered_at"))
        .order_by("finished_at", "pk")
    )


def sides_and_ranks(game: Game) -> tuple[list[list[int]], list[int]]:
    """The players of each side (seat order) and each side's rank (1 = winner; equal points tie)."""
    sides: dict[int, list[int]] = {}
    for seat in sorted(game.seats.all(), key=lambda seat: seat.seat):
        sides.setdefault(seat.side, []).append(seat.player_id)
    order = sorted(sides)
    totals = game.totals or []

    def points(side: int) -> int:
        return totals[side] if side < len(totals) else 0

    ranks = []
    for side in order:
        if side == game.winner_side:
            ranks.append(1)
        else:
            better = sum(
                1 for other in order
                if other != side and other != game.winner_side and points(other) > points(side)
            )
            ranks.append(2 + better)
    return [sides[side] for side in order], ranks


def _lock(club_id: int) -> bool:
    if connection.vendor != "postgresql":
        return True
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_advisory_xact_lock(%s, %s)", [ADVISORY_LOCK_CLASS, club_id])
    return True


def update_ratings(*, club_id: int, from_scratch: bool = False) -> dict:
    """Rate what is new (or everything); returns ``{"rated": n, "from_scratch": bool}``."""
    with transaction.atomic():
        _lock(club_id)
        games = list(_finished_games(club_id).prefetch_related("seats"))
        rated = dict(RatedGame.objects.filter(club_id=club_id).values_list("game_id",
                                                                              "game_version"))
        by_id = {game.pk: game for game in games}
        last_rated_index = -1
        for index, game in enumerate(games):
            if game.pk in rated:
                last_rated_index = index
        changed = any(
            game_id not in by_id or by_id[game_id].version != version
            for game_id, version in rated.items()
        )
        out_of_order = any(
            game.pk not in rated for game in games[: last_rated_index + 1]
        )
        if from_scratch or changed or out_of_order:
            RatedGame.objects.filter(club_id=club_id).delete()
            RatingChange.objects.filter(player__club_id=club_id).delete()
            PlayerRating.objects.filter(club_id=club_id).delete()
            to_rate, sequence, from_scratch = games, 0, True
        else:
            to_rate = games[last_rated_index + 1:]
            sequence = len(rated)
        if not to_rate:
            return {"rated": 0, "from_scratch": from_scratch}
        current = {
            rating.player_id: rating for rating in PlayerRating.objects.filter(club_id=club_id)
        }
        changes, rated_rows = [], []
        for game in to_rate:
            sequence += 1
            sides, ranks = sides_and_ranks(game)
            teams = [
                [
                    MODEL.rating(mu=current[player].mu, sigma=current[player].sigma)
                    if player in current else MODEL.rating()
                    for player in side
                ]
                for side in sides
            ]
            if len(teams) >= 2:
                teams = MODEL.rate(teams, ranks=ranks)
            for side, team in zip(sides, teams, strict=True):
                for player, rating in zip(side, team, strict=True):
                    row = current.get(player)
                    if row is None:
                        row = current[player] = PlayerRating(
                            player_id=player, club_id=club_id, games=0
                        )
                    row.mu, row.sigma, row.ordinal = rating.mu, rating.sigma, rating.ordinal()
                    row.games += 1
                    changes.append(RatingChange(
                        player_id=player, game_id=game.pk, sequence=sequence, mu=rating.mu,
                        sigma=rating.sigma, ordinal=rating.ordinal(),
                    ))
            rated_rows.append(RatedGame(game_id=game.pk, club_id=club_id, sequence=sequence,
                                        game_version=game.version))
        PlayerRating.objects.bulk_create(
            current.values(), update_conflicts=True, unique_fields=["player"],
            update_fields=["mu", "sigma", "ordinal", "games"],
        )
        RatingChange.objects.bulk_create(changes)
        RatedGame.objects.bulk_create(rated_rows)
    return {"rated": len(rated_rows), "from_scratch": from_scratch}


def recompute_ratings(*, club_id: int) -> dict:
    return update_ratings(club_id=club_id, from_scratch=True)


def oldest_unrated_age() -> float | None:
    """Seconds since the oldest change not yet in the ratings (None: all rated), for
    ``/health/workers/``: a finished game not rated at its version, or a rated game no longer
    finished, by the time the game last changed (``Game.updated_at``)."""
    rated_now = RatedGame.objects.filter(game=OuterRef("pk"), game_version=F("game__version"))
    unrated = (
        Game.objects.filter(status=GameStatus.FINISHED).exclude(Exists(rated_now))
        .aggregate(oldest=Min("updated_at"))["oldest"]
    )
    reopened = (
        RatedGame.objects.exclude(game__status=GameStatus.FINISHED)
        .aggregate(oldest=Min("game__updated_at"))["oldest"]
    )
    changes = [stamp for stamp in (unrated, reopened) if stamp is not None]
    if not changes:
        return None
    return (timezone.now() - min(changes)).total_seconds()
