"""clubs.permissions: the role helpers and the DRF permission classes, role by role."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import AnonymousUser
from rest_framework.exceptions import NotFound
from rest_framework.request import Request
from rest_framework.test import APIRequestFactory

from clubs.models import Membership, Role
from clubs.permissions import (
    AuthenticatedWritePermission,
    ClubManagePermission,
    ClubOrganiserOnlyPermission,
    ClubReadPermission,
    ClubScorePermission,
    can_manage,
    can_read_club,
    can_score,
    remember_role,
    role_in,
)
from tests.clubs.factories import ROLE_NAMES, build_world, make_player

pytestmark = pytest.mark.django_db


def _user(world, role_name):
    return world.users[role_name] or AnonymousUser()


# role name -> (role_in, can_read private, can_score, can_manage)
HELPER_ANSWERS = {
    "anonymous": (None, False, False, False),
    "outsider": (None, False, False, False),
    "player": ("player", True, False, False),
    "scorekeeper": ("scorekeeper", True, True, False),
    "organiser": ("organiser", True, True, True),
}


@pytest.mark.parametrize("role_name", ROLE_NAMES)
def test_helpers_on_a_private_club(role_name):
    world = build_world()
    user = _user(world, role_name)
    role, reads, scores, manages = HELPER_ANSWERS[role_name]
    assert role_in(user, world.club) == role
    assert can_read_club(user, world.club) is reads
    assert can_score(user, world.club) is scores
    assert can_manage(user, world.club) is manages


@pytest.mark.parametrize("role_name", ROLE_NAMES)
def test_everybody_reads_a_public_club_but_roles_still_decide_writes(role_name):
    world = build_world(public=True)
    user = _user(world, role_name)
    _, _, scores, manages = HELPER_ANSWERS[role_name]
    assert can_read_club(user, world.club) is True
    assert can_score(user, world.club) is scores
    assert can_manage(user, world.club) is manages


def test_a_role_in_one_club_gives_nothing_in_another():
    world = build_world()
    other = build_world(slug="elsewhere")
    organiser = world.users["organiser"]
    assert role_in(organiser, other.club) is None
    assert can_read_club(organiser, other.club) is False


def test_role_in_asks_the_database_once_per_club_instance(django_assert_num_queries):
    world = build_world()
    user = world.users["scorekeeper"]
    with django_assert_num_queries(1):
        assert role_in(user, world.club) == "scorekeeper"
        assert can_score(user, world.club) is True
        assert can_manage(user, world.club) is False


def test_remember_role_primes_the_cache(django_assert_num_queries):
    world = build_world()
    user = world.users["player"]
    remember_role(world.club, user, "player")
    with django_assert_num_queries(0):
        assert can_read_club(user, world.club) is True


def test_a_fresh_club_instance_sees_a_changed_role():
    world = build_world()
    user = world.users["player"]
    assert can_manage(user, world.club) is False
    Membership.objects.filter(club=world.club, user=user).update(role=Role.ORGANISER)
    world.club.refresh_from_db()
    fresh = type(world.club).objects.get(pk=world.club.pk)
    assert can_manage(user, fresh) is True


class _ClubView:
    def __init__(self, club):
        self._club = club

    def get_club(self):
        return self._club


class _ObjectView:
    """A view that only knows its club through the object (``/api/games/{id}/``)."""


def _request(method, user):
    request = Request(getattr(APIRequestFactory(), method.lower())("/"))
    request.user = user or AnonymousUser()
    return request


NOT_FOUND = "404"
# (class, method) -> answers for anonymous, outsider, player, scorekeeper, organiser
# on a private club; True allowed, False refused (DRF: 401 anonymous, 403 otherwise).
CLASS_ANSWERS_PRIVATE = {
    (ClubReadPermission, "GET"): (NOT_FOUND, NOT_FOUND, True, True, True),
    (ClubReadPermission, "POST"): (False, NOT_FOUND, False, False, False),
    (ClubScorePermission, "GET"): (NOT_FOUND, NOT_FOUND, True, True, True),
    (ClubScorePermission, "POST"): (False, NOT_FOUND, False, True, True),
    (ClubManagePermission, "GET"): (NOT_FOUND, NOT_FOUND, True, True, True),
    (ClubManagePermission, "PATCH"): (False, NOT_FOUND, False, False, True),
    (ClubOrganiserOnlyPermission, "GET"): (NOT_FOUND, NOT_FOUND, False, False, True),
    (ClubOrganiserOnlyPermission, "DELETE"): (False, NOT_FOUND, False, False, True),
}
CLASS_ANSWERS_PUBLIC = {
    (ClubReadPermission, "GET"): (True, True, True, True, True),
    (ClubReadPermission, "POST"): (False, False, False, False, False),
    (ClubScorePermission, "POST"): (False, False, False, True, True),
    (ClubManagePermission, "PATCH"): (False, False, False, False, True),
    (ClubOrganiserOnlyPermission, "GET"): (False, False, False, False, True),
}


def _answer(permission, request, view, obj=None):
    try:
        if obj is None:
            return permission.has_permission(request, view)
        return permission.has_permission(request, view) and permission.has_object_permission(
            request, view, obj
        )
    except NotFound:
        return NOT_FOUND


@pytest.mark.parametrize(
    ("public", "permission_class", "method"),
    [(False, *key) for key in CLASS_ANSWERS_PRIVATE]
    + [(True, *key) for key in CLASS_ANSWERS_PUBLIC],
)
def test_permission_classes_from_the_view_club(public, permission_class, method):
    world = build_world(public=public)
    table = CLASS_ANSWERS_PUBLIC if public else CLASS_ANSWERS_PRIVATE
    expected = table[(permission_class, method)]
    answers = tuple(
        _answer(permission_class(), _request(method, world.users[name]), _ClubView(world.club))
        for name in ROLE_NAMES
    )
    assert answers == expected


@pytest.mark.parametrize(("permission_class", "method"), list(CLASS_ANSWERS_PRIVATE))
def test_permission_classes_from_the_object_club(permission_class, method):
    world = build_world()
    obj = make_player(world.club, "Somebody")  # anything with a .club
    expected = CLASS_ANSWERS_PRIVATE[(permission_class, method)]
    answers = tuple(
        _answer(permission_class(), _request(method, world.users[name]), _ObjectView(), obj)
        for name in ROLE_NAMES
    )
    assert answers == expected


def test_the_club_itself_is_its_own_club_at_object_level():
    world = build_world()
    permission = ClubManagePermission()
    request = _request("PATCH", world.users["organiser"])
    assert permission.has_object_permission(request, _ObjectView(), world.club) is True
    request = _request("PATCH", world.users["player"])
    assert permission.has_object_permission(request, _ObjectView(), world.club) is False


def test_authenticated_write_permission():
    world = build_world()
    permission = AuthenticatedWritePermission()
    assert permission.has_permission(_request("GET", None), None) is True
    assert permission.has_permission(_request("POST", None), None) is False
    assert permission.has_permission(_request("POST", world.users["outsider"]), None) is True
