"""Build a federation's rankings: the job behind ``update_rankings_task`` and ``rebuild_rankings``.

What it does: ``update_rankings(federation_id)`` brings the stored rankings (``rankings.models``)
up to date with the member clubs' games and settle-ups, under a PostgreSQL advisory lock per
federation:

- **The stream.** Every finished game of a member club that finished while the club was a
  member (``accepted_at`` <= its last hand < ``left_at``, for each spell), ordered by
  ``(finished_at, id)`` as ``seasons.ratings`` orders a club's games, rated by the one OpenSkill
  mechanism, ``seasons.ratings.rate_stream``, with the *identity* of a seat its club player's
  current ``PlayerLink`` (an unlinked club player plays as a newcomer and is not ranked).
- **Incremental.** New games after the last one ranked are rated from the stored ratings and
  appended; the form of everyone ranked is recomputed at the new ``as_of``; placings are added
  for settle-up versions not yet read and dropped for superseded ones.
- **Rebuild.** When the *identity stamp* moves (a club joined or left, a link made, unlinked,
  merged or un-merged) or a ranked game changed (corrected, reopened, a game finishing before the
  last one ranked), everything is computed again from the first game: the result is the same as
  ``rebuild_rankings`` (``from_scratch=True``, the management command).

Returns ``{"rated": n, "rebuilt": bool, "placings": n}``; bumps ``RankingState.version`` (the
pages' and API's ``ETag``) when anything moved.

What it does not do: rate a club's own ratings (``seasons``), or read for the pages (selectors).

Terms: *identity stamp* — SHA-256 of the member spells and current links; *as_of* — the last
ranked game's finish.
"""

from __future__ import annotations

import datetime
import hashlib
from collections import defaultdict

from django.db import connection, transaction
from django.db.models import Exists, F, Max, OuterRef, Q, Subquery

from federations.models import FederationMembership, PlayerLink
from games.models import Game, GameStatus
from rankings import form, points
from rankings.models import FederationRating, Placing, RankedGame, RankingChange, RankingState
from seasons.ratings import rate_stream
from settlements.models import Settlement

ADVISORY_LOCK_CLASS = 0x524B  # "RK"; the second key is the federation id
EPOCH = datetime.datetime.min.replace(tzinfo=datetime.UTC)


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


def _changed(federation_id: int, state: RankingState, games) -> bool:
    """Whether a ranked game changed or a game now sits before the last one ranked."""
    ranked = RankedGame.objects.filter(federation_id=federation_id)
    if ranked.filter(
        ~Q(game__status=GameStatus.FINISHED) | ~Q(game__version=F("game_version"))
    ).exists():
        return True
    if state.last_game_id is None:
        return False
    last_at = state.last_finished_at or EPOCH
    unranked = games.filter(
        ~Exists(ranked.filter(game_id=OuterRef("pk"))),
        Q(finished_at__lt=last_at) | Q(finished_at=last_at, pk__lt=state.last_game_id),
    )
    return unranked.exists()


def _after(state: RankingState) -> Q:
    if state.last_game_id is None:
        return Q()
    last_at = state.last_finished_at or EPOCH
    return Q(finished_at__gt=last_at) | Q(finished_at=last_at, pk__gt=state.last_game_id)


def _clear(federation_id: int, state: RankingState) -> None:
    for model in (RankingChange, RankedGame, FederationRating, Placing):
        model.objects.filter(federation_id=federation_id).delete()
    state.last_sequence, state.last_finished_at, state.last_game_id = 0, None, None


def _recent(federation_id: int, players, since) -> dict[int, list[form.Played]]:
    played = defaultdict(list)
    rows = RankingChange.objects.filter(
        federation_id=federation_id, federation_player_id__in=players, finished_at__gt=since
    ).order_by("sequence")
    for player, finished_at, won, chance in rows.values_list(
        "federation_player_id", "finished_at", "won", "chance"
    ):
        played[player].append(form.Played(finished_at, won, chance))
    return played


def _rate(federation_id: int, state: RankingState, games: list[Game], identity) -> None:
    ratings = {
        row.federation_player_id: row
        for row in FederationRating.objects.filter(federation_id=federation_id)
    }
    known = {player: (row.mu, row.sigma) for player, row in ratings.items() if row.games}
    since = (games[0].finished_at or EPOCH) - datetime.timedelta(days=form.WINDOW_DAYS)
    players = {
        identity[s.player_id] for game in games for s in game.seats.all() if s.player_id in identity
    }
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


def _place(federation_id: int, spells, identity: dict[int, int]) -> int:
    """Placings for new settle-up versions, none for superseded ones; returns how many moved."""
    latest = {settlement.pk: settlement for settlement in _latest_settlements(spells)}
    stored = Placing.objects.filter(federation_id=federation_id)
    gone, _ = stored.exclude(settlement_id__in=latest).delete()
    seen = set(stored.values_list("settlement_id", flat=True).distinct())
    rows = []
    for settlement in (latest[pk] for pk in sorted(set(latest) - seen)):
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
    return gone + len(rows)


def _totals(federation_id: int, as_of) -> None:
    """Lifetime points, events and the current form of every ranked player."""
    ratings = {
        row.federation_player_id: row
        for row in FederationRating.objects.filter(federation_id=federation_id)
    }
    totals = defaultdict(lambda: [0, 0])
    for player, earned in Placing.objects.filter(federation_id=federation_id).values_list(
        "federation_player_id", "points"
    ):
        totals[player][0] += earned
        totals[player][1] += 1
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
        row.points, row.events = totals[player] if player in totals else (0, 0)
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


def update_rankings(*, federation_id: int, from_scratch: bool = False) -> dict:
    with transaction.atomic():
        _lock(federation_id)
        state = RankingState.objects.filter(federation_id=federation_id).first()
        state = state or RankingState(federation_id=federation_id)
        spells = _spells(federation_id)
        identity = _identity(federation_id)
        stamp = _stamp(spells, identity)
        games = stream(federation_id, spells)
        rebuilt = (
            from_scratch or stamp != state.identity_stamp or _changed(federation_id, state, games)
        )
        if rebuilt:
            _clear(federation_id, state)
        new = list(games.filter(_after(state)).prefetch_related("seats"))
        if new:
            _rate(federation_id, state, new, identity)
        placed = _place(federation_id, spells, identity)
        moved = rebuilt or bool(new) or bool(placed) or state._state.adding
        if moved:
            state.as_of = state.last_finished_at
            _totals(federation_id, state.as_of)
            state.identity_stamp = stamp
            state.version += 1
            state.save()
    return {"rated": len(new), "rebuilt": rebuilt, "placings": placed}


def rebuild_rankings(*, federation_id: int) -> dict:
    return update_rankings(federation_id=federation_id, from_scratch=True)


def list_federations_of_club(club_id: int) -> list[int]:
    """The federations a club is a member of now (whose rankings its nights move)."""
    return sorted(
        FederationMembership.objects.filter(
            club_id=club_id, accepted_at__isnull=False, left_at__isnull=True
        ).values_list("federation_id", flat=True)
    )
