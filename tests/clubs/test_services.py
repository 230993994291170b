"""clubs.services: each write and each refusal (exact code and pointer, nothing stored)."""

from __future__ import annotations

import pytest
from django.db.models.deletion import ProtectedError

from clubs import services
from clubs.models import Club, Membership, Player, Role, Team, TeamMember
from config.problems import Problem
from tests.clubs.factories import (
    clubs_snapshot,
    make_club,
    make_membership,
    make_player,
    make_team,
    make_user,
)

pytestmark = pytest.mark.django_db

CLUB_FIELDS = {"name": "The Local", "currency": "EUR", "time_zone": "Europe/Dublin"}


def _errors(problem: Problem) -> list[tuple[str, str]]:
    return [(error["code"], error["pointer"]) for error in problem.errors]


# Clubs ------------------------------------------------------------------------------------------


def test_create_club_makes_the_creator_its_organiser():
    user = make_user("founder")
    club = services.create_club(
        user=user,
        slug="the-local",
        default_game="45",
        default_house_rules={"renege_privilege": ["J", "5"]},
        public_standings=True,
        **CLUB_FIELDS,
    )
    club.refresh_from_db()
    assert (club.slug, club.default_game, club.public_standings) == ("the-local", "45", True)
    assert club.default_house_rules == {"renege_privilege": ["5", "J"]}
    assert list(Membership.objects.values_list("club__slug", "user__username", "role")) == [
        ("the-local", "founder", "organiser")
    ]


def test_create_club_refuses_a_taken_slug():
    user = make_user("founder")
    services.create_club(user=user, slug="the-local", **CLUB_FIELDS)
    before = clubs_snapshot()
    with pytest.raises(Problem) as caught:
        services.create_club(user=user, slug="the-local", **CLUB_FIELDS)
    assert (caught.value.status_code, _errors(caught.value)) == (400, [("unique", "/slug")])
    assert clubs_snapshot() == before


def test_a_duplicate_slug_that_slips_past_the_check_is_still_a_400(monkeypatch):
    user = make_user("founder")
    services.create_club(user=user, slug="the-local", **CLUB_FIELDS)
    before = clubs_snapshot()
    # As if a concurrent request had created it between the check and the insert.
    monkeypatch.setattr(services, "_check_slug_free", lambda slug, exclude=None: None)
    with pytest.raises(Problem) as caught:
        services.create_club(user=user, slug="the-local", **CLUB_FIELDS)
    assert _errors(caught.value) == [("unique", "/slug")]
    assert clubs_snapshot() == before


def test_create_club_refuses_bad_house_rules_with_one_error_per_key():
    with pytest.raises(Problem) as caught:
        services.create_club(
            user=make_user("founder"),
            slug="the-local",
            default_house_rules={"target": -5, "kitty": 5, "colour": "red"},
            **CLUB_FIELDS,
        )
    assert caught.value.status_code == 400
    assert sorted(_errors(caught.value)) == [
        ("invalid_house_rule", "/default_house_rules/colour"),
        ("invalid_house_rule", "/default_house_rules/kitty"),
        ("invalid_house_rule", "/default_house_rules/target"),
    ]
    assert Club.objects.count() == 0
    assert Membership.objects.count() == 0


def test_update_club_rechecks_the_overrides_against_a_new_game():
    club = make_club(default_game="25", default_house_rules={"dealer_robs_ace": "must"})
    with pytest.raises(Problem) as caught:
        services.update_club(club=club, default_game="110")
    assert _errors(caught.value) == [("invalid_house_rule", "/default_house_rules/dealer_robs_ace")]
    club.refresh_from_db()
    assert club.default_game == "25"
    services.update_club(club=club, default_game="110", default_house_rules={"kitty": 4})
    club.refresh_from_db()
    assert (club.default_game, club.default_house_rules) == ("110", {"kitty": 4})


def test_update_club_refuses_another_clubs_slug_but_keeps_its_own():
    club = make_club("one")
    make_club("two")
    services.update_club(club=club, slug="one", name="Renamed")
    with pytest.raises(Problem) as caught:
        services.update_club(club=club, slug="two")
    assert _errors(caught.value) == [("unique", "/slug")]
    club.refresh_from_db()
    assert (club.slug, club.name) == ("one", "Renamed")


def test_update_club_refuses_fields_it_does_not_know():
    with pytest.raises(TypeError):
        services.update_club(club=make_club(), created_at=None)


def test_delete_club_removes_its_books():
    club = make_club()
    make_membership(club, make_user("someone"), Role.ORGANISER)
    make_team(club, "Pair", [make_player(club, "A"), make_player(club, "B")])
    services.delete_club(club=club)
    assert clubs_snapshot() == ([], [], [], [], [])


def test_delete_club_with_protected_records_is_a_conflict(monkeypatch):
    club = make_club()
    make_player(club, "A")
    before = clubs_snapshot()

    def protected(self, *args, **kwargs):
        # What Django raises when games or tournaments (PROTECT) refer to the club.
        raise ProtectedError("referenced", set())

    monkeypatch.setattr(Club, "delete", protected)
    with pytest.raises(Problem) as caught:
        services.delete_club(club=club)
    assert (caught.value.status_code, _errors(caught.value)) == (409, [("club_has_records", "")])
    assert clubs_snapshot() == before


# Memberships ------------------------------------------------------------------------------------


def test_add_membership_by_username():
    club = make_club()
    make_user("mary")
    membership = services.add_membership(club=club, username="mary", role="scorekeeper")
    assert (membership.user.username, membership.role) == ("mary", "scorekeeper")


def test_add_membership_refuses_an_unknown_user_and_a_second_role():
    club = make_club()
    make_membership(club, make_user("mary"), Role.PLAYER)
    before = clubs_snapshot()
    with pytest.raises(Problem) as caught:
        services.add_membership(club=club, username="nobody", role="player")
    assert _errors(caught.value) == [("unknown_user", "/username")]
    with pytest.raises(Problem) as caught:
        services.add_membership(club=club, username="mary", role="organiser")
    assert _errors(caught.value) == [("unique", "/username")]
    assert clubs_snapshot() == before


def test_the_last_organiser_can_be_neither_demoted_nor_removed():
    club = make_club()
    only = make_membership(club, make_user("boss"), Role.ORGANISER)
    with pytest.raises(Problem) as caught:
        services.change_membership_role(membership=only, role="player")
    assert (caught.value.status_code, _errors(caught.value)) == (409, [("last_organiser", "/role")])
    with pytest.raises(Problem) as caught:
        services.remove_membership(membership=only)
    assert (caught.value.status_code, _errors(caught.value)) == (409, [("last_organiser", "")])
    only.refresh_from_db()
    assert only.role == "organiser"


def test_an_organiser_may_step_down_when_another_remains():
    club = make_club()
    first = make_membership(club, make_user("first"), Role.ORGANISER)
    make_membership(club, make_user("second"), Role.ORGANISER)
    services.change_membership_role(membership=first, role="scorekeeper")
    first.refresh_from_db()
    assert first.role == "scorekeeper"
    services.remove_membership(membership=first)
    assert list(Membership.objects.values_list("user__username", flat=True)) == ["second"]


# Players ----------------------------------------------------------------------------------------


def test_add_player_strips_the_name_and_links_an_account():
    club = make_club()
    make_user("mary")
    player = services.add_player(club=club, display_name="  Mary Byrne ", username="mary")
    player.refresh_from_db()
    assert (player.display_name, player.user.username, player.is_active) == (
        "Mary Byrne",
        "mary",
        True,
    )


def test_add_player_refuses_a_name_taken_in_any_case_and_a_linked_account():
    club = make_club()
    make_player(club, "Mary Byrne", user=make_user("mary"))
    before = clubs_snapshot()
    with pytest.raises(Problem) as caught:
        services.add_player(club=club, display_name="mary BYRNE")
    assert _errors(caught.value) == [("unique", "/display_name")]
    with pytest.raises(Problem) as caught:
        services.add_player(club=club, display_name="Another Mary", username="mary")
    assert _errors(caught.value) == [("unique", "/username")]
    with pytest.raises(Problem) as caught:
        services.add_player(club=club, display_name="Ghost", username="ghost")
    assert _errors(caught.value) == [("unknown_user", "/username")]
    assert clubs_snapshot() == before


def test_update_player_may_keep_its_own_name_and_unlink():
    club = make_club()
    player = make_player(club, "Mary", user=make_user("mary"))
    services.update_player(player=player, display_name="MARY", username=None, is_active=False)
    player.refresh_from_db()
    assert (player.display_name, player.user, player.is_active) == ("MARY", None, False)


def test_delete_player_deletes_an_unreferenced_player():
    club = make_club()
    player = make_player(club, "Loner")
    assert services.delete_player(player=player) is True
    assert Player.objects.count() == 0


def test_delete_player_deactivates_a_team_member_instead():
    club = make_club()
    players = [make_player(club, "A"), make_player(club, "B")]
    team = make_team(club, "Pair", players)
    assert services.delete_player(player=players[0]) is False
    players[0].refresh_from_db()
    assert players[0].is_active is False
    assert [player.pk for player in team.ordered_members()] == [players[0].pk, players[1].pk]


# Teams ------------------------------------------------------------------------------------------


def test_create_team_keeps_the_members_in_the_order_given():
    club = make_club()
    players = [make_player(club, name) for name in ("A", "B", "C")]
    team = services.create_team(
        club=club, name=" Trio ", member_ids=[players[2].pk, players[0].pk, players[1].pk]
    )
    assert team.name == "Trio"
    assert list(
        TeamMember.objects.filter(team=team).values_list("player__display_name", "position")
    ) == [("C", 0), ("A", 1), ("B", 2)]


def test_create_team_reports_every_bad_member_with_its_index():
    club = make_club()
    players = [make_player(club, "A"), make_player(club, "B", is_active=False)]
    stranger = make_player(make_club("elsewhere"), "Stranger")
    before = clubs_snapshot()
    with pytest.raises(Problem) as caught:
        services.create_team(
            club=club, name="Bad", member_ids=[players[0].pk, stranger.pk, players[1].pk]
        )
    assert _errors(caught.value) == [
        ("unknown_player", "/members/1"),
        ("inactive_player", "/members/2"),
    ]
    with pytest.raises(Problem) as caught:
        services.create_team(club=club, name="Twice", member_ids=[players[0].pk, players[0].pk])
    assert _errors(caught.value) == [("duplicate_player", "/members/1")]
    with pytest.raises(Problem) as caught:
        services.create_team(club=club, name="Crowd", member_ids=[1, 2, 3, 4])
    assert _errors(caught.value) == [("team_size", "/members")]
    assert clubs_snapshot() == before


def test_create_team_refuses_a_taken_name():
    club = make_club()
    players = [make_player(club, name) for name in "ABCD"]
    make_team(club, "Knaves", players[:2])
    before = clubs_snapshot()
    with pytest.raises(Problem) as caught:
        services.create_team(club=club, name="KNAVES", member_ids=[p.pk for p in players[2:]])
    assert _errors(caught.value) == [("unique", "/name")]
    assert clubs_snapshot() == before


def test_update_team_replaces_the_members():
    club = make_club()
    players = [make_player(club, name) for name in "ABCD"]
    team = make_team(club, "Pair", players[:2])
    services.update_team(team=team, member_ids=[players[3].pk, players[0].pk, players[2].pk])
    assert list(
        TeamMember.objects.filter(team=team).values_list("player__display_name", flat=True)
    ) == ["D", "A", "C"]


def test_update_team_refused_changes_nothing():
    club = make_club()
    players = [make_player(club, name) for name in "ABC"]
    team = make_team(club, "Pair", players[:2])
    before = clubs_snapshot()
    with pytest.raises(Problem) as caught:
        services.update_team(team=team, name="Renamed", member_ids=[players[2].pk, players[2].pk])
    assert _errors(caught.value) == [("duplicate_player", "/members/1")]
    assert clubs_snapshot() == before


def test_delete_team_deactivates_a_team_that_records_refer_to(monkeypatch):
    club = make_club()
    team = make_team(club, "Pair", [make_player(club, "A"), make_player(club, "B")])

    def protected(self, *args, **kwargs):
        raise ProtectedError("referenced by a game side", set())

    monkeypatch.setattr(Team, "delete", protected)
    assert services.delete_team(team=team) is False
    team.refresh_from_db()
    assert team.is_active is False
    assert TeamMember.objects.filter(team=team).count() == 2


def test_delete_team():
    club = make_club()
    team = make_team(club, "Pair", [make_player(club, "A"), make_player(club, "B")])
    assert services.delete_team(team=team) is True
    assert (Team.objects.count(), TeamMember.objects.count(), Player.objects.count()) == (0, 0, 2)
