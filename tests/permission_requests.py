"""How the permission matrix reaches the routes: the URL conf walked, a world, a request's client.

What it does: ``all_routes()`` walks the URL conf (``Route``: the key ``ROUTES`` uses, the
pattern, the view class); ``declaration_for(key)`` finds a route's row in ``ROUTES`` (an exact key
first, else the first matching glob); ``implemented_methods`` lists the methods a view
implements. ``world_for_matrix`` builds the club, its users of every role and what the routes'
path parameters need (``world_for_route`` only what one route needs); ``url_for`` fills a
route's path parameters from the world; ``client_for`` signs a role in as the route expects: API
routes (``/api/…``) with a device token (``Authorization: Token …``, as tablets do), pages and
the admin with a session; ``matches`` tells whether a status is the declared outcome.

Adding a route with a new path parameter: give it a value in ``World.path_values``
(tests/clubs/factories.py) or in ``world_for_matrix`` here.

What it does not do: declare what a route answers (``tests/permission_routes.py``) or check it
(the matrix's tests).
"""

from __future__ import annotations

import fnmatch
from dataclasses import dataclass
from datetime import timedelta

from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver, reverse
from django.utils import timezone

from accounts.models import BrowserSession
from accounts.services import issue_device_token
from clubs.models import PlayerInvitation
from tests.clubs.factories import World, build_world
from tests.games.matrix import add_game_to_world
from tests.permission_routes import ROUTES
from tests.practice.matrix import add_practice_game_to_world
from tests.rankings.matrix import RANKING_PARAMETERS, add_federation_to_world
from tests.settlements.matrix import JOB_PARAMETERS, add_jobs_to_world
from tests.tables.matrix import add_table_links_to_world
from tests.tournaments.matrix import add_tournament_to_world


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


TOURNAMENT_PARAMETERS = frozenset(
    {"tournament_id", "entrant_id", "match_id", "round_number", "door_token"}
)


def world_for_matrix(
    *,
    public: bool,
    with_game: bool = False,
    with_tournament: bool = False,
    with_practice: bool = False,
    with_jobs: bool = False,
    with_federation: bool = False,
) -> World:
    world = build_world(public=public)
    organiser = world.users["organiser"]
    old_device, _ = issue_device_token(user=organiser, device="old tablet")
    invitation = PlayerInvitation.objects.create(
        player=world.player, username=world.spare_user.username, invited_by=organiser
    )
    old_browser = BrowserSession.objects.create(
        key_hash="0" * 64,
        session_data="",
        expire_date=timezone.now() + timedelta(days=1),
        user=organiser,
    )
    world.extra["path_values"] = {
        "device_token_id": old_device.pk,
        "session_id": old_browser.pk,
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
    if with_federation:
        world.extra["path_values"].update(add_federation_to_world(world))
    return world


def path_parameters(route_key: str) -> list[str]:
    """The names of a route's path parameters ("api/clubs/<slug:slug>/" -> ["slug"])."""
    route = next(route for route in all_routes() if route.key == route_key)
    return [part.split(">")[0].split(":")[-1] for part in route.pattern.split("<")[1:]]


def client_for(world: World, role_name: str, url: str) -> Client:
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


def url_for(route_key: str, world: World) -> str:
    values = world.path_values()
    return reverse(route_key, kwargs={name: values[name] for name in path_parameters(route_key)})


# Routes whose world needs a game (and its table links) without a game_id in their path.
NEEDS_A_GAME = frozenset(
    {
        "tables:link-list",
        "tables:link-detail",
        "tables:current",
        "table:link",
        "hall:screen",
        "hall_page:screen",
    }
)


def world_for_route(route_key: str, *, public: bool) -> World:
    parameters = set(path_parameters(route_key))
    return world_for_matrix(
        public=public,
        with_game="game_id" in parameters or route_key in NEEDS_A_GAME,
        with_tournament=bool(parameters & TOURNAMENT_PARAMETERS),
        with_practice=bool(parameters & {"practice_game_id", "token"}),
        with_jobs=bool(parameters & JOB_PARAMETERS),
        with_federation=bool(parameters & RANKING_PARAMETERS),
    )


def matches(outcome: str, status_code: int) -> bool:
    if outcome == "ok":
        return 200 <= status_code < 300
    return status_code == int(outcome)
