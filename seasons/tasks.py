"""Celery tasks of seasons: refresh a season table, rate a changed game, sweep what is behind.

What it does: ``refresh_season_task(club_id, date_from, date_to)`` and ``rate_game_task(game_id)``
are queued by ``seasons.subscribers`` after a game's result or points change;
``catch_up_ratings_task(club_id)`` is queued by a re-rating (a correction of a rated game) for
its next batch; ``sweep_seasons_task`` (beat, every minute) refreshes every stored table whose data
moved and brings up to date every club with finished games not yet rated (or changed since), so a
lost message only delays them. ``update_ratings_task(club_id)`` does that for one club (messages
queued before ``rate_game_task`` existed). ``recompute_ratings`` (the management command) rates a
club from scratch. All run on the default queue, never on the standings lane.

What it does not do: compute (``seasons.league_table``, ``seasons.ratings``). All are idempotent (a
stamp or the rated games say what is done; advisory locks keep one worker per club), hence
``acks_late``; transient database errors are retried with back-off, a bounded number of times.
"""

from __future__ import annotations

import datetime

from celery import shared_task
from django.db import DatabaseError, OperationalError

from config.singleton import one_at_a_time
from seasons import league_table, ratings

RETRY = {
    "acks_late": True,
    "autoretry_for": (OperationalError,),
    "retry_backoff": True,
    "retry_backoff_max": 30,
    "max_retries": 5,
}


@shared_task(name="seasons.refresh_season_task", **RETRY)
def refresh_season_task(club_id: int, date_from: str, date_to: str) -> dict:
    return league_table.refresh_season(
        club_id=club_id,
        date_from=datetime.date.fromisoformat(date_from),
        date_to=datetime.date.fromisoformat(date_to),
    )


@shared_task(name="seasons.rate_game_task", **RETRY)
def rate_game_task(game_id: int) -> dict:
    return ratings.rate_game(game_id=game_id)


@shared_task(name="seasons.catch_up_ratings_task", **RETRY)
def catch_up_ratings_task(club_id: int) -> dict:
    return ratings.catch_up_ratings(club_id=club_id)


@shared_task(name="seasons.update_ratings_task", **RETRY)
def update_ratings_task(club_id: int) -> dict:
    return ratings.update_ratings(club_id=club_id)


# No retries: the next periodic run repairs whatever this one could not.
@shared_task(name="seasons.sweep_seasons_task", acks_late=True)
@one_at_a_time
def sweep_seasons_task() -> dict | None:
    refreshed = rated = 0
    for club_id, date_from, date_to in league_table.list_stale_seasons():
        try:
            refreshed += league_table.refresh_season(
                club_id=club_id, date_from=date_from, date_to=date_to
            )["stored"]
        except DatabaseError:
            continue
    for club_id in ratings.list_clubs_with_unrated_games():
        try:
            rated += ratings.update_ratings(club_id=club_id)["rated"]
        except DatabaseError:
            continue
    return {"seasons": refreshed, "rated": rated}
