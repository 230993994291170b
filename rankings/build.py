"""Build a federation's rankings: the job behind ``update_rankings_task`` and ``rebuild_rankings``.

What it does: ``update_rankings(federation_id)`` brings the stored rankings (``rankings.models``)
up to date with the member clubs' games and settle-ups, under a PostgreSQL advisory lock per
federation:

- **The stream.** Every finished game of a member club that finished while the club was a
  member (``accepted_at`` <= its last hand < ``left_at``, for each spell), ordered by
  ``(finished_at, id)`` as ``seasons.ratings`` orders a club's games, rated by the one OpenSkill
  mechanism, ``seasons.ratings.rate_stream``, with the *identity* of a seat its club player's
  current ``PlayerLink`` (an unlinked club player plays as a newcomer and is not ranked).
- **Incremental.** New games after the last one ranked (found through the hands entered since
  its finish) are rated from the stored ratings and appended; placings are added for settle-up
  versions not yet read and dropped for superseded ones; the totals and form at the new
  ``as_of`` are rewritten for the players concerned: who played, whose placings moved, and who
  has a ranked game that just left the form's window.
- **Batches.** Games are rated ``BATCH_GAMES`` at a time from one cursor, each batch stored
  before the next reads its players' ratings and form windows back; totals and form are written
  ``BATCH_PLAYERS`` at a time: the memory does not grow with the history, and the result does
  not depend on the batch size.
- **Rebuild.** When the *identity stamp* moves (a club joined or left, a link made, unlinked,
  merged or un-merged) or a ranked game changed (corrected, reopened, a game finishing before the
  last one ranked), everything is computed again from the first game: the result is the same as
  ``rebuild_rankings`` (``from_scratch=True``, the management command).
  Whether a ranked game changed, or a game now finishes before the last one ranked, is asked of
  the games written since the last update (their audit rows, ``Game.history``), less a margin.

Returns ``{"rated": n, "rebuilt": bool, "placings": n}``; bumps ``RankingState.version`` (the
pages' and API's ``ETag``) when anything moved.

What it does not do: rate a club's own ratings (``seasons``), or read for the pages (selectors).

Terms: *identity stamp* — SHA-256 of the member spells and current links; *as_of* — the last
ranked game's finish.
"""

from __future__ import annotations

import datetime
import hashlib
import itertools
from collections import defaultdict
from collections.abc import Iterator

from django.db import connection, transaction
from django.db.models import Count, Exists, F, Max, OuterRef, Q, Subquery, Sum

from federations.models import FederationMembership, PlayerLink
from games.models import Game, GameStatus, Hand
from rankings import form, points
from rankings.models import FederationRating, Placing, RankedGame, RankingChange, RankingState
from seasons.ratings import rate_stream
from settlements.models import Settlement

ADVISORY_LOCK_CLASS = 0x524B  # "RK"; the second key is the federation id
EPOCH = datetime.datetime.min.replace(tzinfo=datetime.UTC)
BATCH_GAMES = 2000  # games rated (with their seats) per batch: the job's memory
BATCH_PLAYERS = 2000  # players whose totals and form are written per batch
BATCH_EVENTS = 500  # settle-up versions read per batch for the placings
# games written this long before the last update are checked again (a write committed late)
WRITE_MARGIN = datetime.timedelta(hours=1)


def _lock(federation_id: int) -> None:
    if connection.vendor != "postgresql":
        return
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_advisory_xact_lock(%s, %s)", [ADVISORY_LOCK_CLASS, federation_id])


def _spells(federation_id: int) -> list[tuple[int, datetime.datetime, datetime.datetime | None]]:
    return list(
        FederationMembership.objects.filter(federation_id=federation_id, accepted_at__isnull=False)
        .order_by("club_id", "accepted_at", "pk")
        .values_list("club_id", "accepted_at", "left_at")
    )


def _identity(federation_id: int) -> dict[int, int]:
    """Club player id -> federation player id, by the current links."""
    return dict(
        PlayerLink.objects.current()
        .filter(federation_id=federation_id, federation_player__merged_into__isnull=True)
        .values_list("player_id", "federation_player_id")
    )


def _stamp(spells, identity: dict[int, int]) -> str:
    text = repr((spells, sorted(identity.items())))
    return hashlib.sha256(text.encode()).hexdigest()


def _inside(spells, field: str) -> Q | None:
    """Rows whose ``field`` (a time) falls in one of the clubs' member spells."""
    condition = None
    for club_id, accepted_at, left_at in spells:
        spell = Q(club_id=club_id, **{f"{field}__gte": accepted_at})
        if left_at is not None:
            spell &= Q(**{f"{field}__lt": left_at})
        condition = spell if condition is None else condition | spell
    return condition


def stream(federation_id: int, spells=None):
    """The federation's games in rating order (annotated ``finished_at``)."""
    spells = _spells(federation_id) if spells is None else spells
    games = Game.objects.filter(status=GameStatus.FINISHED).annotate(
        finished_at=Max("hands__entered_at")
    )
    condition = _inside(spells, "finished_at")
    if condition is None:
        return games.none()
    return games.filter(condition).order_by("finished_at", "pk")


def _written_since(state: RankingState):
    """The ids of the games written (created, a hand recorded or corrected, reopened) since the
    rankings were last stored, less ``WRITE_MARGIN``: their audit rows (``Game.history``, which
    every write of a game adds, indexed by time); None before the first update."""
    if state.updated_at is None:
        return None
    return (
        Game.history.model.objects.filter(history_date__gte=state.updated_at - WRITE_MARGIN)
        .order_by()
        .values("id")
    )


def _changed(federation_id: int, state: RankingState, games, spells) -> bool:
    """Whether a ranked game changed or a game now sits before the last one ranked.

    Both questions are asked of the games written since the last update only
    (``_written_since``): a ranked game changes, and a game joins the stream, only by a write."""
    written = _written_since(state)
    ranked = RankedGame.objects.filter(federation_id=federation_id)
    suspects = ranked if written is None else ranked.filter(game_id__in=written)
    if suspects.filter(
        ~Q(game__status=GameStatus.FINISHED) | ~Q(game__version=F("game_version"))
    ).exists():
        return True
    if state.last_game_id is None:
        return False
    last_at = state.last_finished_at or EPOCH
    unranked = Game.objects.filter(
        status=GameStatus.FINISHED, club_id__in={club_id for club_id, *_ in spells}
    ).exclude(Exists(ranked.filter(game_id=OuterRef("pk"))))
    if written is not None:
        unranked = unranked.filter(pk__in=written)
    late = games.filter(
        Q(finished_at__lt=last_at) | Q(finished_at=last_at, pk__lt=state.last_game_id),
        pk__in=unranked.values("pk"),
    )
    return late.exists()


def _new_games(games, state: RankingState, size: int) -> Iterator[list[Game]]:
    """The games after the last one ranked, in order, ``size`` at a time (all of them, from one
    cursor, when nothing is ranked).

    After the last one ranked, only the hands entered since its finish are read (the index on
    ``entered_at``): a game finishing later has its last hand among them, so the latest of its
    hands among them is its finish. Their keys ``(finish, id)`` are sorted here; each batch of
    ids is then read from the stream (finished, inside a member spell) with its seats."""
    if state.last_game_id is None:
        yield from _batches(games, size)
        return
    last = (state.last_finished_at or EPOCH, state.last_game_id)
    finishes = (
        Hand.objects.filter(entered_at__gte=last[0])
        .order_by()
        .values("game_id")
        .annotate(last=Max("entered_at"))
        .values_list("last", "game_id")
    )
    keys = sorted(key for key in finishes if key > last)
    for chunk in _batches_of(keys, size):
        batch = list(
            games.filter(pk__in=[game_id for _, game_id in chunk]).prefetch_related("seats")
        )
        if batch:
            yield batch


def _batches(games, size: int) -> Iterator[list[Game]]:
    """``games`` with their seats, ``size`` at a time, from one cursor (a server-side cursor on
    PostgreSQL): the memory held is one batch, whatever the history."""
    rows = games.prefetch_related("seats").iterator(chunk_size=size)
    while batch := list(itertools.islice(rows, size)):
        yield batch


def _clear(federation_id: int, state: RankingState) -> None:
    for model in (RankingChange, RankedGame, FederationRating, Placing):
        model.objects.filter(federation_id=federation_id).delete()
    state.last_sequence, state.last_finished_at, state.last_game_id = 0, None, None


def _recent(federation_id: int, players, since) -> dict[int, list[form.Played]]:
    """The players' ranked games that finished after ``since``, in order (the form's window is
    inside: ``since`` is a window's length before its end)."""
    played = defaultdict(list)
    rows = RankingChange.objects.filter(
        federation_id=federation_id, federation_player_id__in=players, finished_at__gt=since
    ).order_by("sequence")
    for player, finished_at, won, chance in rows.values_list(
        "federation_player_id", "finished_at", "won", "chance"
    ):
        played[player].append(form.Played(finished_at, won, chance))
    return played


def _rate(federation_id: int, state: RankingState, games: list[Game], identity) -> set[int]:
    """Rate one batch of ``games`` (in order, after ``state``'s last game) from the stored
    ratings of their players, store it and move ``state`` on; returns the players rated.

    It reads and writes the rows of the batch's players only (their ratings, and their games
    inside the form's window), so the next batch starts from what this one stored."""
    players = {
        identity[s.player_id] for game in games for s in game.seats.all() if s.player_id in identity
    }
    ratings = {
        row.federation_player_id: row
        for row in FederationRating.objects.filter(
            federation_id=federation_id, federation_player_id__in=players
        )
    }
    known = {player: (row.mu, row.sigma) for player, row in ratings.items() if row.games}
    since = (games[0].finished_at or EPOCH) - datetime.timedelta(days=form.WINDOW_DAYS)
    played = _recent(federation_id, players, since)
    changes, ranked = [], []
    for game, steps in rate_stream(games, identity.get, known):
        state.last_sequence += 1
        for step in steps:
            row = ratings.get(step.key)
            if row is None:
                row = ratings[step.key] = FederationRating(
                    federation_id=federation_id, federation_player_id=step.key
                )
            row.mu, row.sigma, row.ordinal = step.mu, step.sigma, step.ordinal
            row.games += 1
            played[step.key].append(form.Played(game.finished_at, step.rank == 1, step.chance))
            grade, _count = form.form_of(played[step.key], game.finished_at)
            changes.append(
                RankingChange(
                    federation_id=federation_id,
                    federation_player_id=step.key,
                    game_id=game.pk,
                    club_id=game.club_id,
                    variant=game.variant,
                    sequence=state.last_sequence,
                    finished_at=game.finished_at,
                    mu=step.mu,
                    sigma=step.sigma,
                    ordinal=step.ordinal,
                    won=step.rank == 1,
                    chance=step.chance,
                    form=grade,
                )
            )
        ranked.append(
            RankedGame(
                federation_id=federation_id,
                game_id=game.pk,
                club_id=game.club_id,
                sequence=state.last_sequence,
                game_version=game.version,
                finished_at=game.finished_at,
            )
        )
        state.last_finished_at, state.last_game_id = game.finished_at, game.pk
    FederationRating.objects.bulk_create(
        ratings.values(),
        update_conflicts=True,
        unique_fields=["federation", "federation_player"],
        update_fields=["mu", "sigma", "ordinal", "games"],
    )
    RankingChange.objects.bulk_create(changes)
    RankedGame.objects.bulk_create(ranked)
    return set(ratings)


def _latest_settlements(spells):
    """The latest settle-up version of every event of the member clubs held while members."""
    first = Settlement.objects.filter(
        Q(tournament_id=OuterRef("tournament_id"), tournament_id__isnull=False)
        | Q(night_id=OuterRef("night_id"), night_id__isnull=False),
        version=1,
    ).values("created_at")[:1]
    newer = Settlement.objects.filter(
        Q(tournament_id=OuterRef("tournament_id"), tournament_id__isnull=False)
        | Q(night_id=OuterRef("night_id"), night_id__isnull=False),
        version__gt=OuterRef("version"),
    )
    condition = _inside(spells, "held_at")
    if condition is None:
        return Settlement.objects.none()
    return (
        Settlement.objects.annotate(held_at=Subquery(first))
        .filter(~Exists(newer))
        .filter(condition)
        .select_related("tournament", "night")
    )


def _place(federation_id: int, spells, identity: dict[int, int]) -> tuple[int, set[int]]:
    """Placings for new settle-up versions, none for superseded ones; returns how many moved
    and the players whose placings moved. Reads the new versions only, a batch at a time."""
    latest = _latest_settlements(spells)
    stored = Placing.objects.filter(federation_id=federation_id)
    superseded = stored.exclude(settlement_id__in=latest.values("pk"))
    players = set(superseded.order_by().values_list("federation_player_id", flat=True).distinct())
    gone, _ = superseded.delete()
    new = latest.exclude(Exists(stored.filter(settlement_id=OuterRef("pk")))).order_by("pk")
    added = 0
    for batch in _batches_of(new.iterator(chunk_size=BATCH_EVENTS), BATCH_EVENTS):
        rows = []
        for settlement in batch:
            places, field = points.placings_of(settlement)
            event = settlement.tournament or settlement.night
            for player_id, place in sorted(places.items()):
                if player_id not in identity or place is None:
                    continue
                rows.append(
                    Placing(
                        federation_id=federation_id,
                        federation_player_id=identity[player_id],
                        club_id=settlement.club_id,
                        settlement_id=settlement.pk,
                        event_name=event.name[:120],
                        place=place,
                        field=field,
                        points=points.points_for(place, field),
                        held_at=settlement.held_at,
                    )
                )
        Placing.objects.bulk_create(rows)
        added += len(rows)
        players.update(row.federation_player_id for row in rows)
    return gone + added, players


def _batches_of(rows, size: int) -> Iterator[list]:
    rows = iter(rows)
    while batch := list(itertools.islice(rows, size)):
        yield batch


def _everyone(federation_id: int) -> list[int]:
    """Every player with a rating row or a placing (ids only)."""
    rated = FederationRating.objects.filter(federation_id=federation_id)
    placed = Placing.objects.filter(federation_id=federation_id)
    return sorted(
        set(rated.values_list("federation_player_id", flat=True))
        | set(placed.order_by().values_list("federation_player_id", flat=True).distinct())
    )


def _leaving_the_window(federation_id: int, before, as_of) -> set[int]:
    """Players with a ranked game that was inside the form's window ending at ``before`` and
    is not inside the one ending at ``as_of`` (older than a window's length)."""
    days = datetime.timedelta(days=form.WINDOW_DAYS)
    return set(
        RankingChange.objects.filter(
            federation_id=federation_id,
            finished_at__gt=before - days,
            finished_at__lte=as_of - days,
        )
        .order_by()
        .values_list("federation_player_id", flat=True)
        .distinct()
    )


def _totals(federation_id: int, as_of, players: list[int]) -> None:
    """Lifetime points, events and the current form of ``players``, a batch at a time (a
    player with neither a rated game nor a place loses their row)."""
    for batch in _batches_of(players, BATCH_PLAYERS):
        ratings = {
            row.federation_player_id: row
            for row in FederationRating.objects.filter(
                federation_id=federation_id, federation_player_id__in=batch
            )
        }
        totals = {
            row["federation_player_id"]: (row["earned"], row["events"])
            for row in Placing.objects.filter(
                federation_id=federation_id, federation_player_id__in=batch
            )
            .values("federation_player_id")
            .annotate(earned=Sum("points"), events=Count("pk"))
        }
        for player in totals:
            if player not in ratings:
                ratings[player] = FederationRating(
                    federation_id=federation_id, federation_player_id=player
                )
        played = (
            _recent(federation_id, list(ratings), as_of - datetime.timedelta(days=form.WINDOW_DAYS))
            if as_of is not None
            else {}
        )
        for player, row in ratings.items():
            row.points, row.events = totals.get(player, (0, 0))
            row.form, row.form_games = (
                form.form_of(played.get(player, []), as_of) if as_of is not None else (None, 0)
            )
        gone = [player for player, row in ratings.items() if not row.games and not row.events]
        FederationRating.objects.filter(
            federation_id=federation_id, federation_player_id__in=gone
        ).delete()
        FederationRating.objects.bulk_create(
            [row for row in ratings.values() if row.games or row.events],
            update_conflicts=True,
            unique_fields=["federation", "federation_player"],
            update_fields=["points", "events", "form", "form_games"],
        )


def update_rankings(
    *, federation_id: int, from_scratch: bool = False, batch_games: int = BATCH_GAMES
) -> dict:
    """Bring the federation's rankings up to date (module docstring); ``batch_games``: games
    rated per batch (the result does not depend on it)."""
    with transaction.atomic():
        _lock(federation_id)
        state = RankingState.objects.filter(federation_id=federation_id).first()
        state = state or RankingState(federation_id=federation_id)
        spells = _spells(federation_id)
        identity = _identity(federation_id)
        stamp = _stamp(spells, identity)
        games = stream(federation_id, spells)
        rebuilt = (
            from_scratch
            or stamp != state.identity_stamp
            or _changed(federation_id, state, games, spells)
        )
        if rebuilt:
            _clear(federation_id, state)
        before = state.as_of
        rated, touched = 0, set()
        for batch in _new_games(games, state, batch_games):
            touched |= _rate(federation_id, state, batch, identity)
            rated += len(batch)
        placed, placed_players = _place(federation_id, spells, identity)
        moved = rebuilt or bool(rated) or bool(placed) or state._state.adding
        if moved:
            state.as_of = state.last_finished_at
            if rebuilt or before is None or state.as_of is None:
                players = _everyone(federation_id)
            else:
                players = touched | placed_players
                if state.as_of != before:
                    players |= _leaving_the_window(federation_id, before, state.as_of)
                players = sorted(players)
            _totals(federation_id, state.as_of, players)
            state.identity_stamp = stamp
            state.version += 1
            state.save()
    return {"rated": rated, "rebuilt": rebuilt, "placings": placed}


def rebuild_rankings(*, federation_id: int) -> dict:
    return update_rankings(federation_id=federation_id, from_scratch=True)


def list_federations_of_club(club_id: int) -> list[int]:
    """The federations a club is a member of now (whose rankings its nights move)."""
    return sorted(
        FederationMembership.objects.filter(
            club_id=club_id, accepted_at__isnull=False, left_at__isnull=True
        ).values_list("federation_id", flat=True)
    )
