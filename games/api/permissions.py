"""Two permission variants the games API needs on top of ``clubs.permissions``.

- ``ClubQuestionPermission``: a ``POST`` that only asks a question and writes nothing (legal
  plays) is checked as a read: whoever may read the club may ask it (a table link's grant is
  checked as for any game-scoped request, ``clubs.permissions.check_grant``).
- ``ClubMemberReadPermission``: money (a game's ledger, the club's balances) is shown to members of
  the club in any role only, even when the club's standings are public: a club the user may not
  read is a 404, a public club read by a non-member is 401 (anonymous) or 403, and a request
  through a table link is a 404 (money is never a table's business); it allows reads only.

What it does not do: decide roles (``clubs.permissions.role_in`` does).
"""

from __future__ import annotations

from rest_framework.exceptions import NotFound
from rest_framework.permissions import SAFE_METHODS, BasePermission

from clubs.permissions import can_read_club, check_grant, grant_of, role_in


def _club(view):
    return view.get_club()


class ClubQuestionPermission(BasePermission):
    anonymous_may_write = True  # a question about a public club's rules (config.schema)

    def has_permission(self, request, view) -> bool:
        check_grant(request, view)
        if not can_read_club(request.user, _club(view)):
            raise NotFound()
        return True


class ClubMemberReadPermission(BasePermission):
    def has_permission(self, request, view) -> bool:
        if getattr(grant_of(request), "allows_game", None) is not None:
            raise NotFound()  # money is never a table's business
        club = _club(view)
        if not can_read_club(request.user, club):
            raise NotFound()
        return request.method in SAFE_METHODS and role_in(request.user, club) is not None
