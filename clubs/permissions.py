"""Who may read, score and manage a club: the one place that decides it.

What it does: answers, for a user and a club, which role the user holds (``role_in``) and whether
they may read the club's books (``can_read_club``), record results (``can_score``) or manage the
club (``can_manage``); and wraps those answers as DRF permission classes that every club-owned
endpoint (in this app and in later ones) picks from.

What it does not do: fetch the objects a view works on (views and selectors do), or filter lists
(list querysets are scoped to the club in the URL by the selectors).

Terms and the policy, in order of precedence:
- *anonymous*: no authenticated user. Any write by an anonymous user is 401, whatever the club.
- *reader*: a member of the club in any role, or anybody when the club made its books public
  (``public_standings``). A club the user may not read does not exist for them: 404, not 403, so
  that the existence of a private club, or of its players, is never revealed.
- *scorer*: organiser or scorekeeper — records results.
- *manager*: organiser — changes the club, its memberships, players and teams.
- A reader who lacks the role a write (or an organiser-only read) needs gets 403.
- *second factor*: an organiser action in a club that requires two factors of its organisers
  (``Club.require_two_factor``), or by a staff account, needs a request signed in with one
  (``second_factor_verified``); without it, 403 ``second_factor_setup_required``.
- *grant*: a request authenticated by something narrower than a user — a table link — carries in
  ``request.auth`` an object with ``allows_game(game_id) -> bool``. Such a request may use a view
  only for a game the grant allows (the view's ``game_id`` URL argument); anything else is a 404.
  Checked by duck typing, so this app never imports the one that makes grants.

How a permission class finds the club: from the view's ``get_club()`` when the view has one and it
returns a club (nested routes ``/api/clubs/{slug}/…``), else at object level from the object itself
(a ``Club``) or its ``.club`` attribute (``/api/games/{id}/``).
"""

from __future__ import annotations

from django.utils.translation import gettext
from rest_framework.exceptions import NotFound
from rest_framework.permissions import SAFE_METHODS, BasePermission

from clubs.models import Club, Role
from config.problems import Problem

SCORER_ROLES = frozenset({Role.ORGANISER, Role.SCOREKEEPER})

# Cache of roles looked up on a club instance, keyed by user id. Clubs are fetched once per
# request, so the cache lives exactly as long as the request and is never stale across requests.
_ROLE_CACHE_ATTRIBUTE = "_roles_by_user_id"


def remember_role(club: Club, user, role: str | None) -> None:
    """Record a role already known (e.g. annotated by a selector) so ``role_in`` skips a query."""
    if user is not None and user.is_authenticated:
        club.__dict__.setdefault(_ROLE_CACHE_ATTRIBUTE, {})[user.pk] = role


def role_in(user, club: Club) -> str | None:
    """The user's role in the club ("organiser", "scorekeeper", "player"), or None."""
    if user is None or not user.is_authenticated:
        return None
    cache = club.__dict__.setdefault(_ROLE_CACHE_ATTRIBUTE, {})
    if user.pk not in cache:
        cache[user.pk] = (
            club.memberships.filter(user_id=user.pk).values_list("role", flat=True).first()
        )
    return cache[user.pk]


def can_read_club(user, club: Club) -> bool:
    return club.public_standings or role_in(user, club) is not None


def can_score(user, club: Club) -> bool:
    return role_in(user, club) in SCORER_ROLES


def can_manage(user, club: Club) -> bool:
    return role_in(user, club) == Role.ORGANISER


def second_factor_verified(user) -> bool:
    """The request was signed in with a second factor: a session marked by django-otp's
    middleware (``user.is_verified()``); a device token, which the API issues only after the
    code, when the account has a confirmed authenticator."""
    check = getattr(user, "is_verified", None)
    if callable(check):
        return bool(check())
    from django_otp.plugins.otp_totp.models import TOTPDevice

    return TOTPDevice.objects.filter(user_id=user.pk, confirmed=True).exists()


def require_second_factor(user, club: Club) -> None:
    """403 ``second_factor_setup_required`` when an organiser action of ``club`` (which requires
    two factors of its organisers) or of a staff account comes without a second factor."""
    if not (club.require_two_factor or user.is_staff) or second_factor_verified(user):
        return
    raise Problem(
        code="second_factor_setup_required",
        detail=gettext(
            "Organiser actions in this club need two-factor sign-in: turn it on at "
            "/accounts/two-factor/, then sign in again."
        ),
    )


def club_of(obj) -> Club:
    """The club an object belongs to: the object itself when it is a club, else ``obj.club``."""
    return obj if isinstance(obj, Club) else obj.club


def grant_of(request):
    """What the request's authentication left in ``request.auth`` (a token, a grant, None).

    Read from the attribute DRF fills when it authenticates (permissions always run after): the
    ``auth`` property would authenticate an unauthenticated request again and reset its user.
    """
    return getattr(request, "_auth", None)


def check_grant(request, view) -> None:
    """404 when the request holds a grant (``request.auth.allows_game``) that does not allow the
    view's game, or the view has no game; nothing when the request holds no grant."""
    allows_game = getattr(grant_of(request), "allows_game", None)
    if allows_game is None:
        return
    game_id = getattr(view, "kwargs", {}).get("game_id")
    if game_id is None or not allows_game(game_id):
        raise NotFound()


class _ClubPermission(BasePermission):
    """Reads need ``read_check``, writes need ``write_check``; an unreadable club is a 404.

    Subclasses set the two checks; both take ``(user, club)``. ``write_check = None`` refuses every
    write (a read-only endpoint).
    """

    # For the OpenAPI schema (config.schema): anonymous readers may read a public club.
    anonymous_may_read = True

    read_check = staticmethod(can_read_club)
    write_check = staticmethod(can_manage)

    def has_permission(self, request, view) -> bool:
        check_grant(request, view)
        is_write = request.method not in SAFE_METHODS
        if is_write and not request.user.is_authenticated:
            return False  # DRF turns this into 401 for anonymous requests
        get_club = getattr(view, "get_club", None)
        club = get_club() if get_club is not None else None
        if club is None:
            return True  # the object decides (has_object_permission)
        return self._check(request, club, is_write)

    def has_object_permission(self, request, view, obj) -> bool:
        return self._check(request, club_of(obj), request.method not in SAFE_METHODS)

    def _check(self, request, club: Club, is_write: bool) -> bool:
        user = request.user
        if not can_read_club(user, club):
            raise NotFound()
        check = self.write_check if is_write else self.read_check
        if check is None or not check(user, club):
            return False
        if check is can_manage:
            require_second_factor(user, club)
        return True


class ClubReadPermission(_ClubPermission):
    """Read-only: readers of the club may read; every write is refused."""

    write_check = None


class ClubScorePermission(_ClubPermission):
    """Readers read; organisers and scorekeepers write (results: games, hands)."""

    write_check = staticmethod(can_score)


class ClubManagePermission(_ClubPermission):
    """Readers read; organisers write (the club itself, its players and teams)."""

    write_check = staticmethod(can_manage)


class ClubOrganiserOnlyPermission(_ClubPermission):
    """Organisers only, reads included (memberships); other readers get 403."""

    read_check = staticmethod(can_manage)
    write_check = staticmethod(can_manage)
    anonymous_may_read = False


class AuthenticatedWritePermission(BasePermission):
    """For collections not owned by one club (``/api/clubs/``): anyone reads, writes need login."""

    anonymous_may_read = True

    def has_permission(self, request, view) -> bool:
        return request.method in SAFE_METHODS or request.user.is_authenticated
