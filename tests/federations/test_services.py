"""The federations' services: membership by invitation and acceptance, links, merges, audit.

What it checks: a club joins only by invitation then acceptance, leaves, and re-joins as a new
row; links by an organiser, by an invitation the club accepts, and by the same account at two
member clubs; every link, unlink, merge and un-merge audited; an un-merge restores the links the
merge moved, and is refused when one moved since; each refusal has its code and stores nothing.
"""

from __future__ import annotations

import pytest

from config.problems import Problem
from federations import services
from federations.levy import parse_rate
from federations.models import (
    FederationAuditEntry,
    FederationMembership,
    FederationPlayer,
    PlayerLink,
    PlayerLinkInvitation,
)
from tests.clubs.factories import make_club, make_player, make_user
from tests.federations.factories import (
    make_federation,
    make_federation_player,
    make_link,
    make_member,
)

pytestmark = pytest.mark.django_db


def snapshot() -> dict:
    return {
        model.__name__: sorted(model.objects.values_list("pk", flat=True))
        for model in (
            FederationMembership,
            FederationPlayer,
            PlayerLink,
            PlayerLinkInvitation,
            FederationAuditEntry,
        )
    } | {
        "links": sorted(PlayerLink.objects.values_list("pk", "federation_player_id", "unlinked_at"))
    }


def refused(code: str, call, **kwargs) -> None:
    before = snapshot()
    with pytest.raises(Problem) as problem:
        call(**kwargs)
    assert problem.value.code == code
    assert snapshot() == before


def kinds(federation) -> list[str]:
    return list(federation.audit_entries.order_by("pk").values_list("kind", flat=True))


def test_a_club_joins_by_invitation_and_acceptance_leaves_and_rejoins():
    secretary, club_organiser = make_user("secretary"), make_user("club-organiser")
    federation = services.create_federation(
        user=secretary, name="Kilkenny County Board", slug="kk", currency="EUR", levy_rate_minor=50
    )
    club = make_club()
    refused(
        "not_invited",
        services.accept_invitation,
        federation=federation,
        user=club_organiser,
        club=club,
    )
    services.invite_club(federation=federation, user=secretary, club=club)
    refused(
        "already_member", services.invite_club, federation=federation, user=secretary, club=club
    )
    refused(
        "not_a_member",
        services.leave_federation,
        federation=federation,
        user=club_organiser,
        club=club,
    )
    membership = services.accept_invitation(federation=federation, user=club_organiser, club=club)
    assert (membership.state, membership.accepted_by) == ("member", club_organiser)
    services.leave_federation(federation=federation, user=club_organiser, club=club)
    services.invite_club(federation=federation, user=secretary, club=club)
    services.decline_invitation(federation=federation, user=club_organiser, club=club)
    services.invite_club(federation=federation, user=secretary, club=club)
    services.withdraw_invitation(federation=federation, user=secretary, club=club)
    assert [m.state for m in FederationMembership.objects.order_by("pk")] == ["ended"] * 3
    assert kinds(federation) == [
        "federation_created",
        "club_invited",
        "club_accepted",
        "club_left",
        "club_invited",
        "club_declined",
        "club_invited",
        "invitation_withdrawn",
    ]


@pytest.fixture
def two_clubs():
    secretary = make_user("secretary")
    federation = make_federation(organiser=secretary)
    north, south = make_club("north"), make_club("south")
    make_member(federation, north)
    make_member(federation, south)
    return federation, secretary, north, south


def test_link_unlink_and_refusals(two_clubs):
    federation, secretary, north, south = two_clubs
    mary_north, mary_south = make_player(north, "Mary"), make_player(south, "Mary B")
    mary = services.create_player(federation=federation, user=secretary, display_name="Mary Byrne")
    link = services.link_player(
        federation=federation, user=secretary, federation_player=mary, player=mary_north
    )
    assert link.how == "organiser"
    refused(
        "player_already_linked",
        services.link_player,
        federation=federation,
        user=secretary,
        federation_player=mary,
        player=mary_north,
    )
    outsider_club = make_club("elsewhere")
    refused(
        "not_a_member",
        services.link_player,
        federation=federation,
        user=secretary,
        federation_player=mary,
        player=make_player(outsider_club, "Mary"),
    )
    invitation = services.invite_link(
        federation=federation, user=secretary, federation_player=mary, player=mary_south
    )
    second = services.accept_link_invitation(
        invitation=invitation, user=make_user("south-organiser")
    )
    assert second.how == "invitation" and not PlayerLinkInvitation.objects.exists()
    services.unlink_player(link=link, user=secretary)
    refused("not_linked", services.unlink_player, link=link, user=secretary)
    assert list(PlayerLink.objects.current().values_list("player_id", flat=True)) == [mary_south.pk]
    entry = federation.audit_entries.filter(kind="unlinked").get()
    assert entry.details == {
        "link": link.pk,
        "player": mary_north.pk,
        "federation_player": mary.pk,
        "how": "organiser",
    }


def test_merge_moves_the_links_and_unmerge_restores_them(two_clubs):
    federation, secretary, north, south = two_clubs
    a, b = make_player(north, "Sean"), make_player(south, "Seán")
    sean = make_federation_player(federation, "Sean Walsh")
    sean_too = make_federation_player(federation, "Seán Walsh")
    link_a, link_b = make_link(sean, a), make_link(sean_too, b)
    refused(
        "same_player",
        services.merge_players,
        federation=federation,
        user=secretary,
        source=sean,
        target=sean,
    )
    entry = services.merge_players(
        federation=federation, user=secretary, source=sean_too, target=sean
    )
    assert entry.details == {
        "source": sean_too.pk,
        "target": sean.pk,
        "links": [link_b.pk],
        "invitations": [],
    }
    assert set(PlayerLink.objects.current().values_list("federation_player_id", flat=True)) == {
        sean.pk
    }
    sean_too.refresh_from_db()
    assert sean_too.merged_into == sean
    assert list(FederationPlayer.objects.active().values_list("pk", flat=True)) == [sean.pk]
    refused(
        "player_merged",
        services.link_player,
        federation=federation,
        user=secretary,
        federation_player=sean_too,
        player=make_player(north, "Other"),
    )
    restored = services.unmerge(entry=entry, user=secretary)
    assert restored.merged_into is None
    assert PlayerLink.objects.get(pk=link_b.pk).federation_player_id == sean_too.pk
    assert PlayerLink.objects.get(pk=link_a.pk).federation_player_id == sean.pk
    refused("not_merged", services.unmerge, entry=entry, user=secretary)
    # Merged again, then a moved link is unlinked: the un-merge cannot restore it.
    again = services.merge_players(
        federation=federation, user=secretary, source=sean_too, target=sean
    )
    services.unlink_player(link=PlayerLink.objects.get(pk=link_b.pk), user=secretary)
    refused("merge_changed", services.unmerge, entry=again, user=secretary)
    assert kinds(federation)[-4:] == ["merged", "unmerged", "merged", "unlinked"]


def test_the_same_account_at_two_member_clubs_is_linked_automatically(two_clubs):
    federation, secretary, north, south = two_clubs
    nora = make_user("nora")
    at_north = make_player(north, "Nora", user=nora)
    assert not PlayerLink.objects.exists()  # one club only: nothing to match
    at_south = make_player(south, "Nora K")
    at_south.user = nora
    at_south.save()  # the "this is me" link made at the second club
    links = PlayerLink.objects.current().order_by("player_id")
    assert [(link.player_id, link.how) for link in links] == [
        (at_north.pk, "same_account"),
        (at_south.pk, "same_account"),
    ]
    assert links[0].federation_player_id == links[1].federation_player_id
    # A third member club joining links its player of that account to the same person.
    east = make_club("east")
    at_east = make_player(east, "N. Kelly", user=nora)
    services.invite_club(federation=federation, user=secretary, club=east)
    services.accept_invitation(federation=federation, user=make_user("east-organiser"), club=east)
    assert (
        PlayerLink.objects.current().get(player=at_east).federation_player_id
        == links[0].federation_player_id
    )


def test_public_choices_are_stored_and_audited(two_clubs):
    federation, secretary, north, south = two_clubs
    player = make_federation_player(federation, "Mary Byrne")
    services.set_public_choices(
        federation_player=player, user=secretary, name_shown="initials", ranking_shown=False
    )
    player.refresh_from_db()
    assert (player.public_name, player.ranking_shown) == ("M. B.", False)
    assert federation.audit_entries.get(kind="privacy_changed").details == {
        "federation_player": player.pk,
        "name_shown": "initials",
        "ranking_shown": False,
    }


def test_a_taken_slug_or_name_is_refused():
    user = make_user("secretary")
    services.create_federation(user=user, name="Ulster Board", slug="ulster", currency="GBP")
    refused(
        "unique", services.create_federation, user=user, name="Other", slug="ulster", currency="GBP"
    )
    refused(
        "unique",
        services.create_federation,
        user=user,
        name="ulster board",
        slug="u2",
        currency="GBP",
    )
    with pytest.raises(Problem) as problem:
        parse_rate("0.505", "EUR")
    assert problem.value.code == "invalid_amount"
    assert parse_rate("0.50", "EUR") == 50
