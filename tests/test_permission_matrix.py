"""Every route of the URL conf, every method, every kind of user: the status is a decision.

What it does: ``ROUTES`` declares, for each route (by name, or by pattern for unnamed ones; glob
keys like ``"admin:*"`` allowed) and each HTTP method, what an anonymous user, an outsider (logged
in, no role), a player, a scorekeeper and an organiser of the club get — "ok" (any 2xx), or an
exact status. Routes under a club are run against a private club and again against a public one.
``test_every_route_is_declared`` walks the URL conf: a route missing from the table, a method a
view implements but the table does not declare (for API views), or a table row that matches no
route fails. So no endpoint ships without someone deciding who may use it.

HEAD and OPTIONS, decided once for every route: HEAD answers exactly as GET would, for every
role, without a body (``test_head_answers_as_get_does``); a route without GET refuses it. OPTIONS
is refused with 405 everywhere in the API (settings: no DRF metadata; the schema describes the
API) and on the pages; only Django's own views answer it (an empty reply listing the methods).
``test_undeclared_methods_are_refused`` sends every method a route does not declare, as the
organiser (who passes the permission checks), and expects 405 unless ``UNDECLARED_METHODS``
says otherwise.

Adding a route: add a row to ``ROUTES`` (reuse the named expectations below), a request body to
``BODIES`` for methods that take one (it must be valid, so "ok" really means the write worked),
and, when the route has a new path parameter, a value in ``World.path_values``
(tests/clubs/factories.py) or in ``world_for_matrix`` below.

How requests authenticate: API routes (``/api/…``) with a device token (``Authorization:
Token …``, as tablets do); pages and the admin with a session.

What it does not do: check response bodies (the app tests do).
"""

from __future__ import annotations

import fnmatch
import json
from collections.abc import Callable
from dataclasses import dataclass

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver, reverse
from rest_framework.views import APIView

from accounts.services import issue_device_token
from clubs.models import PlayerInvitation
from tests.clubs.factories import ROLE_NAMES, World, build_world
from tests.games.matrix import GAME_BODIES, add_game_to_world
from tests.hall.matrix import HALL_BODIES
from tests.practice.matrix import PRACTICE_BODIES, add_practice_game_to_world
from tests.settlements.matrix import JOB_BODIES, JOB_PARAMETERS, add_jobs_to_world
from tests.tables.matrix import TABLE_BODIES, add_table_links_to_world
from tests.tournaments.matrix import TOURNAMENT_BODIES, add_tournament_to_world

# Expectations -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Expect:
    """Outcomes for anonymous, outsider, player, scorekeeper, organiser ("ok" = any 2xx).

    ``public`` is the same route on a club with public standings; None for routes that are not
    under a club (they run once).
    """

    private: str
    public: str | None = None

    def outcomes(self, public: bool) -> dict[str, str]:
        tokens = (self.public if public else self.private).split()
        assert len(tokens) == len(ROLE_NAMES), self
        return dict(zip(ROLE_NAMES, tokens, strict=True))


@dataclass(frozen=True)
class Delegated:
    """A route whose permissions another test owns (said where); its methods are not run here."""

    reason: str


ANYONE = Expect("ok ok ok ok ok")
LOGGED_IN = Expect("401 ok ok ok ok")
REDIRECT_TO_LOGIN = Expect("302 302 302 302 302")
# Under /api/clubs/{slug}/: readers read, an unreadable club is 404, a missing role 403.
CLUB_READ = Expect(private="404 404 ok ok ok", public="ok ok ok ok ok")
CLUB_MANAGE = Expect(private="401 404 403 403 ok", public="401 403 403 403 ok")
CLUB_SCORE = Expect(private="401 404 403 ok ok", public="401 403 403 ok ok")
CLUB_ORGANISER_READ = Expect(private="404 404 403 403 ok", public="401 403 403 403 ok")
CLUB_MEMBER_READ = Expect(private="404 404 ok ok ok", public="401 403 ok ok ok")
SCORE_IF_MATCH = Expect(private="401 404 403 428 428", public="401 403 403 428 428")

# The organiser's console (web/console): a page of the club's organisers only; anonymous visitors
# are sent to the login page. Its forms post an "action": the matrix posts none, so the
# organiser, past every check, is told 400 (the page tests post the real forms).
CONSOLE = Expect(private="302 404 403 403 ok", public="302 403 403 403 ok")
CONSOLE_POST = Expect(private="302 404 403 403 400", public="302 403 403 403 400")

ADMIN = Delegated("staff-only Django admin: tests/clubs/test_admin.py and Django's own tests")

ROUTES: dict[str, dict[str, Expect] | Delegated] = {
    # clubs
    "clubs:club-list": {"GET": ANYONE, "POST": LOGGED_IN},
    "clubs:club-detail": {"GET": CLUB_READ, "PATCH": CLUB_MANAGE, "DELETE": CLUB_MANAGE},
    "clubs:membership-list": {"GET": CLUB_ORGANISER_READ, "POST": CLUB_MANAGE},
    "clubs:membership-detail": {
        "GET": CLUB_ORGANISER_READ,
        "PATCH": CLUB_MANAGE,
        "DELETE": CLUB_MANAGE,
    },
    "clubs:player-list": {"GET": CLUB_READ, "POST": CLUB_MANAGE},
    "clubs:player-detail": {"GET": CLUB_READ, "PATCH": CLUB_MANAGE, "DELETE": CLUB_MANAGE},
    "clubs:team-list": {"GET": CLUB_READ, "POST": CLUB_MANAGE},
    "clubs:team-detail": {"GET": CLUB_READ, "PATCH": CLUB_MANAGE, "DELETE": CLUB_MANAGE},
    # accounts (/api/auth/)
    "auth-register": {"POST": ANYONE},
    "auth-token": {"POST": ANYONE},
    "auth-logout": {"POST": LOGGED_IN},
    # Every role's user has no usable password in the matrix: the current one is wrong (400).
    "auth-password": {"POST": Expect("401 400 400 400 400")},
    "auth-devices": {"GET": LOGGED_IN},
    # The device in the URL is the organiser's: nobody else may revoke it.
    "auth-device-detail": {"DELETE": Expect("401 404 404 404 ok")},
    "auth-me": {"GET": LOGGED_IN},
    # Invitations are addressed to an account outside the roles: nobody else may touch them.
    "clubs:invitation-list": {"GET": LOGGED_IN},
    "clubs:invitation-detail": {"DELETE": Expect("401 404 404 404 404")},
    "clubs:invitation-accept": {"POST": Expect("401 404 404 404 404")},
    # schema and docs are public
    "schema": {"GET": ANYONE},
    "api-docs": {"GET": ANYONE},
    # operations
    "health": {"GET": ANYONE},
    "health-workers": Delegated("needs a Celery worker: tests/test_health.py"),
    # pages
    "home": {"GET": ANYONE},
    # The session login form; posted empty it comes back with errors (the login itself and its
    # lockout: tests/accounts/test_lockout.py).
    "login": {"GET": ANYONE, "POST": ANYONE},
    "logout": Delegated("Django's session logout (POST, CSRF): tests/accounts/"),
    "password_change": {"GET": Expect("302 ok ok ok ok"), "POST": Expect("302 ok ok ok ok")},
    "password_change_done": {"GET": Expect("302 ok ok ok ok")},
    "password_reset": Delegated("Django's password reset forms (e-mail): Django's own tests"),
    "password_reset_done": Delegated("Django's password reset forms: Django's own tests"),
    "password_reset_confirm": Delegated("Django's password reset forms: Django's own tests"),
    "password_reset_complete": Delegated("Django's password reset forms: Django's own tests"),
    # games (tests/games/matrix.py makes the game; PUT/DELETE of a hand pass the permission
    # check and then need If-Match, hence 428 for the scorers; money is for members only)
    # player pages (tests/pages): a club's pages read like its API; balances are for members,
    # and a logged-out visitor of a public club is sent to the login page for them
    "pages:me": {"GET": Expect("302 ok ok ok ok")},
    "pages:club": {"GET": CLUB_READ},
    "pages:game": {"GET": CLUB_READ},
    "pages:tournament": {"GET": CLUB_READ},
    # A player's page reads like the club's pages (their money only for members: the page
    # leaves it out for others, tests/pages/test_player_page.py).
    "pages:player": {"GET": CLUB_READ},
    # The pages' language switch: anybody may choose, and is sent back to the page.
    "set_language": {"POST": Expect("302 302 302 302 302")},
    "pages:balances": {"GET": Expect(private="404 404 ok ok ok", public="302 403 ok ok ok")},
    "games:game-list": {"GET": CLUB_READ, "POST": CLUB_SCORE},
    "games:club-balances": {"GET": CLUB_MEMBER_READ},
    "games:game-detail": {"GET": CLUB_READ},
    "games:hand-list": {"GET": CLUB_READ, "POST": CLUB_SCORE},
    "games:hand-detail": {"GET": CLUB_READ, "PUT": SCORE_IF_MATCH, "DELETE": SCORE_IF_MATCH},
    "games:legal-plays": {"POST": CLUB_READ},
    # dry runs of a hand and of a correction: as the writes they preview (nothing is stored)
    "games:hand-preview": {"POST": CLUB_SCORE},
    "games:correction-preview": {"POST": CLUB_SCORE},
    "games:game-history": {"GET": CLUB_READ},
    "games:game-ledger": {"GET": CLUB_MEMBER_READ},
    # tournaments (tests/tournaments/matrix.py: public exactly when the club is; readers of a
    # tournament read it, organisers manage it; results are recorded through games)
    "tournaments:club-tournament-list": {"GET": CLUB_READ, "POST": CLUB_MANAGE},
    "tournaments:tournament-detail": {"GET": CLUB_READ, "PATCH": CLUB_MANAGE},
    "tournaments:entrant-list": {"GET": CLUB_READ, "POST": CLUB_MANAGE},
    "tournaments:entrant-detail": {"PATCH": CLUB_MANAGE, "DELETE": CLUB_MANAGE},
    "tournaments:round-list": {"GET": CLUB_READ, "POST": CLUB_MANAGE},
    "tournaments:match-list": {"GET": CLUB_READ},
    "tournaments:match-detail": {"GET": CLUB_READ},
    # a table's dispute: readers see it, scorers flag it, organisers resolve it (resolving an
    # undisputed table changes nothing: 200 in any order)
    "tournaments:match-dispute": {"GET": CLUB_READ, "POST": CLUB_SCORE, "DELETE": CLUB_MANAGE},
    "tournaments:bracket": {"GET": CLUB_READ},
    "tournaments:standings": {"GET": CLUB_READ},
    # money, as in games: the members of the club only (its other readers 401/403)
    "tournaments:settlement": {"GET": CLUB_MEMBER_READ},
    "tournaments:close": {"POST": CLUB_MANAGE},
    # the practice table (tests/practice/matrix.py): the menu and shared puzzles for anyone;
    # starting a game for anyone (the anonymous trial: one per session), redirected to the
    # table; a practice game only for the person playing it (the world's player), 404 for others
    "practice:index": {"GET": ANYONE},
    "practice:start": {"POST": Expect("302 302 302 302 302")},
    "practice:table": {"GET": Expect("404 404 ok 404 404")},
    "practice:move": {"POST": Expect("404 404 302 404 404")},
    "practice:advance": {"POST": Expect("404 404 302 404 404")},
    "practice:puzzle": {"GET": ANYONE},
    "tournaments:check-in": {"POST": CLUB_MANAGE},
    # The matrix's tournament has no round yet: past the checks, the organiser is told 404
    # (tests/console/test_services.py swaps and releases a real private round; the games of a
    # round not yet released, by role and route: tests/pages/test_private_draws.py).
    "tournaments:round-swap": {
        "POST": Expect(private="401 404 403 403 404", public="401 403 403 403 404")
    },
    "tournaments:round-release": {
        "POST": Expect(private="401 404 403 403 404", public="401 403 403 403 404")
    },
    # the first club: anyone signs up (a logged-in user is sent on to a new club), anyone logged
    # in creates a club; posted empty, each form is refused (400) beside its fields
    "console:signup": {"GET": Expect("ok 302 302 302 302"), "POST": Expect("400 400 400 400 400")},
    "console:club-new": {"GET": Expect("302 ok ok ok ok"), "POST": Expect("302 400 400 400 400")},
    "console:settings": {"GET": CONSOLE, "POST": CONSOLE_POST},
    "console:home": {"GET": CONSOLE},
    "console:members": {"GET": CONSOLE, "POST": CONSOLE_POST},
    "console:players": {"GET": CONSOLE, "POST": CONSOLE_POST},
    "console:house-rules": {"GET": CONSOLE, "POST": CONSOLE_POST},
    "console:club-export": {"GET": CONSOLE},
    "console:event-new": {"GET": CONSOLE, "POST": CONSOLE_POST},
    "console:event": {"GET": CONSOLE, "POST": CONSOLE_POST},
    "console:print": {"GET": CONSOLE},
    "console:table-sheet": {"GET": CONSOLE, "POST": CONSOLE_POST},
    "console:board": {"GET": CONSOLE, "POST": CONSOLE_POST},
    "console:results": {"GET": CONSOLE, "POST": CONSOLE_POST},
    "console:event-export": {"GET": CONSOLE},
    "console:night": {"GET": CONSOLE, "POST": CONSOLE_POST},
    "console:night-table-sheet": {"GET": CONSOLE, "POST": CONSOLE_POST},
    # nights and settle-ups (tests/settlements/matrix.py): money, for members only; organisers
    # open, close and set prize splits; a transfer is marked paid by its payer, its payee or an
    # organiser (the matrix's player and scorekeeper are neither: 403)
    "settlements:night-list": {"GET": CLUB_MEMBER_READ, "POST": CLUB_MANAGE},
    "settlements:night-detail": {"GET": CLUB_MEMBER_READ},
    "settlements:night-close": {"POST": CLUB_MANAGE},
    # a game at a table of the night: as the games API, scorekeepers and organisers start it
    "settlements:night-games": {"POST": CLUB_SCORE},
    "settlements:night-prize-split": {"PUT": CLUB_MANAGE},
    "settlements:night-settlements": {"GET": CLUB_MEMBER_READ},
    "settlements:tournament-prize-split": {"PUT": CLUB_MANAGE},
    "settlements:tournament-settlements": {"GET": CLUB_MEMBER_READ},
    "settlements:transfer-paid": {"POST": CLUB_MANAGE},
    # entry fees at the door: members read, organisers and scorekeepers mark
    "settlements:night-fees": {"GET": CLUB_MEMBER_READ, "POST": CLUB_SCORE},
    "settlements:tournament-fees": {"GET": CLUB_MEMBER_READ, "POST": CLUB_SCORE},
    "settlements:settle-up-rule": {"GET": CLUB_MEMBER_READ, "PUT": CLUB_MANAGE},
    # season tables and ratings read like the club (net stakes only to members: the app's tests)
    "seasons:season": {"GET": CLUB_READ},
    "seasons:rating-list": {"GET": CLUB_READ},
    "seasons:player-rating": {"GET": CLUB_READ},
    # webhooks: organisers only, reads included (the log shows the club's traffic)
    "webhooks:endpoint-list": {"GET": CLUB_ORGANISER_READ, "POST": CLUB_MANAGE},
    "webhooks:endpoint-detail": {"DELETE": CLUB_MANAGE},
    "webhooks:delivery-list": {"GET": CLUB_ORGANISER_READ},
    # table links (tests/tables): organisers make, list and revoke them; /api/table/ answers only
    # a request holding a table link (TABLE_LINK_ROUTES below), so nobody here has a table
    "tables:link-list": {"GET": CLUB_ORGANISER_READ, "POST": CLUB_MANAGE},
    "tables:link-detail": {"DELETE": CLUB_MANAGE},
    "tables:current": {"GET": Expect("404 404 404 404 404")},
    # the hall screen (tests/hall): organisers read and change its settings, run its clock, make
    # and revoke its link (the matrix's event has none to revoke: 404 past the checks); the
    # screen answers only a live hall link's credential, which nobody here holds
    "hall:settings": {"GET": CLUB_ORGANISER_READ, "PATCH": CLUB_MANAGE},
    "hall:clock": {"POST": CLUB_MANAGE},
    "hall:link": {
        "POST": CLUB_MANAGE,
        "DELETE": Expect(private="401 404 403 403 404", public="401 403 403 403 404"),
    },
    "hall:screen": {"GET": Expect("404 404 404 404 404")},
    # the table app's pages: the score page for scorers, links for organisers (the form posted
    # without a game is refused with a message and a redirect: tests/tables/test_pages.py makes
    # a link through it), the code form and the service worker for anyone, and a live link's
    # page for whoever holds it
    "table:score": {"GET": Expect(private="302 404 403 ok ok", public="302 403 403 ok ok")},
    "table:links": {
        "GET": Expect(private="302 404 403 403 ok", public="302 403 403 403 ok"),
        "POST": Expect(private="302 404 403 403 302", public="302 403 403 403 302"),
    },
    "table:code": {"GET": ANYONE},
    "table:link": {"GET": ANYONE},
    "table:worker": {"GET": ANYONE},
    # admin: the index is checked; the rest (one set of routes per model) is delegated
    "admin:index": {"GET": REDIRECT_TO_LOGIN},
    "admin:*": ADMIN,
    "admin/*": ADMIN,  # the admin's unnamed routes (redirects, the catch-all)
}

ALL_METHODS = ("GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS")
WRITE_METHODS = ("POST", "PUT", "PATCH", "DELETE")

# What the organiser gets for a method a route does not declare, where it is not 405.
UNDECLARED_METHODS: dict[str, dict[str, int]] = {
    # Django's own views: View.options answers with an empty 200 listing the allowed methods,
    # and the form views take PUT like POST (CSRF-protected like POST outside the test client).
    "health": {"OPTIONS": 200},
    "login": {"PUT": 200, "OPTIONS": 200},
    "password_change": {"PUT": 200, "OPTIONS": 200},
    "password_change_done": {"OPTIONS": 200},
    # The admin sends anyone who is not staff to its login page, whatever the method.
    "admin:index": dict.fromkeys(("POST", "PUT", "PATCH", "DELETE", "OPTIONS"), 302),
    # Read-only money views: their permission refuses every write before the method is looked at.
    "games:club-balances": dict.fromkeys(WRITE_METHODS, 403),
    "games:game-ledger": dict.fromkeys(WRITE_METHODS, 403),
    # Read-only club views (ClubReadPermission refuses every write before the method).
    "seasons:season": dict.fromkeys(WRITE_METHODS, 403),
    "seasons:rating-list": dict.fromkeys(WRITE_METHODS, 403),
    "seasons:player-rating": dict.fromkeys(WRITE_METHODS, 403),
}

MATRIX_PASSWORD = "matrix-pass-2026"

# Valid bodies, so that "ok" means the request really did what it asks.
BODIES: dict[tuple[str, str], Callable[[World], dict]] = {
    ("clubs:club-list", "POST"): lambda world: {
        "name": "Newly Founded",
        "slug": "newly-founded",
        "currency": "GBP",
        "time_zone": "Europe/London",
    },
    ("clubs:club-detail", "PATCH"): lambda world: {"name": "Renamed"},
    ("clubs:membership-list", "POST"): lambda world: {
        "username": world.spare_user.username,
        "role": "player",
    },
    ("clubs:membership-detail", "PATCH"): lambda world: {"role": "scorekeeper"},
    ("clubs:player-list", "POST"): lambda world: {"display_name": "Newcomer"},
    ("clubs:player-detail", "PATCH"): lambda world: {"display_name": "Renamed"},
    ("clubs:team-list", "POST"): lambda world: {
        "name": "New pair",
        "members": [world.players[2].pk, world.players[3].pk],
    },
    ("clubs:team-detail", "PATCH"): lambda world: {"name": "Renamed"},
    ("auth-password", "POST"): lambda world: {
        "current_password": "not-it",
        "new_password": "x7!Kq2#pLm9z",
    },
    ("auth-register", "POST"): lambda world: {"username": "brand-new", "password": "x7!Kq2#pLm9z"},
    ("auth-token", "POST"): lambda world: {
        "username": get_user_model()
        .objects.create_user(username="has-a-password", password=MATRIX_PASSWORD)
        .username,
        "password": MATRIX_PASSWORD,
    },
    **GAME_BODIES,
    **TOURNAMENT_BODIES,
    **PRACTICE_BODIES,
    **JOB_BODIES,
    **TABLE_BODIES,
    **HALL_BODIES,
}


# The URL conf -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Route:
    key: str  # the name ("clubs:player-list"), or the pattern when the route has no name
    pattern: str
    view_class: type | None


def all_routes() -> list[Route]:
    def walk(resolver, prefix: str, namespace: str | None):
        for entry in resolver.url_patterns:
            if isinstance(entry, URLResolver):
                inner = ":".join(part for part in (namespace, entry.namespace) if part) or None
                yield from walk(entry, prefix + str(entry.pattern), inner)
            elif isinstance(entry, URLPattern):
                pattern = prefix + str(entry.pattern)
                if entry.name:
                    key = f"{namespace}:{entry.name}" if namespace else entry.name
                else:
                    key = pattern
                callback = entry.callback
                view_class = getattr(callback, "view_class", None) or getattr(callback, "cls", None)
                yield Route(key, pattern, view_class)

    return list(walk(get_resolver(), "", None))


def declaration_for(key: str):
    """The table entry of a route key: an exact key first, else the first matching glob."""
    if key in ROUTES:
        return ROUTES[key]
    for table_key, declaration in ROUTES.items():
        if any(character in table_key for character in "*?[") and fnmatch.fnmatchcase(
            key, table_key
        ):
            return declaration
    return None


def implemented_methods(view_class: type) -> set[str]:
    return {
        method.upper()
        for method in view_class.http_method_names
        if method not in ("options", "head") and hasattr(view_class, method)
    }


def test_every_route_is_declared():
    routes = all_routes()
    undeclared = [route.key for route in routes if declaration_for(route.key) is None]
    assert undeclared == [], "declare these routes in ROUTES: " + ", ".join(undeclared)

    mismatched = []
    for route in routes:
        declaration = declaration_for(route.key)
        if isinstance(declaration, Delegated):
            continue
        if route.view_class is not None and issubclass(route.view_class, APIView):
            implemented = implemented_methods(route.view_class)
            if implemented != set(declaration):
                mismatched.append(f"{route.key}: view has {sorted(implemented)}")
    assert mismatched == [], "methods not declared as implemented: " + "; ".join(mismatched)

    keys = [route.key for route in routes]
    stale = [key for key in ROUTES if not any(fnmatch.fnmatchcase(k, key) for k in keys)]
    assert stale == [], "ROUTES rows that match no route: " + ", ".join(stale)


def test_the_table_lookup_prefers_exact_keys_and_refuses_unknown_routes():
    assert declaration_for("admin:index") == {"GET": REDIRECT_TO_LOGIN}
    assert declaration_for("admin:clubs_player_changelist") is ADMIN
    assert declaration_for("admin/clubs/player/<path:object_id>/") is ADMIN
    assert declaration_for("clubs:not-a-route") is None
    assert declaration_for("games:not-a-route") is None


def test_bodies_belong_to_declared_methods():
    for route_key, method in BODIES:
        declaration = ROUTES.get(route_key)
        assert isinstance(declaration, dict) and method in declaration, (route_key, method)


def test_undeclared_method_exceptions_are_for_undeclared_methods():
    for route_key, outcomes in UNDECLARED_METHODS.items():
        declaration = ROUTES.get(route_key)
        assert isinstance(declaration, dict), route_key
        assert not set(outcomes) & set(declaration), route_key
        assert set(outcomes) <= set(ALL_METHODS), route_key


# The requests -----------------------------------------------------------------------------------


def _cases():
    for route_key, declaration in ROUTES.items():
        if isinstance(declaration, Delegated):
            continue
        for method, expect in declaration.items():
            for public in (False, True) if expect.public is not None else (False,):
                for role_name in ROLE_NAMES:
                    club = "public" if public else "private"
                    yield pytest.param(
                        route_key,
                        method,
                        public,
                        role_name,
                        id=f"{route_key}-{method}-{club}-{role_name}",
                    )


TOURNAMENT_PARAMETERS = frozenset({"tournament_id", "entrant_id", "match_id", "round_number"})


def world_for_matrix(
    *,
    public: bool,
    with_game: bool = False,
    with_tournament: bool = False,
    with_practice: bool = False,
    with_jobs: bool = False,
) -> World:
    world = build_world(public=public)
    organiser = world.users["organiser"]
    old_device, _ = issue_device_token(user=organiser, device="old tablet")
    invitation = PlayerInvitation.objects.create(
        player=world.player, username=world.spare_user.username, invited_by=organiser
    )
    world.extra["path_values"] = {
        "device_token_id": old_device.pk,
        "invitation_id": invitation.pk,
    }
    # Games and tournaments only where the route needs them: a club with recorded results or a
    # tournament cannot be deleted (409 club_has_records), and the club routes are checked bare.
    if with_game:
        world.extra["path_values"].update(add_game_to_world(world))
        world.extra["path_values"].update(
            add_table_links_to_world(world, world.extra["path_values"]["game_id"])
        )
    if with_tournament:
        world.extra["path_values"].update(add_tournament_to_world(world))
    if with_practice:
        world.extra["path_values"].update(add_practice_game_to_world(world))
    if with_jobs:
        world.extra["path_values"].update(add_jobs_to_world(world))
    return world


def _path_parameters(route_key: str) -> list[str]:
    """The names of a route's path parameters ("api/clubs/<slug:slug>/" -> ["slug"])."""
    route = next(route for route in all_routes() if route.key == route_key)
    return [part.split(">")[0].split(":")[-1] for part in route.pattern.split("<")[1:]]


def _client_for(world: World, role_name: str, url: str) -> Client:
    client = Client()
    user = world.users[role_name]
    if user is None:
        return client
    if url.startswith("/api/"):
        _, token = issue_device_token(user=user, device="matrix")
        client.defaults["HTTP_AUTHORIZATION"] = f"Token {token}"
    else:
        client.force_login(user)
    return client


def _url_for(route_key: str, world: World) -> str:
    values = world.path_values()
    return reverse(route_key, kwargs={name: values[name] for name in _path_parameters(route_key)})


# Routes whose world needs a game (and its table links) without a game_id in their path.
NEEDS_A_GAME = frozenset(
    {"tables:link-list", "tables:link-detail", "tables:current", "table:link", "hall:screen"}
)


def _world_for_route(route_key: str, *, public: bool) -> World:
    parameters = set(_path_parameters(route_key))
    return world_for_matrix(
        public=public,
        with_game="game_id" in parameters or route_key in NEEDS_A_GAME,
        with_tournament=bool(parameters & TOURNAMENT_PARAMETERS),
        with_practice=bool(parameters & {"practice_game_id", "token"}),
        with_jobs=bool(parameters & JOB_PARAMETERS),
    )


def _matches(outcome: str, status_code: int) -> bool:
    if outcome == "ok":
        return 200 <= status_code < 300
    return status_code == int(outcome)


@pytest.mark.django_db
@pytest.mark.parametrize(("route_key", "method", "public", "role_name"), list(_cases()))
def test_route_answers_as_declared(route_key, method, public, role_name):
    world = _world_for_route(route_key, public=public)
    url = _url_for(route_key, world)
    client = _client_for(world, role_name, url)
    body = BODIES.get((route_key, method))
    if body is None:
        response = client.generic(method, url)
    else:
        response = client.generic(
            method, url, json.dumps(body(world)), content_type="application/json"
        )
    expected = ROUTES[route_key][method].outcomes(public)[role_name]
    assert _matches(expected, response.status_code), (
        f"{method} {url} as {role_name}: expected {expected}, got {response.status_code} "
        f"{response.content[:300]!r}"
    )


def _head_cases():
    for route_key, declaration in ROUTES.items():
        if isinstance(declaration, dict) and "GET" in declaration:
            for public in (False, True) if declaration["GET"].public is not None else (False,):
                club = "public" if public else "private"
                yield pytest.param(route_key, public, id=f"{route_key}-{club}")


@pytest.mark.django_db
@pytest.mark.parametrize(("route_key", "public"), list(_head_cases()))
def test_head_answers_as_get_does(route_key, public):
    world = _world_for_route(route_key, public=public)
    url = _url_for(route_key, world)
    failures = []
    for role_name, outcome in ROUTES[route_key]["GET"].outcomes(public).items():
        response = _client_for(world, role_name, url).head(url)
        if not _matches(outcome, response.status_code) or response.content != b"":
            failures.append(
                f"{role_name}: expected {outcome}, got {response.status_code} "
                f"with {len(response.content)} bytes"
            )
    assert failures == [], f"HEAD {url}: " + "; ".join(failures)


@pytest.mark.django_db
def test_undeclared_methods_are_refused():
    world = world_for_matrix(
        public=False, with_game=True, with_tournament=True, with_practice=True, with_jobs=True
    )
    failures = []
    checked = 0
    for route_key, declaration in ROUTES.items():
        if isinstance(declaration, Delegated):
            continue
        url = _url_for(route_key, world)
        client = _client_for(world, "organiser", url)
        declared = set(declaration) | ({"HEAD"} if "GET" in declaration else set())
        for method in ALL_METHODS:
            if method in declared:
                continue
            expected = UNDECLARED_METHODS.get(route_key, {}).get(method, 405)
            status_code = client.generic(method, url).status_code
            checked += 1
            if status_code != expected:
                failures.append(f"{method} {route_key}: expected {expected}, got {status_code}")
    assert failures == [], "; ".join(failures)
    assert checked > 100  # the walk really ran over the table


# The table-link actors ----------------------------------------------------------------------
#
# A tablet holding a table link (``Authorization: Table <token>``, no account, no session) may
# use exactly these routes for its own game; everything else in the API is a 404 (nothing is
# revealed, nothing stored), and the pages, which never read the header, treat it as the
# anonymous visitor it is. "other table's link" holds a live link of another game of the same
# club: its own table answers (/api/table/), this game does not exist for it.

TABLE_LINK_ROUTES: dict[str, dict[str, str]] = {
    "games:game-detail": {"GET": "ok"},
    "games:hand-list": {"GET": "ok", "POST": "ok"},
    "games:hand-detail": {"GET": "ok", "PUT": "428", "DELETE": "428"},
    "games:hand-preview": {"POST": "ok"},
    "games:correction-preview": {"POST": "ok"},
    "games:legal-plays": {"POST": "ok"},
    "games:game-history": {"GET": "ok"},
    "tables:current": {"GET": "ok"},
}
TABLE_ACTORS = ("table link", "other table's link")


def _table_link_expectation(route: Route, method: str, actor: str) -> str:
    allowed = TABLE_LINK_ROUTES.get(route.key, {}).get(method)
    if allowed is not None:
        if actor == "table link" or route.key == "tables:current":
            return allowed
        return "404"
    if route.view_class is not None and issubclass(route.view_class, APIView):
        return "404"
    return ROUTES[route.key][method].outcomes(False)["anonymous"]


def _table_link_cases():
    routes = {route.key: route for route in all_routes()}
    for route_key, declaration in ROUTES.items():
        if not isinstance(declaration, Delegated):
            yield pytest.param(routes[route_key], id=route_key)


def test_table_link_routes_are_declared_routes():
    for route_key, methods in TABLE_LINK_ROUTES.items():
        declaration = ROUTES.get(route_key)
        assert isinstance(declaration, dict) and set(methods) <= set(declaration), route_key


@pytest.mark.django_db
@pytest.mark.parametrize("route", list(_table_link_cases()))
def test_a_table_link_answers_as_declared(route):
    """Every declared method of the route, by both actors, in one world: the other table's
    link first (it must store nothing), then this table's (its writes are valid bodies)."""
    parameters = set(_path_parameters(route.key))
    world = world_for_matrix(
        public=False,
        with_game=True,
        with_tournament=bool(parameters & TOURNAMENT_PARAMETERS),
        with_practice=bool(parameters & {"practice_game_id", "token"}),
        with_jobs=bool(parameters & JOB_PARAMETERS),
    )
    url = _url_for(route.key, world)
    bodies = {
        method: BODIES[(route.key, method)](world)
        for method in ROUTES[route.key]
        if (route.key, method) in BODIES
    }
    failures = []
    for actor in reversed(TABLE_ACTORS):
        client = Client(HTTP_AUTHORIZATION=f"Table {world.extra['table_tokens'][actor]}")
        for method in ROUTES[route.key]:
            if method not in bodies:
                response = client.generic(method, url)
            else:
                response = client.generic(
                    method, url, json.dumps(bodies[method]), content_type="application/json"
                )
            expected = _table_link_expectation(route, method, actor)
            if not _matches(expected, response.status_code):
                failures.append(
                    f"{method} {url} with {actor}: expected {expected}, got "
                    f"{response.status_code} {response.content[:200]!r}"
                )
    assert failures == [], "; ".join(failures)
