"""``manage.py load_demo``: the demo club, users, players and teams, and a second run is a no-op."""

from __future__ import annotations

from io import StringIO

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command

from clubs.models import Club, Membership, Player, Team, TeamMember
from web.management.commands.load_demo import DEMO_PASSWORD

pytestmark = pytest.mark.django_db


def _state() -> tuple:
    return (
        list(Club.objects.order_by("pk").values()),
        list(Membership.objects.order_by("pk").values("club_id", "user__username", "role")),
        list(Player.objects.order_by("pk").values()),
        list(Team.objects.order_by("pk").values()),
        list(TeamMember.objects.order_by("pk").values()),
        list(get_user_model().objects.order_by("pk").values_list("username", flat=True)),
    )


def test_load_demo_creates_the_demo_and_is_idempotent():
    out = StringIO()
    call_command("load_demo", stdout=out)
    assert DEMO_PASSWORD == "jink-demo-2026"
    assert "jink-demo-2026" in out.getvalue()

    club = Club.objects.get(slug="hole-in-the-wall")
    assert (club.name, club.currency, club.time_zone, club.default_game, club.public_standings) == (
        "The Hole in the Wall",
        "EUR",
        "Europe/Dublin",
        "25",
        True,
    )
    assert sorted(Membership.objects.filter(club=club).values_list("user__username", "role")) == [
        ("organiser", "organiser"),
        ("player", "player"),
        ("scorekeeper", "scorekeeper"),
    ]
    assert Player.objects.filter(club=club).count() == 24
    assert Player.objects.get(club=club, user__username="player").display_name == "Mary Byrne"
    assert Team.objects.filter(club=club).count() == 6
    sizes = sorted(team.team_members.count() for team in Team.objects.filter(club=club))
    assert sizes == [2, 2, 2, 2, 3, 3]
    for username in ("organiser", "scorekeeper", "player"):
        assert get_user_model().objects.get(username=username).check_password(DEMO_PASSWORD)

    before = _state()
    second = StringIO()
    call_command("load_demo", stdout=second)
    assert _state() == before
    assert "Players: 24 (0 created)" in second.getvalue()
    assert "Teams: 6 (0 created)" in second.getvalue()


def test_load_demo_completes_a_partial_demo():
    call_command("load_demo", stdout=StringIO())
    # a player who holds no seat (the demo's games protect their players) nor a team place
    idle = Player.objects.filter(
        club__slug="hole-in-the-wall", game_seats__isnull=True, team_memberships__isnull=True
    ).order_by("pk")
    idle.first().delete()
    Membership.objects.filter(user__username="scorekeeper").update(role="player")
    out = StringIO()
    call_command("load_demo", stdout=out)
    assert "Players: 24 (1 created)" in out.getvalue()
    assert Membership.objects.get(user__username="scorekeeper").role == "scorekeeper"
