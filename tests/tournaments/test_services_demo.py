"""The demo tournament: a 25 drive in progress in the demo club, created once."""

from __future__ import annotations

from io import StringIO

import pytest
from django.core.management import call_command
from django.test import TestCase

from games.models import Game
from tournaments.demo import DEMO_TOURNAMENT_NAME
from tournaments.models import Match, Tournament

pytestmark = pytest.mark.django_db


def test_load_demo_starts_a_drive_and_a_second_run_changes_nothing():
    out = StringIO()
    with TestCase.captureOnCommitCallbacks(execute=True):
        call_command("load_demo", stdout=out)
    assert "Tournament: Friday 25 Drive (round 2 in progress)" in out.getvalue()
    tournament = Tournament.objects.get(name=DEMO_TOURNAMENT_NAME)
    assert (tournament.format, tournament.status, tournament.is_public) == (
        "drive",
        "in_progress",
        True,
    )
    assert tournament.entrants.count() == 20
    first = Match.objects.filter(tournament=tournament, round__number=1)
    second = Match.objects.filter(tournament=tournament, round__number=2)
    assert [match.status for match in first] == ["decided"] * 5
    assert [match.status for match in second] == ["in_progress"] * 5
    games = Game.objects.filter(match_link__match__tournament=tournament)
    assert sorted(games.values_list("hands_played", flat=True)) == [1] * 5 + [2] * 5
    before = (Match.objects.count(), Game.objects.count(), Tournament.objects.count())

    with TestCase.captureOnCommitCallbacks(execute=True):
        call_command("load_demo", stdout=StringIO())
    assert (Match.objects.count(), Game.objects.count(), Tournament.objects.count()) == before
