"""The database keeps a league's rows sound, whatever writes them (leagues.models' constraints)."""

from __future__ import annotations

from datetime import date

import pytest
from django.db import IntegrityError, transaction

from leagues.models import Fixture, League, Penalty
from tests.leagues.factories import LeagueWorld

pytestmark = pytest.mark.django_db


@pytest.fixture
def world():
    return LeagueWorld(clubs=("north", "south"))  # no fixtures drawn


def _refused(**changes):
    with pytest.raises(IntegrityError), transaction.atomic():
        changes.pop("model", Fixture).objects.create(**changes)


def test_fixture_constraints(world):
    north, south = world.teams["north"], world.teams["south"]
    base = {"league": world.league, "round": 2, "date": date(2026, 10, 1)}
    Fixture.objects.create(**{**base, "round": 1, "home": north, "away": south})
    refused = [
        {"home": north, "away": north},  # two teams
        {"home": north, "away": south},  # north v south again at north
        {"home": north, "away": world.teams["south"], "round": 1},  # north at home twice in round 1
        {"home": south, "away": north, "status": "played"},  # no scores
        {"home": south, "away": north, "home_score": 1},  # one score only
        {"home": south, "away": north, "status": "walkover", "home_score": 0, "away_score": 2},
        {"home": south, "away": north, "walkover_to": north},  # not a walkover
    ]
    for changes in refused:
        _refused(**{**base, **changes})
    Fixture.objects.create(
        **{
            **base,
            "home": south,
            "away": north,
            "status": "walkover",
            "walkover_to": north,
            "home_score": 0,
            "away_score": 2,
        }
    )
    assert Fixture.objects.count() == 2


def test_league_and_penalty_constraints(world):
    _refused(
        model=League,
        federation=world.county,
        name="B",
        slug="b",
        season_start=date(2027, 1, 1),
        season_end=date(2026, 1, 1),
    )
    _refused(
        model=League,
        federation=world.county,
        name="W",
        slug="winter",
        season_start=date(2027, 1, 1),
        season_end=date(2027, 2, 1),
    )
    _refused(
        model=League,
        federation=world.county,
        name="P",
        slug="p",
        points_win=0,
        season_start=date(2027, 1, 1),
        season_end=date(2027, 2, 1),
    )
    _refused(model=Penalty, league=world.league, team=world.teams["north"], points=1, reason="")
    _refused(model=Penalty, league=world.league, team=world.teams["north"], points=0, reason="x")
    assert League.objects.count() == 1 and Penalty.objects.count() == 0
