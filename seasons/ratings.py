"""Club ratings with OpenSkill: every player of a club rated from their finished games.

What it does: rates the club's finished games in the order they finished (the time of their last
hand, then id) with OpenSkill's Plackett-Luce model: each game is one match of its sides — one
player each at a free-for-all table of 2 to 10, or partnerships of any size — ranked by the
result: the winner first, the other sides by their final points, equal points tied.

- ``rate_game(game_id)`` (task ``rate_game_task``, queued when a game's result or points change):
  a game that finished after the last one rated is rated alone, from its players' current ratings
  (``PlayerRating``) and the game itself, and appended to the club's order
  (``ClubRatingState``): a fixed number of queries whatever the club's history. A game rated at
  its current version is left alone (a duplicate message stores nothing).
- Anything else — a rated game corrected (its version moved), reopened (no longer finished), or a
  game finishing before the last one rated — **re-rates from that game on**: the ratings, the
  history and the rated games from that place in the order are put back to what they were
  before it (each player's last step before it), then the games from there are rated again in
  order, ``CATCH_UP_BATCH`` per task (``catch_up_ratings_task``, on the default queue), so a long
  re-rating never holds a worker for long. While it catches up, a newly finished game is left
  to it (``ClubRatingState.catching_up``).
- ``update_ratings(club_id)`` (the sweep, and the old ``update_ratings_task``): finds the
  earliest place where the stored ratings and the games disagree (a lost message) and re-rates
  from there; nothing to do costs two queries over the club's games.
- ``recompute_ratings(club_id)`` (and the ``recompute_ratings`` command): from scratch, to the end,
  in one call. It gives exactly the ratings the incremental path gives (tests/seasons).
- ``list_clubs_with_unrated_games()`` (the sweep's list) and ``oldest_unrated_age()``
  (``/health/workers/``): what is not yet rated.

- ``rate_stream(games, identity, known)``: the one OpenSkill step over a stream of games, whoever
  the players are (a club's players here; a federation's players in ``rankings.ratings``).

Everything runs under a PostgreSQL advisory lock per club, so two workers never rate one club at
once, and the order is the same whichever way a game got rated.

What it does not do: rate unfinished games, mix clubs (a person's rating is per club player), or
decay ratings over time.

Terms: *mu*, *sigma* — OpenSkill's mean skill and its uncertainty (new players 25 and 25/3);
*ordinal* — mu - 3 sigma, the conservative rating shown and ranked by; *key* — a game's place in
the order, ``(finished_at, id)``.
"""

from __future__ import annotations

import datetime
from collections.abc import Callable, Hashable, Iterable, Iterator
from typing import NamedTuple

from django.db import connection, transaction
from django.db.models import Count, Exists, F, Max, Min, OuterRef, Q
from django.utils import timezone
from openskill.models import PlackettLuce

from config.tasks import enqueue
from games.models import Game, GameStatus
from seasons.models import ClubRatingState, PlayerRating, RatedGame, RatingChange

ADVISORY_LOCK_CLASS = 0x5241  # "RA"; the second key is the club id
MODEL = PlackettLuce()
CATCH_UP_BATCH = 200  # games re-rated per task: well under a second of worker time

Key = tuple[datetime.datetime, int]


class Step(NamedTuple):
    """One rated seat of one game (``rate_stream``)."""

    key: Hashable
    mu: float
    sigma: float
    ordinal: float
    rank: int  # its side's rank: 1 = won
    chance: float  # its side's chance of winning before the game


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
                1
                for other in order
                if other != side and other != game.winner_side and points(other) > points(side)
            )
            ranks.append(2 + better)
    return [sides[side] for side in order], ranks


def _lock(club_id: int) -> None:
    if connection.vendor != "postgresql":
        return
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_advisory_xact_lock(%s, %s)", [ADVISORY_LOCK_CLASS, club_id])


def _state(club_id: int) -> ClubRatingState:
    state = ClubRatingState.objects.filter(club_id=club_id).first()
    return state if state is not None else ClubRatingState(club_id=club_id)


def _key(finished_at, game_id: int) -> Key:
    return (finished_at or datetime.datetime.min.replace(tzinfo=datetime.UTC), game_id)


def _last_key(state: ClubRatingState) -> Key | None:
    if state.last_game_id is None:
        return None
    return _key(state.last_finished_at, state.last_game_id)


def _after(key: Key | None) -> Q:
    """Games (annotated ``finished_at``) after ``key`` in the rating order."""
    if key is None:
        return Q()
    finished_at, game_id = key
    return Q(finished_at__gt=finished_at) | Q(finished_at=finished_at, pk__gt=game_id)


def rate_stream(
    games: Iterable[Game],
    identity: Callable[[int], Hashable | None],
    known: dict[Hashable, tuple[float, float]],
) -> Iterator[tuple[Game, list[Step]]]:
    """Rate ``games`` in the order given: the one OpenSkill mechanism, for a club and for a
    federation (``rankings``).

    ``identity`` maps a seat's club player id to whom it rates (a club: the player id itself; a
    federation: its federation player) or None: then the seat plays as a newcomer (25, 25/3) and
    is neither remembered nor yielded. ``known``: identity -> (mu, sigma) before the first game,
    updated in place. Yields each game with its steps, side by side and seat by seat: the
    identity, its rating after the game, its side's rank and its side's chance of winning
    before it (OpenSkill's ``predict_win``)."""
    for game in games:
        sides, ranks = sides_and_ranks(game)
        keys = [[identity(player) for player in side] for side in sides]
        seen: set = set()
        for side in keys:  # a person seated twice (two linked club players) counts once
            for index, key in enumerate(side):
                if key is not None and key in seen:
                    side[index] = None
                seen.add(key)
        teams = [
            [
                MODEL.rating(*known[key]) if key is not None and key in known else MODEL.rating()
                for key in side
            ]
            for side in keys
        ]
        chances = MODEL.predict_win(teams) if len(teams) >= 2 else [1.0] * len(teams)
        if len(teams) >= 2:
            teams = MODEL.rate(teams, ranks=ranks)
        steps = []
        for side, team, rank, chance in zip(keys, teams, ranks, chances, strict=True):
            for key, rating in zip(side, team, strict=True):
                if key is not None:
                    known[key] = (rating.mu, rating.sigma)
                    steps.append(Step(key, rating.mu, rating.sigma, rating.ordinal(), rank, chance))
        yield game, steps


def _rate(games: list[Game], state: ClubRatingState) -> None:
    """Rate ``games`` (in order, each after ``state``'s last game) from their players' current
    ratings; store the ratings, the history and the rated games; move ``state`` on."""
    players = {seat.player_id for game in games for seat in game.seats.all()}
    current = {row.player_id: row for row in PlayerRating.objects.filter(player_id__in=players)}
    known = {player: (row.mu, row.sigma) for player, row in current.items()}
    changes, rated_rows = [], []
    for game, steps in rate_stream(games, lambda player: player, known):
        state.last_sequence += 1
        for step in steps:
            player = step.key
            row = current.get(player)
            if row is None:
                row = current[player] = PlayerRating(
                    player_id=player, club_id=state.club_id, games=0
                )
            row.mu, row.sigma, row.ordinal = step.mu, step.sigma, step.ordinal
            row.games += 1
            changes.append(
                RatingChange(
                    player_id=player,
                    game_id=game.pk,
                    sequence=state.last_sequence,
                    mu=step.mu,
                    sigma=step.sigma,
                    ordinal=step.ordinal,
                )
            )
        rated_rows.append(
            RatedGame(
                game_id=game.pk,
                club_id=state.club_id,
                sequence=state.last_sequence,
                game_version=game.version,
                finished_at=game.finished_at,
            )
        )
        state.last_finished_at, state.last_game_id = game.finished_at, game.pk
    if current:
        PlayerRating.objects.bulk_create(
            current.values(),
            update_conflicts=True,
            unique_fields=["player"],
            update_fields=["mu", "sigma", "ordinal", "games", "updated_at"],
        )
    RatingChange.objects.bulk_create(changes)
    RatedGame.objects.bulk_create(rated_rows)


def _rewind(club_id: int, sequence: int, state: ClubRatingState) -> None:
    """Undo the club's ratings from ``sequence`` on: its history and rated games go, each
    player's rating goes back to their last step before it (or away, without one), and
    ``state`` points at the game before it, catching up."""
    suffix = RatedGame.objects.filter(club_id=club_id, sequence__gte=sequence)
    touched = set(
        RatingChange.objects.filter(game_id__in=suffix.values("game_id"))
        .values_list("player_id", flat=True)
        .distinct()
    )
    RatingChange.objects.filter(game_id__in=suffix.values("game_id")).delete()
    suffix.delete()
    if touched:
        before = {
            row["player_id"]: row
            for row in RatingChange.objects.filter(player_id__in=touched)
            .values("player_id")
            .annotate(games=Count("pk"), last=Max("sequence"))
        }
        last_steps = RatingChange.objects.filter(
            player_id__in=before,
            sequence__in={row["last"] for row in before.values()},
        ).values_list("player_id", "sequence", "mu", "sigma", "ordinal")
        restored = [
            PlayerRating(
                player_id=player,
                club_id=club_id,
                mu=mu,
                sigma=sigma,
                ordinal=ordinal,
                games=before[player]["games"],
            )
            for player, step, mu, sigma, ordinal in last_steps
            if before[player]["last"] == step
        ]
        PlayerRating.objects.filter(player_id__in=touched - set(before)).delete()
        if restored:
            PlayerRating.objects.bulk_create(
                restored,
                update_conflicts=True,
                unique_fields=["player"],
                update_fields=["mu", "sigma", "ordinal", "games", "updated_at"],
            )
    previous = (
        RatedGame.objects.filter(club_id=club_id, sequence__lt=sequence)
        .order_by("-sequence")
        .values_list("sequence", "finished_at", "game_id")
        .first()
    )
    state.last_sequence, state.last_finished_at, state.last_game_id = previous or (0, None, None)
    state.catching_up = True


def _catch_up(club_id: int, state: ClubRatingState, limit: int | None) -> int:
    """Rate the next finished games after ``state``'s last one (at most ``limit``); returns how
    many; ``state.catching_up`` stays true while more are left."""
    games = list(
        _finished_games(club_id)
        .filter(_after(_last_key(state)))
        .prefetch_related("seats")[: None if limit is None else limit + 1]
    )
    more = limit is not None and len(games) > limit
    games = games[:limit] if more else games
    if games:
        _rate(games, state)
    state.catching_up = more
    return len(games)


def _rated_from(club_id: int, key: Key) -> int | None:
    """The sequence of the first rated game after ``key`` (None: none)."""
    finished_at, game_id = key
    return (
        RatedGame.objects.filter(club_id=club_id)
        .filter(Q(finished_at__gt=finished_at) | Q(finished_at=finished_at, game_id__gt=game_id))
        .order_by("sequence")
        .values_list("sequence", flat=True)
        .first()
    )


def _finish(club_id: int, state: ClubRatingState, rated: int, restart: int | None) -> dict:
    state.save()
    if state.catching_up:
        transaction.on_commit(lambda: enqueue("seasons.catch_up_ratings_task", club_id))
    return {"rated": rated, "from_sequence": restart, "catching_up": state.catching_up}


def rate_game(*, game_id: int) -> dict:
    """Rate one changed game: appended when it finished after the last game rated, else the club
    re-rated from its place on (the first batch here, the rest queued).

    Returns ``{"rated": n, "from_sequence": s or None, "catching_up": bool}``."""
    club_id = Game.objects.filter(pk=game_id).values_list("club_id", flat=True).first()
    if club_id is None:
        return {"rated": 0, "from_sequence": None, "catching_up": False}
    with transaction.atomic():
        _lock(club_id)
        game = (
            Game.objects.filter(pk=game_id)
            .annotate(finished_at=Max("hands__entered_at"))
            .prefetch_related("seats")
            .first()
        )
        state = _state(club_id)
        rated = RatedGame.objects.filter(game_id=game_id).first()
        finished = game is not None and game.status == GameStatus.FINISHED
        unchanged = rated is not None and finished and rated.game_version == game.version
        if unchanged or (rated is None and not finished):
            return {"rated": 0, "from_sequence": None, "catching_up": state.catching_up}
        restart = rated.sequence if rated is not None else None
        last = _last_key(state)
        if finished and last is not None and _key(game.finished_at, game.pk) < last:
            later = _rated_from(club_id, _key(game.finished_at, game.pk))
            if later is not None and (restart is None or later < restart):
                restart = later
        if restart is None:
            if state.catching_up:  # the re-rating under way rates it in its turn
                return {"rated": 0, "from_sequence": None, "catching_up": True}
            _rate([game], state)
            return _finish(club_id, state, 1, None)
        _rewind(club_id, restart, state)
        count = _catch_up(club_id, state, CATCH_UP_BATCH)
        return _finish(club_id, state, count, restart)


def catch_up_ratings(*, club_id: int) -> dict:
    """The next batch of a re-rating (``catch_up_ratings_task``); nothing when none is pending."""
    with transaction.atomic():
        _lock(club_id)
        state = _state(club_id)
        if not state.catching_up:
            return {"rated": 0, "from_sequence": None, "catching_up": False}
        count = _catch_up(club_id, state, CATCH_UP_BATCH)
        return _finish(club_id, state, count, None)


def _first_disagreement(club_id: int, state: ClubRatingState) -> int | None:
    """The sequence from which the stored ratings disagree with the games (None: they agree,
    up to new games after the last one rated)."""
    changed = (
        RatedGame.objects.filter(club_id=club_id)
        .filter(~Q(game__status=GameStatus.FINISHED) | ~Q(game__version=F("game_version")))
        .aggregate(first=Min("sequence"))["first"]
    )
    rated = RatedGame.objects.filter(game=OuterRef("pk"))
    unrated = (
        _finished_games(club_id).filter(~Exists(rated)).values_list("finished_at", "pk").first()
    )
    candidates = [changed] if changed is not None else []
    if unrated is not None:
        later = _rated_from(club_id, _key(*unrated))
        if later is not None:
            candidates.append(later)
    return min(candidates) if candidates else None


def update_ratings(*, club_id: int, from_scratch: bool = False) -> dict:
    """Bring the club's ratings up to date with its games, to the end (the sweep, a lost
    message, the command): re-rate from the first place they disagree, then rate what is new.

    Returns ``{"rated": n, "from_scratch": bool}`` (``from_scratch``: re-rated from the first
    game)."""
    with transaction.atomic():
        _lock(club_id)
        state = _state(club_id)
        restart = 1 if from_scratch else _first_disagreement(club_id, state)
        if restart is not None:
            _rewind(club_id, restart, state)
        rated = _catch_up(club_id, state, None)
        state.save()
    return {"rated": rated, "from_scratch": restart == 1}


def recompute_ratings(*, club_id: int) -> dict:
    return update_ratings(club_id=club_id, from_scratch=True)


def oldest_unrated_age() -> float | None:
    """Seconds since the oldest change not yet in the ratings (None: all rated), for
    ``/health/workers/``: a finished game not rated at its version, or a rated game no longer
    finished, by the time the game last changed (``Game.updated_at``)."""
    rated_now = RatedGame.objects.filter(game=OuterRef("pk"), game_version=F("game__version"))
    unrated = (
        Game.objects.filter(status=GameStatus.FINISHED)
        .exclude(Exists(rated_now))
        .aggregate(oldest=Min("updated_at"))["oldest"]
    )
    reopened = RatedGame.objects.exclude(game__status=GameStatus.FINISHED).aggregate(
        oldest=Min("game__updated_at")
    )["oldest"]
    changes = [stamp for stamp in (unrated, reopened) if stamp is not None]
    if not changes:
        return None
    return (timezone.now() - min(changes)).total_seconds()


def list_clubs_with_unrated_games() -> list[int]:
    """Clubs with a finished game not rated (or rated at another version), a rated game that
    is no longer finished, or a re-rating still catching up."""
    rated_now = RatedGame.objects.filter(game=OuterRef("pk"), game_version=F("game__version"))
    unrated = Game.objects.filter(status=GameStatus.FINISHED).exclude(Exists(rated_now))
    reopened = RatedGame.objects.exclude(game__status=GameStatus.FINISHED)
    return sorted(
        set(unrated.values_list("club_id", flat=True).distinct())
        | set(reopened.values_list("club_id", flat=True).distinct())
        | set(ClubRatingState.objects.filter(catching_up=True).values_list("club_id", flat=True))
    )
