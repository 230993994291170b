"""Reads of clubs, memberships, players and teams, in the shape the API and pages need.

What it does: builds the querysets (``select_related``/``prefetch_related``/annotations) so that a
list costs a fixed number of queries however long it is; the query counts of the list endpoints are
pinned in tests/clubs/test_api_queries.py. ``get_readable_club`` is the pages' one club check (a
club that does not exist and a club the user may not read are the same 404); the API's is its
permission classes (``clubs.permissions``), which decide on the club ``get_club`` fetched.

What it does not do: decide who may read what (``clubs.permissions`` does; ``get_readable_club``
asks it, and the club list is by definition "the clubs this user may read") or write anything
(``clubs.services``).

Terms: *viewer role* — the requesting user's role in a club, annotated as ``viewer_role`` (None for
anonymous users and non-members).
"""

from __future__ import annotations

from django.db.models import OuterRef, Prefetch, Q, QuerySet, Subquery, Value
from django.db.models.fields import CharField, IntegerField
from django.http import Http404

from clubs.models import Club, Membership, Player, Team, TeamMember
from clubs.permissions import can_read_club, remember_role


def _with_viewer_role(queryset: QuerySet[Club], user) -> QuerySet[Club]:
    if user is None or not user.is_authenticated:
        return queryset.annotate(viewer_role=Value(None, output_field=CharField()))
    role = Membership.objects.filter(club=OuterRef("pk"), user_id=user.pk).values("role")[:1]
    return queryset.annotate(viewer_role=Subquery(role))


def annotate_viewer(queryset: QuerySet, user, *, club: str = "club") -> QuerySet:
    """``queryset`` (of rows with a ``club``) with the reader's ``viewer_role`` and the club
    player linked to their account, ``viewer_player`` (both None for anonymous readers and
    non-members), read in the same query: what a page's one-query ``304`` needs."""
    if user is None or not user.is_authenticated:
        return queryset.annotate(
            viewer_role=Value(None, output_field=CharField()),
            viewer_player=Value(None, output_field=IntegerField()),
        )
    return queryset.annotate(
        viewer_role=Subquery(
            Membership.objects.filter(club=OuterRef(club), user_id=user.pk).values("role")[:1]
        ),
        viewer_player=Subquery(
            Player.objects.filter(club=OuterRef(club), user_id=user.pk).values("pk")[:1]
        ),
    )


def list_clubs(*, user) -> QuerySet[Club]:
    """Clubs the user may read: those they hold a role in, plus every public club."""
    queryset = _with_viewer_role(Club.objects.all(), user)
    if user is None or not user.is_authenticated:
        return queryset.filter(public_standings=True)
    return queryset.filter(Q(public_standings=True) | Q(viewer_role__isnull=False))


def get_club(*, slug: str, user=None) -> Club:
    """The club with this slug, its ``viewer_role`` annotated for ``user``; Http404 if none.

    Does not check that the user may read it: the permission classes do, so that the answer
    (404 for a club the user may not read) is decided in one place.
    """
    club = _with_viewer_role(Club.objects.filter(slug=slug), user).first()
    if club is None:
        raise Http404("No club with this slug.")
    remember_role(club, user, club.viewer_role)
    return club


def get_readable_club(*, slug: str, user) -> Club:
    """The club with this slug when ``user`` may read it (``clubs.permissions.can_read_club``),
    its ``viewer_role`` annotated; Http404 otherwise — a club that does not exist and a club the
    user may not read give the same 404, so nothing reveals that a private club exists. The
    pages' one club check (the API's is its permission classes)."""
    club = get_club(slug=slug, user=user)
    if not can_read_club(user, club):
        raise Http404("No club with this slug.")
    return club


def list_memberships(*, club: Club) -> QuerySet[Membership]:
    return Membership.objects.filter(club=club).select_related("user").order_by("id")


def get_membership(*, club: Club, membership_id: int) -> Membership:
    membership = list_memberships(club=club).filter(pk=membership_id).first()
    if membership is None:
        raise Http404("No membership with this id in this club.")
    membership.club = club  # saves a query when services read membership.club
    return membership


def list_players(*, club: Club) -> QuerySet[Player]:
    return Player.objects.filter(club=club).select_related("user").order_by("display_name", "id")


def get_player(*, club: Club, player_id: int) -> Player:
    player = list_players(club=club).filter(pk=player_id).first()
    if player is None:
        raise Http404("No player with this id in this club.")
    player.club = club
    return player


def list_teams(*, club: Club) -> QuerySet[Team]:
    members = TeamMember.objects.select_related("player").order_by("position")
    return (
        Team.objects.filter(club=club)
        .prefetch_related(Prefetch("team_members", queryset=members))
        .order_by("name", "id")
    )


def get_team(*, club: Club, team_id: int) -> Team:
    team = list_teams(club=club).filter(pk=team_id).first()
    if team is None:
        raise Http404("No team with this id in this club.")
    team.club = club
    return team
