"""Who may read and manage one tournament (``/api/tournaments/{id}/…``).

What it does: ``TournamentPermission`` reads the tournament from the view's ``get_tournament()``
and applies the policy: readers of the tournament (``selectors.can_read_tournament``: anybody for
a public tournament, members of its club otherwise) read; organisers of its club write; anonymous
writes are 401; a tournament the user may not read is a 404, so its existence is not revealed;
a reader without the organiser role gets 403 on a write.

``TournamentMemberReadPermission`` guards a tournament's money (its settlement) as
``games.api.permissions.ClubMemberReadPermission`` guards the club's: a tournament the user may
not read is a 404; its other readers who are not members of the club get 401 (anonymous) or 403.

What it does not do: cover club-scoped collections (``/api/clubs/{slug}/tournaments/`` uses
``clubs.permissions.ClubManagePermission``) or results (scorekeepers record hands through games).
"""

from __future__ import annotations

from rest_framework.exceptions import NotFound
from rest_framework.permissions import SAFE_METHODS, BasePermission

from clubs.permissions import can_manage, require_second_factor, role_in
from tournaments.selectors import can_read_tournament


class TournamentPermission(BasePermission):
    anonymous_may_read = True  # a public tournament (config.schema)

    def has_permission(self, request, view) -> bool:
        tournament = view.get_tournament()
        user = request.user
        if not can_read_tournament(user, tournament):
            if request.method not in SAFE_METHODS and not user.is_authenticated:
                return False  # 401 rather than 404 for anonymous writes
            raise NotFound()
        if request.method in SAFE_METHODS:
            return True
        if not (user.is_authenticated and can_manage(user, tournament.club)):
            return False
        require_second_factor(user, tournament.club)
        return True


class TournamentMemberReadPermission(BasePermission):
    def has_permission(self, request, view) -> bool:
        tournament = view.get_tournament()
        if not can_read_tournament(request.user, tournament):
            raise NotFound()
        # Members pass whatever the method: the view's methods decide (405 for a write).
        return role_in(request.user, tournament.club) is not None
