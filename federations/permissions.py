"""Who may run a federation, answer for a club, or set a player's public choices.

What it does: ``is_organiser(user, federation)`` (a ``FederationRole`` of that federation: one
federation's organisers are nobody in another), ``is_the_player(user, federation_player)`` (the
account is the ``user`` of a club player currently linked to that federation player: the "this is
me" link of ``clubs.invitations``), and the DRF permission classes the federation API picks from:

- ``FederationReadPermission``: anyone reads (a federation's name and member clubs are public);
  writes need a signed-in organiser of this federation.
- ``FederationOrganiserPermission``: the federation's organisers, reads included.
- ``ClubAnswerPermission``: the organisers of the club in the URL (``clubs.permissions.
  can_manage``); a club the user may not read is a 404, as everywhere.
- ``PlayerChoicesPermission``: reads by the federation's organisers or the player; writes by the
  player only (an organiser never sets a player's public choices).
- ``EventReadPermission``: a federation event is read by the federation's organisers and by the
  organisers of its member clubs (who nominate for it); written by the federation's organisers.

Anonymous writes are 401, a signed-in user without the role gets 403.

What it does not do: give a federation's organisers anything on a club's own routes. Those keep
``clubs.permissions``, which knows nothing of federations: a federation organiser who is not also
an organiser of the club is refused there like any outsider (tests/federations/
test_permission_matrix_federations.py proves it).
"""

from __future__ import annotations

from rest_framework.exceptions import NotFound
from rest_framework.permissions import SAFE_METHODS, BasePermission

from clubs.models import Club, Role
from clubs.permissions import can_manage, can_read_club
from federations.models import FederationPlayer, FederationRole, PlayerLink


def is_organiser(user, federation) -> bool:
    if user is None or not user.is_authenticated:
        return False
    cache = federation.__dict__.setdefault("_organiser_ids", {})
    if user.pk not in cache:
        cache[user.pk] = FederationRole.objects.filter(federation=federation, user=user).exists()
    return cache[user.pk]


def organises_a_member_club(user, federation) -> bool:
    """The user is an organiser of a club that is a member of ``federation`` now."""
    if user is None or not user.is_authenticated:
        return False
    return Club.objects.filter(
        memberships__user=user,
        memberships__role=Role.ORGANISER,
        federation_memberships__federation=federation,
        federation_memberships__accepted_at__isnull=False,
        federation_memberships__left_at__isnull=True,
    ).exists()


def is_the_player(user, federation_player: FederationPlayer) -> bool:
    if user is None or not user.is_authenticated:
        return False
    return (
        PlayerLink.objects.current()
        .filter(federation_player=federation_player, player__user=user)
        .exists()
    )


class FederationReadPermission(BasePermission):
    anonymous_may_read = True

    def has_permission(self, request, view) -> bool:
        if request.method in SAFE_METHODS:
            return True
        return request.user.is_authenticated and is_organiser(request.user, view.get_federation())


class FederationOrganiserPermission(BasePermission):
    anonymous_may_read = False

    def has_permission(self, request, view) -> bool:
        return request.user.is_authenticated and is_organiser(request.user, view.get_federation())


class ClubAnswerPermission(BasePermission):
    anonymous_may_read = False

    def has_permission(self, request, view) -> bool:
        if not request.user.is_authenticated:
            return False
        club = view.get_club()
        if not can_read_club(request.user, club):
            raise NotFound()
        return can_manage(request.user, club)


class PlayerChoicesPermission(BasePermission):
    anonymous_may_read = False

    def has_permission(self, request, view) -> bool:
        if not request.user.is_authenticated:
            return False
        player = view.get_federation_player()
        if is_the_player(request.user, player):
            return True
        return request.method in SAFE_METHODS and is_organiser(request.user, view.get_federation())


class EventReadPermission(BasePermission):
    anonymous_may_read = False

    def has_permission(self, request, view) -> bool:
        if not request.user.is_authenticated:
            return False
        federation = view.get_federation()
        if is_organiser(request.user, federation):
            return True
        return request.method in SAFE_METHODS and organises_a_member_club(request.user, federation)
