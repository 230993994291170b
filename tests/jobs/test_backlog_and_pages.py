"""The jobs' backlog in /health/workers/ (config.backlog) and the rating include (player page)."""

from __future__ import annotations

import datetime

import pytest
from asgiref.sync import async_to_sync
from django.db.models import F
from django.template.loader import render_to_string
from django.utils import timezone

from config.backlog import JobsBacklog, oldest_stale_age
from seasons.selectors import rating_for_page
from tests.tournaments.play_helpers import build_event, win_game
from tournaments import services, snapshots
from tournaments.models import StandingsSnapshot, Tournament

pytestmark = pytest.mark.django_db(transaction=True)


def test_the_backlog_reports_the_age_of_the_oldest_stale_snapshot():
    event = build_event(players=4)
    tournament = services.create_tournament(
        club=event.club, user=event.world.users["organiser"],
        values={"name": "League", "game": "25", "format": "round_robin"},
        entrants=[{"player": player.pk} for player in event.players],
    )
    snapshots.refresh_standings(tournament_id=tournament.pk)
    assert oldest_stale_age() is None
    # The data moves and the refresh message is lost; the snapshot was computed 90 s ago.
    StandingsSnapshot.objects.filter(tournament=tournament).update(
        computed_at=timezone.now() - datetime.timedelta(seconds=90)
    )
    Tournament.objects.filter(pk=tournament.pk).update(data_version=F("data_version") + 1)
    assert 90 <= oldest_stale_age() < 120
    check = JobsBacklog()
    # As the health view runs it: database work back in this thread. No Redis in these tests:
    # the queue is not measured.
    async_to_sync(check.run)()
    assert check.queue_length is None
    assert 90 <= check.oldest_stale_snapshot_seconds < 120
    assert repr(check).startswith("JobsBacklog(queue_length=None, oldest_stale_snapshot_seconds=")


def test_the_rating_include_shows_the_rating_and_its_history():
    event = build_event(players=2)
    game = event.ok("post", f"/api/clubs/{event.club.slug}/games/", {
        "game": "25", "seats": [player.pk for player in event.players], "first_dealer": 0,
    }, status=201, role="scorekeeper")["id"]
    win_game(event, game, 0)
    rating = rating_for_page(player=event.players[0])
    html = render_to_string("pages/_rating.html", {"rating": rating})
    assert f"<strong>{rating['current'].ordinal:.1f}</strong>" in html
    assert f"<li>After game {game}: {rating['current'].ordinal:.1f}</li>" in html
    # A player of the club who has played no game.
    unrated = render_to_string("pages/_rating.html",
                               {"rating": rating_for_page(player=event.world.players[0])})
    assert "Not rated yet" in unrated
