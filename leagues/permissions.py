"""Who may run a league, and who may enter or answer a fixture's result.

What it does: ``is_captain(user, team)`` (the account is the ``user`` of the team's captain, a
player of the team's club), ``captained_sides(user, fixture)`` (which of the fixture's teams the
user captains), ``may_manage_team(user, team)`` (the team's captain or the federation's
organisers change its players), and the DRF permission classes the leagues API picks from:

- ``LeagueReadPermission``: anyone reads (a league's table and fixtures are public); writes need
  a signed-in organiser of the league's federation (``federations.permissions.is_organiser``:
  one federation's organisers are nobody in another).
- ``FixtureCaptainPermission``: the captain of either team of the fixture in the URL; nobody
  else, the federation's organisers and the clubs' organisers included (the captains enter and
  answer a result; the organisers postpone, give walkovers and penalties).

- ``TeamManagerPermission``: anyone reads; a team's players are changed by its captain or the
  federation's organisers (``may_manage_team``).

Anonymous writes are 401, a signed-in user without the role 403.

What it does not do: give a club's organisers anything on a federation's records (a club
organiser who is not a captain is refused like any outsider), or check which captain answers
(``leagues.services``: the other team's captain accepts or disputes).
"""

from __future__ import annotations

from rest_framework.permissions import SAFE_METHODS, BasePermission

from federations.permissions import is_organiser


def is_captain(user, team) -> bool:
    if user is None or not user.is_authenticated:
        return False
    return team.captain.user_id == user.pk


def captained_sides(user, fixture) -> list:
    """The fixture's teams (home first) whose captain is ``user``."""
    return [team for team in (fixture.home, fixture.away) if is_captain(user, team)]


def may_manage_team(user, team) -> bool:
    """The team's captain or an organiser of the league's federation: they add and remove the
    team's players."""
    if user is None or not user.is_authenticated:
        return False
    return is_captain(user, team) or is_organiser(user, team.league.federation)


class LeagueReadPermission(BasePermission):
    anonymous_may_read = True

    def has_permission(self, request, view) -> bool:
        if request.method in SAFE_METHODS:
            return True
        return request.user.is_authenticated and is_organiser(request.user, view.get_federation())


class FixtureCaptainPermission(BasePermission):
    anonymous_may_read = False

    def has_permission(self, request, view) -> bool:
        if not request.user.is_authenticated:
            return False
        return bool(captained_sides(request.user, view.get_fixture()))


class TeamManagerPermission(BasePermission):
    anonymous_may_read = True

    def has_permission(self, request, view) -> bool:
        if request.method in SAFE_METHODS:
            return True
        return may_manage_team(request.user, view.get_team())
