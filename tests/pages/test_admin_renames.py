"""A rename made in the Django admin changes the live pages' tags, as a rename by the API does.

The admin writes the models directly; ``clubs.admin`` calls ``clubs.services.names_changed``
for a changed name (a club's, a player's, a team's, a team's members) so that the club's
``names_version`` grows and every live page that shows the name answers with a new ETag.
"""

from __future__ import annotations

import pytest
from django.urls import reverse

from clubs.models import Club, Team
from tests.helpers import logged_in_client
from tests.tournaments.play_helpers import build_event

pytestmark = pytest.mark.django_db


@pytest.fixture
def event():
    event = build_event(players=0, teams=2, public=True, slug="admin-renames")
    tournament = event.create_tournament(
        name="Pairs",
        game="45",
        format="swiss",
        round_count=1,
        entrant_kind="team",
        table_size=2,
        entrants=[{"team": team.pk} for team in event.teams],
    )
    drawn = event.draw(tournament["id"])
    event.pages = [
        f"/clubs/admin-renames/tournaments/{tournament['id']}/",
        f"/clubs/admin-renames/games/{drawn['matches'][0]['games'][0]['id']}/",
    ]
    return event


def _team_data(team: Team, name: str, player_ids: list[int]) -> dict:
    members = list(team.team_members.order_by("position"))
    data = {
        "club": team.club_id,
        "name": name,
        "is_active": "on",
        "team_members-TOTAL_FORMS": str(len(members)),
        "team_members-INITIAL_FORMS": str(len(members)),
        "team_members-MIN_NUM_FORMS": "2",
        "team_members-MAX_NUM_FORMS": "3",
    }
    for index, (member, player_id) in enumerate(zip(members, player_ids, strict=True)):
        data[f"team_members-{index}-id"] = member.pk
        data[f"team_members-{index}-team"] = team.pk
        data[f"team_members-{index}-player"] = player_id
        data[f"team_members-{index}-position"] = member.position
    return data


def _rename(staff, event, what: str) -> str:
    """Post the admin's change form renaming ``what``; the new name."""
    team = Team.objects.get(pk=event.teams[0].pk)
    if what == "player":
        player = team.ordered_members()[0]
        response = staff.post(
            reverse("admin:clubs_player_change", args=[player.pk]),
            {
                "club": player.club_id,
                "display_name": "Úna Renamed",
                "user": "",
                "is_active": "on",
            },
        )
        new_name = "Úna Renamed"
    elif what == "team":
        ids = [player.pk for player in team.ordered_members()]
        response = staff.post(
            reverse("admin:clubs_team_change", args=[team.pk]),
            _team_data(team, "The Renamed Pair", ids),
        )
        new_name = "The Renamed Pair"
    else:
        club = event.club
        response = staff.post(
            reverse("admin:clubs_club_change", args=[club.pk]),
            {
                "name": "The Renamed Club",
                "slug": club.slug,
                "currency": club.currency,
                "time_zone": club.time_zone,
                "default_game": club.default_game,
                "default_house_rules": "{}",
                "memberships-TOTAL_FORMS": "0",
                "memberships-INITIAL_FORMS": "0",
                "memberships-MIN_NUM_FORMS": "0",
                "memberships-MAX_NUM_FORMS": "1000",
            },
        )
        new_name = "The Renamed Club"
    assert response.status_code == 302, (
        response.context["adminform"].form.errors if response.context else response
    )
    return new_name


@pytest.mark.parametrize("what", ["player", "team", "club"])
def test_an_admin_rename_changes_the_names_version_and_the_live_pages_tags(staff, event, what):
    reader = logged_in_client(event.world.users["player"])
    tags = {url: reader.get(url)["ETag"] for url in event.pages}
    version = Club.objects.get(pk=event.club.pk).names_version

    new_name = _rename(staff, event, what)

    assert Club.objects.get(pk=event.club.pk).names_version == version + 1
    for url in event.pages:
        response = reader.get(url, headers={"if-none-match": tags[url]})
        assert response.status_code == 200, url
        assert response["ETag"] != tags[url]
        assert new_name in response.content.decode(), url


def test_an_admin_change_of_a_team_s_members_changes_the_names_version(staff, event):
    team = Team.objects.get(pk=event.teams[0].pk)
    other = event.teams[1].ordered_members()[0]  # not entered twice: the pages show members only
    version = Club.objects.get(pk=event.club.pk).names_version
    ids = [player.pk for player in team.ordered_members()]

    response = staff.post(
        reverse("admin:clubs_team_change", args=[team.pk]),
        _team_data(team, team.name, [ids[0], other.pk]),
    )

    assert response.status_code == 302
    assert Club.objects.get(pk=event.club.pk).names_version == version + 1


def test_an_admin_save_that_changes_no_name_keeps_the_names_version(staff, event):
    player = Team.objects.get(pk=event.teams[0].pk).ordered_members()[0]
    version = Club.objects.get(pk=event.club.pk).names_version

    response = staff.post(
        reverse("admin:clubs_player_change", args=[player.pk]),
        {
            "club": player.club_id,
            "display_name": player.display_name,
            "user": "",
            "is_active": "",
        },
    )

    assert response.status_code == 302
    assert Club.objects.get(pk=event.club.pk).names_version == version
