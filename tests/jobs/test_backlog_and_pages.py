"""The jobs' backlog in /health/workers/ (config.backlog) and the rating include (player page)."""

from __future__ import annotations

import datetime
import uuid
from concurrent.futures import ThreadPoolExecutor

import pytest
from asgiref.sync import async_to_sync
from django.db.models import F
from django.template.loader import render_to_string
from django.utils import timezone

from config.backlog import PRIORITY_SEPARATOR, JobsBacklog, oldest_stale_ages
from games.models import Game, GameStatus
from outbox.models import Announcement
from seasons.models import RatedGame, SeasonSnapshot
from seasons.selectors import rating_for_page
from tests.tournaments.play_helpers import build_event, win_game
from tournaments import services, snapshots
from tournaments.models import StandingsSnapshot, Tournament

pytestmark = pytest.mark.django_db(transaction=True)


NOW = datetime.datetime(2026, 6, 1, 20, 0, tzinfo=datetime.UTC)


def run_check(check: JobsBacklog) -> None:
    # As the health view runs it (database work back in the calling thread), in a thread of its
    # own: async_to_sync refuses a thread with a running event loop, and a worker that ran a
    # browser test keeps Playwright's loop in the main thread (tests/browser.py).
    with ThreadPoolExecutor(max_workers=1) as executor:
        executor.submit(async_to_sync(check.run)).result()


def test_the_backlog_reports_the_oldest_stale_result_of_every_kind(monkeypatch):
    event = build_event(players=4)
    tournament = services.create_tournament(
        club=event.club,
        user=event.world.users["organiser"],
        values={"name": "League", "game": "25", "format": "round_robin"},
        entrants=[{"player": player.pk} for player in event.players],
    )
    snapshots.refresh_standings(tournament_id=tournament.pk)
    # A game played and finished: its season table and the ratings follow (tasks in process).
    game = event.ok(
        "post",
        f"/api/clubs/{event.club.slug}/games/",
        {
            "game": "25",
            "seats": [player.pk for player in event.players[:2]],
            "first_dealer": 0,
        },
        status=201,
        role="scorekeeper",
    )["id"]
    win_game(event, game, 0)
    assert SeasonSnapshot.objects.filter(club=event.club).count() == 1
    assert RatedGame.objects.filter(game_id=game).exists()
    assert oldest_stale_ages() == {
        "standings": None,
        "seasons": None,
        "ratings": None,
        "announcements": None,
    }

    # Each kind falls behind (its message lost), at a known time before NOW.
    StandingsSnapshot.objects.filter(tournament=tournament).update(
        computed_at=NOW - datetime.timedelta(seconds=90)
    )
    Tournament.objects.filter(pk=tournament.pk).update(data_version=F("data_version") + 1)
    SeasonSnapshot.objects.filter(club=event.club).update(
        data_stamp="0:0", computed_at=NOW - datetime.timedelta(seconds=30.25)
    )
    RatedGame.objects.filter(game_id=game).update(game_version=0)
    Game.objects.filter(pk=game).update(updated_at=NOW - datetime.timedelta(seconds=45))
    # A change committed 50 s ago whose subscribers never ran (due 20 s after its commit).
    left = Announcement.objects.create(
        setting="JINK_GAME_CHANGE_SUBSCRIBERS",
        change={},
        due_at=NOW - datetime.timedelta(seconds=30),
    )
    Announcement.objects.filter(pk=left.pk).update(created_at=NOW - datetime.timedelta(seconds=50))
    monkeypatch.setattr(timezone, "now", lambda: NOW)
    assert snapshots.oldest_stale_age() == 90.0
    assert oldest_stale_ages() == {
        "standings": 90.0,
        "seasons": 30.2,
        "ratings": 45.0,
        "announcements": 50.0,
    }
    check = JobsBacklog()
    run_check(check)  # no Redis in these tests' settings: the queues are not measured
    assert check.queue_lengths is None
    assert check.oldest_stale_seconds == {
        "standings": 90.0,
        "seasons": 30.2,
        "ratings": 45.0,
        "announcements": 50.0,
    }
    assert repr(check) == (
        "JobsBacklog(queue_lengths=None, oldest_stale_seconds="
        "{'standings': 90.0, 'seasons': 30.2, 'ratings': 45.0, 'announcements': 50.0})"
    )
    # A rated game reopened (no longer finished) is behind the ratings too.
    RatedGame.objects.filter(game_id=game).update(game_version=Game.objects.get(pk=game).version)
    assert oldest_stale_ages()["ratings"] is None
    Game.objects.filter(pk=game).update(
        status=GameStatus.IN_PROGRESS, updated_at=NOW - datetime.timedelta(seconds=12)
    )
    assert oldest_stale_ages()["ratings"] == 12.0


@pytest.mark.redis
def test_the_backlog_reports_every_queue_length(settings):
    import redis

    from config.celery import app
    from tests.conftest import ENVIRONMENT

    queue = f"jink-backlog-{uuid.uuid4().hex}"
    standings = queue + settings.JINK_STANDINGS_QUEUE_SUFFIX
    client = redis.Redis.from_url(ENVIRONMENT.redis_url)
    previous = app.conf.task_default_queue
    settings.REDIS_URL = ENVIRONMENT.redis_url
    app.conf.task_default_queue = queue
    try:
        client.lpush(queue, "a", "b", "c")
        client.lpush(standings, "d")
        client.lpush(f"{standings}{PRIORITY_SEPARATOR}3", "e", "f")
        client.lpush(f"{queue}-other", "not this queue")
        check = JobsBacklog()
        run_check(check)
    finally:
        app.conf.task_default_queue = previous
        client.delete(queue, standings, f"{standings}{PRIORITY_SEPARATOR}3", f"{queue}-other")
        client.close()
    assert check.queue_lengths == {queue: 3, standings: 3}
    assert check.oldest_stale_seconds == {
        "standings": None,
        "seasons": None,
        "ratings": None,
        "announcements": None,
    }


def test_the_rating_include_shows_the_rating_and_its_history():
    event = build_event(players=2)
    game = event.ok(
        "post",
        f"/api/clubs/{event.club.slug}/games/",
        {
            "game": "25",
            "seats": [player.pk for player in event.players],
            "first_dealer": 0,
        },
        status=201,
        role="scorekeeper",
    )["id"]
    win_game(event, game, 0)
    rating = rating_for_page(player=event.players[0])
    html = render_to_string("pages/_rating.html", {"rating": rating})
    assert f"<strong>{rating['current'].ordinal:.1f}</strong>" in html
    # The history names no game by its id (the player page's game cards say the rating each
    # game left): its values, oldest first.
    assert f"After the last rated game: {rating['current'].ordinal:.1f}." in html
    assert f"game {game}" not in html
    # A player of the club who has played no game.
    unrated = render_to_string(
        "pages/_rating.html", {"rating": rating_for_page(player=event.world.players[0])}
    )
    assert "Not rated yet" in unrated
