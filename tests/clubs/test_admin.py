"""The clubs admin: every page answers a superuser, search and filters work, team rules hold."""

from __future__ import annotations

import pytest
from django.urls import reverse

from clubs.models import Club, Team, TeamMember
from tests.clubs.factories import build_world, make_club, make_player

pytestmark = pytest.mark.django_db

MODELS = ("club", "membership", "player", "team")


@pytest.fixture
def world():
    return build_world()


def _object_for(world, model):
    return {
        "club": world.club,
        "membership": world.spare_membership,
        "player": world.player,
        "team": world.team,
    }[model]


@pytest.mark.parametrize("model", MODELS)
def test_changelist_add_and_change_pages(staff, world, model):
    changelist = reverse(f"admin:clubs_{model}_changelist")
    assert staff.get(changelist).status_code == 200
    assert staff.get(changelist, {"q": "the"}).status_code == 200
    assert staff.get(reverse(f"admin:clubs_{model}_add")).status_code == 200
    obj = _object_for(world, model)
    assert staff.get(reverse(f"admin:clubs_{model}_change", args=[obj.pk])).status_code == 200


def test_player_search_and_filter(staff, world):
    make_player(make_club("elsewhere"), "Ann Other")
    response = staff.get(reverse("admin:clubs_player_changelist"), {"q": "ann"})
    assert sorted(player.display_name for player in response.context["cl"].result_list) == [
        "Ann",
        "Ann Other",
    ]
    response = staff.get(
        reverse("admin:clubs_player_changelist"), {"q": "ann", "club__id__exact": world.club.pk}
    )
    assert [player.display_name for player in response.context["cl"].result_list] == ["Ann"]


def test_team_changelist_shows_members_in_order(staff, world):
    response = staff.get(reverse("admin:clubs_team_changelist"))
    assert b"Ann, Bill" in response.content


def test_player_autocomplete(staff, world):
    response = staff.get(
        reverse("admin:autocomplete"),
        {"app_label": "clubs", "model_name": "teammember", "field_name": "player", "term": "cai"},
    )
    assert response.status_code == 200
    assert [result["text"] for result in response.json()["results"]] == ["Cait"]


def _team_form(club, name, player_ids):
    data = {
        "club": club.pk,
        "name": name,
        "is_active": "on",
        "team_members-TOTAL_FORMS": str(len(player_ids)),
        "team_members-INITIAL_FORMS": "0",
        "team_members-MIN_NUM_FORMS": "2",
        "team_members-MAX_NUM_FORMS": "3",
    }
    for index, player_id in enumerate(player_ids):
        data[f"team_members-{index}-player"] = player_id
        data[f"team_members-{index}-position"] = index
    return data


def test_admin_creates_a_valid_team(staff, world):
    ids = [world.players[3].pk, world.players[2].pk]
    response = staff.post(reverse("admin:clubs_team_add"), _team_form(world.club, "Duo", ids))
    assert response.status_code == 302, response.context["errors"] if response.context else ""
    team = Team.objects.get(name="Duo")
    assert list(TeamMember.objects.filter(team=team).values_list("player_id", flat=True)) == ids


@pytest.mark.parametrize("problem", ["other_club", "duplicate", "alone"])
def test_admin_refuses_a_bad_team(staff, world, problem):
    stranger = make_player(make_club("elsewhere"), "Stranger")
    ids = {
        "other_club": [world.players[3].pk, stranger.pk],
        "duplicate": [world.players[3].pk, world.players[3].pk],
        "alone": [world.players[3].pk],
    }[problem]
    teams_before = Team.objects.count()
    response = staff.post(reverse("admin:clubs_team_add"), _team_form(world.club, "Bad", ids))
    assert response.status_code == 200  # the form again, with errors
    assert Team.objects.count() == teams_before


def test_admin_refuses_bad_house_rules(staff, world):
    url = reverse("admin:clubs_club_change", args=[world.club.pk])
    data = {
        "name": world.club.name,
        "slug": world.club.slug,
        "currency": "EUR",
        "time_zone": "Europe/Dublin",
        "default_game": "25",
        "default_house_rules": '{"kitty": 3}',
        "memberships-TOTAL_FORMS": "0",
        "memberships-INITIAL_FORMS": "0",
        "memberships-MIN_NUM_FORMS": "0",
        "memberships-MAX_NUM_FORMS": "1000",
    }
    response = staff.post(url, data)
    assert response.status_code == 200
    assert "kitty: does not apply to game 25" in str(response.context["adminform"].form.errors)
    world.club.refresh_from_db()
    assert world.club.default_house_rules == {}
    data["default_house_rules"] = '{"target": 31}'
    assert staff.post(url, data).status_code == 302
    assert Club.objects.get(pk=world.club.pk).default_house_rules == {"target": 31}
