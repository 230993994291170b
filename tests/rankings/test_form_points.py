"""The form grade's window and formula, and the lifetime points table, exactly; placings read
from settle-up versions held while the club was a member."""

from __future__ import annotations

import datetime

import pytest

from rankings.build import update_rankings
from rankings.form import WINDOW_DAYS, WINDOW_GAMES, Played, form_of, grade
from rankings.models import FederationRating, Placing
from rankings.points import points_for
from settlements.models import Settlement
from tests.rankings.seed import T0, at, settled_night, two_clubs


def days(n: float) -> datetime.datetime:
    return T0 + datetime.timedelta(days=n)


def test_grade_is_games_won_over_games_expected():
    games = [Played(days(1), True, 0.5), Played(days(2), False, 0.25), Played(days(3), True, 0.25)]
    assert grade(games) == 200.0  # 2 won where 1 was expected
    assert grade([Played(days(1), False, 0.5)]) == 0.0
    assert grade([]) is None


def test_the_window_keeps_twelve_months_before_its_end():
    end = days(400)
    old = Played(end - datetime.timedelta(days=WINDOW_DAYS), True, 0.5)  # exactly 365 days: out
    inside = Played(end - datetime.timedelta(days=WINDOW_DAYS - 1), False, 0.5)
    later = Played(end + datetime.timedelta(seconds=1), True, 0.5)  # after the end: out
    assert form_of([old, inside, later], end) == (0.0, 1)


def test_the_window_keeps_the_last_200_games():
    assert WINDOW_GAMES == 200
    games = [Played(days(i / 100), True, 0.5) for i in range(50)]
    games += [Played(days(1 + i / 1000), False, 0.5) for i in range(200)]
    assert form_of(games, days(2)) == (0.0, 200)
    assert form_of(games + [Played(days(2), True, 0.5)], days(2)) == (1.0, 200)


@pytest.mark.parametrize(
    ("field", "table"),
    [
        (1, [1]),
        (2, [1, 0]),
        (5, [3, 2, 1, 0, 0]),
        (8, [4, 3, 2, 1, 0, 0, 0, 0]),
        (9, [5, 4, 3, 2, 1, 0, 0, 0, 0]),
    ],
)
def test_lifetime_points_table(field, table):
    assert [points_for(place, field) for place in range(1, field + 1)] == table
    assert points_for(0, field) == 0


@pytest.mark.django_db
def test_placings_count_events_held_while_a_member_and_follow_the_latest_version():
    world = two_clubs()
    players = world.club_players
    club_a, club_b = world.clubs
    settled_night(club_a, {players["Ann@a"]: 2, players["Bob@a"]: 1, players["Cat@a"]: 3}, at(-2))
    night = settled_night(
        club_b,
        {players["Ann@b"]: 1, players["Eve@b"]: 2, players["Gus@b"]: 2, players["Fay@b"]: 4},
        at(3),
    )
    assert update_rankings(federation_id=world.federation.pk)["placings"] == 3
    rows = {
        (p.federation_player.display_name, p.place, p.field, p.points, p.event_name)
        for p in Placing.objects.select_related("federation_player")
    }
    assert rows == {
        ("Ann Byrne", 1, 4, 2, "Friday drive"),
        ("Eve Byrne", 2, 4, 1, "Friday drive"),
        ("Fay Byrne", 4, 4, 0, "Friday drive"),
    }
    ann = FederationRating.objects.get(federation_player=world.people["Ann"])
    assert (ann.points, ann.events, ann.games) == (2, 1, 0)

    # A corrected settle-up (version 2) replaces the first's places.
    second = Settlement.objects.create(
        club=club_b,
        night=night,
        version=2,
        lines=[],
        details={"places": {str(players["Eve@b"].pk): 1, str(players["Ann@b"].pk): 2}},
        fingerprint="y",
    )
    assert second.pk
    assert update_rankings(federation_id=world.federation.pk)["placings"] == 5  # 3 gone, 2 new
    points = {
        name: (earned, events)
        for name, earned, events in FederationRating.objects.filter(
            federation=world.federation
        ).values_list("federation_player__display_name", "points", "events")
    }
    assert points == {"Ann Byrne": (0, 1), "Eve Byrne": (1, 1)}
