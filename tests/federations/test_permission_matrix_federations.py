"""The federations' permission matrix: every federations route, every actor, an exact status.

What it checks: ``FEDERATION_ROUTES`` declares, for each route of the ``federations`` API and of
the federation pages, and each method, what each actor gets — anonymous, an outsider (signed in,
no role), the organiser of a member club (``club_organiser``), a linked player (the account of a
club player linked to a federation player, a plain player of that club), the federation's
organiser, and the organiser of another federation (``rival``): "ok" (any 2xx) or an exact
status. Every such route of the URL conf must be declared here (the main matrix delegates them,
tests/permission_routes.py). Then: nothing crosses federations (another federation's ids are 404
under this one), and a federation's organisers get nothing on a club's own routes (a private
member club's API and console answer them as any outsider).

What it does not do: check response bodies (tests/federations/test_api.py does).
"""

from __future__ import annotations

import json

import pytest
from django.test import Client
from django.urls import reverse

from accounts.services import issue_device_token
from federations import events, organisers, services
from tests.clubs.factories import make_club, make_membership, make_player, make_user
from tests.federations.factories import (
    make_federation,
    make_federation_player,
    make_invited,
    make_link,
    make_member,
)
from tests.permission_requests import all_routes, matches, path_parameters

ACTORS = ("anonymous", "outsider", "club_organiser", "player", "organiser", "rival", "other_club")

ANYONE = "ok ok ok ok ok ok ok"
SIGNED_IN = "401 ok ok ok ok ok ok"
ORGANISERS = "401 403 403 403 ok 403 403"
CLUB_ANSWER = "401 404 ok 404 404 404 404"
MEMBER_CLUB_ANSWER = "401 404 ok 403 404 404 404"
PAGE_ORGANISERS = "302 403 403 403 ok 403 403"
EVENT_READERS = "401 403 ok 403 ok 403 ok"

FEDERATION_ROUTES: dict[str, dict[str, str]] = {
    "federations:federation-list": {"GET": ANYONE, "POST": SIGNED_IN},
    "federations:federation-detail": {"GET": ANYONE, "PATCH": ORGANISERS},
    # organisers: the list, add an existing account (the outsider), remove (the other organiser)
    "federations:organiser-list": {"GET": ORGANISERS, "POST": ORGANISERS},
    "federations:organiser-detail": {"DELETE": ORGANISERS},
    "federations:membership-list": {"GET": ORGANISERS, "POST": ORGANISERS},
    "federations:withdraw": {"POST": ORGANISERS},
    "federations:accept": {"POST": CLUB_ANSWER},
    "federations:decline": {"POST": CLUB_ANSWER},
    "federations:leave": {"POST": MEMBER_CLUB_ANSWER},
    "federations:club-results": {"GET": ORGANISERS},
    "federations:player-list": {"GET": ORGANISERS, "POST": ORGANISERS},
    # the public choices: read by the player and the organisers, set by the player only
    "federations:player-detail": {
        "GET": "401 403 403 ok ok 403 403",
        "PATCH": "401 403 403 ok 403 403 403",
    },
    "federations:link-list": {"GET": ORGANISERS, "POST": ORGANISERS},
    "federations:unlink": {"POST": ORGANISERS},
    "federations:link-invitation-list": {"POST": ORGANISERS},
    "federations:link-invitation-accept": {"POST": MEMBER_CLUB_ANSWER},
    "federations:link-invitation-decline": {"POST": MEMBER_CLUB_ANSWER},
    "federations:merge-list": {"POST": ORGANISERS},
    "federations:unmerge": {"POST": ORGANISERS},
    "federations:levy": {"GET": ORGANISERS},
    "federations:audit": {"GET": ORGANISERS},
    # federation events: read by the federation's organisers and its member clubs' organisers
    # (north's and south's), run by the federation's organisers; a club's nominations by that
    # club's organisers only (south's organiser is refused north's, as any outsider: 404)
    "federations:event-list": {"GET": EVENT_READERS, "POST": ORGANISERS},
    "federations:event-detail": {"GET": EVENT_READERS, "PATCH": ORGANISERS},
    "federations:event-nominations": {"GET": ORGANISERS},
    "federations:event-club-nominations": {"GET": MEMBER_CLUB_ANSWER, "POST": MEMBER_CLUB_ANSWER},
    "federations:event-club-nomination": {"DELETE": MEMBER_CLUB_ANSWER},
    "federations:event-select": {"POST": ORGANISERS},
    "federations:event-tournament": {"POST": ORGANISERS},
    # pages: the levy for the federation's organisers; the console box's form for the club's
    # (posted without an action, past the checks: 400)
    # the list for anyone; a new federation for anyone signed in (posted empty: 400)
    "federation_pages:index": {"GET": ANYONE, "POST": "302 400 400 400 400 400 400"},
    # the organisers' page (posted without an action, past the checks: 400)
    "federation_pages:federation": {"GET": PAGE_ORGANISERS, "POST": "302 403 403 403 400 403 403"},
    "federation_pages:player": {
        "GET": "302 403 403 ok ok 403 403",
        "POST": "302 403 403 ok 403 403 403",
    },
    "federation_pages:levy": {"GET": PAGE_ORGANISERS},
    "federation_pages:levy-csv": {"GET": PAGE_ORGANISERS},
    "federation_pages:console-answer": {"POST": "302 404 400 403 404 404 404"},
}


class World:
    """Two federations; ``county`` has ``north`` (a member, private), ``east`` (invited) and
    ``south`` (a member, private: ``other_club`` organises it); a draft event taking nominations
    (north nominated Nora) and a selected one (Nora and Sean), both hosted by north."""

    def __init__(self) -> None:
        self.users = {name: make_user(name) for name in ACTORS if name != "anonymous"}
        self.users["anonymous"] = None
        self.county = make_federation("county", organiser=self.users["organiser"])
        self.co_organiser = make_user("co_organiser")
        organisers.add_organiser(
            federation=self.county, user=self.users["organiser"], identifier="co_organiser"
        )
        self.rival = make_federation("rival", organiser=self.users["rival"])
        self.north, self.east, self.west = make_club("north"), make_club("east"), make_club("west")
        for club in (self.north, self.east):
            make_membership(club, self.users["club_organiser"], "organiser")
        make_membership(self.north, self.users["player"], "player")
        make_member(self.county, self.north)
        make_invited(self.county, self.east)
        make_member(self.rival, self.west)
        self.nora = make_player(self.north, "Nora", user=self.users["player"])
        self.mary = make_player(self.north, "Mary")
        self.sean = make_player(self.north, "Sean")
        self.fp_nora = make_federation_player(self.county, "Nora Kelly")
        self.fp_sean = make_federation_player(self.county, "Sean Walsh")
        self.fp_sean_too = make_federation_player(self.county, "Seán Walsh")
        self.fp_mary = make_federation_player(self.county, "Mary Byrne")
        make_link(self.fp_nora, self.nora)
        self.link = make_link(self.fp_sean_too, self.sean)
        self.invitation = services.invite_link(
            federation=self.county,
            user=self.users["organiser"],
            federation_player=self.fp_mary,
            player=self.mary,
        )
        self.south = make_club("south")
        make_membership(self.south, self.users["other_club"], "organiser")
        make_member(self.county, self.south)
        self.event, self.selected = (
            events.create_event(
                federation=self.county,
                user=self.users["organiser"],
                name=name,
                host_club=self.north,
                game="25",
                format="knockout",
                date="2026-03-01",
                rule="nominations",
                quota=3,
            )
            for name in ("Open", "Selected")
        )
        organiser = self.users["club_organiser"]
        self.nomination = events.nominate(
            event=self.event, user=organiser, club=self.north, player=self.nora
        )
        for player in (self.nora, self.sean):
            events.nominate(event=self.selected, user=organiser, club=self.north, player=player)
        events.select_entrants(event=self.selected, user=self.users["organiser"])
        self.merge = services.merge_players(
            federation=self.county,
            user=self.users["organiser"],
            source=make_federation_player(self.county, "Dup"),
            target=self.fp_mary,
        )

    def kwargs(self) -> dict:
        return {
            "slug": "county",
            "club_slug": "north",
            "player_id": self.fp_nora.pk,
            "link_id": self.link.pk,
            "invitation_id": self.invitation.pk,
            "entry_id": self.merge.pk,
            "event_id": self.event.pk,
            "nomination_id": self.nomination.pk,
            "user_id": self.co_organiser.pk,
        }


EVENT_OF = {"federations:event-tournament": "selected", "federations:event-select": "selected"}

CLUB_OF = {
    "federations:accept": "east",
    "federations:decline": "east",
    "federations:withdraw": "east",
}

BODIES = {
    ("federations:federation-list", "POST"): lambda w: {
        "name": "Munster Council",
        "slug": "munster",
        "currency": "EUR",
        "levy_rate": "0.25",
    },
    ("federations:federation-detail", "PATCH"): lambda w: {"levy_rate": "0.40"},
    ("federations:organiser-list", "POST"): lambda w: {"identifier": "outsider"},
    ("federations:membership-list", "POST"): lambda w: {"club": "west"},
    ("federations:player-list", "POST"): lambda w: {"display_name": "New Player"},
    ("federations:player-detail", "PATCH"): lambda w: {"name_shown": "initials"},
    ("federations:link-list", "POST"): lambda w: {
        "federation_player": w.fp_sean.pk,
        "player": make_player(w.north, "Late").pk,
    },
    ("federations:link-invitation-list", "POST"): lambda w: {
        "federation_player": w.fp_sean.pk,
        "player": make_player(w.north, "Later").pk,
    },
    ("federations:event-list", "POST"): lambda w: {
        "name": "County Cup",
        "host_club": "north",
        "game": "25",
        "format": "round_robin",
        "date": "2026-04-01",
        "rule": "top_n",
        "quota": 4,
    },
    ("federations:event-detail", "PATCH"): lambda w: {"quota": 2},
    ("federations:event-club-nominations", "POST"): lambda w: {"player": w.mary.pk},
    ("federations:merge-list", "POST"): lambda w: {
        "source": w.fp_sean_too.pk,
        "target": w.fp_sean.pk,
    },
}


def url_for(route_key: str, world: World) -> str:
    values = world.kwargs() | {"club_slug": CLUB_OF.get(route_key, "north")}
    if EVENT_OF.get(route_key) == "selected":
        values["event_id"] = world.selected.pk
    if route_key == "federation_pages:console-answer":
        values["slug"] = "north"  # a club's console
    return reverse(route_key, kwargs={name: values[name] for name in path_parameters(route_key)})


def client_for(world: World, actor: str, url: str) -> Client:
    client = Client()
    user = world.users[actor]
    if user is not None:
        if url.startswith("/api/"):
            _, token = issue_device_token(user=user, device="matrix")
            client.defaults["HTTP_AUTHORIZATION"] = f"Token {token}"
        else:
            client.force_login(user)
    return client


def _federation_route(key: str) -> bool:
    return key.startswith(("federations:", "federation_pages:"))


def test_every_federations_route_is_declared():
    keys = {route.key for route in all_routes() if _federation_route(route.key)}
    assert keys == set(FEDERATION_ROUTES)


def _cases():
    for route_key, methods in FEDERATION_ROUTES.items():
        for method in methods:
            for actor in ACTORS:
                yield pytest.param(route_key, method, actor, id=f"{route_key}-{method}-{actor}")


@pytest.mark.django_db
@pytest.mark.parametrize(("route_key", "method", "actor"), list(_cases()))
def test_route_answers_as_declared(route_key, method, actor):
    world = World()
    url = url_for(route_key, world)
    body = BODIES.get((route_key, method))
    client = client_for(world, actor, url)
    if body is None:
        response = client.generic(method, url)
    else:
        response = client.generic(
            method, url, json.dumps(body(world)), content_type="application/json"
        )
    expected = dict(zip(ACTORS, FEDERATION_ROUTES[route_key][method].split(), strict=True))[actor]
    assert matches(expected, response.status_code), (
        f"{method} {url} as {actor}: expected {expected}, got {response.status_code} "
        f"{response.content[:300]!r}"
    )


@pytest.mark.django_db
def test_nothing_crosses_federations():
    """The rival federation's organiser, under their own federation, names county's rows: 404."""
    world = World()
    client = client_for(world, "rival", "/api/")
    rival = "/api/federations/rival"
    for method, url in [
        ("GET", f"{rival}/players/{world.fp_nora.pk}/"),
        ("POST", f"{rival}/links/{world.link.pk}/unlink/"),
        ("POST", f"{rival}/merges/{world.merge.pk}/undo/"),
        ("GET", f"{rival}/clubs/north/results/"),
        ("POST", f"{rival}/clubs/north/withdraw/"),
        ("GET", f"{rival}/events/{world.event.pk}/"),
        ("POST", f"{rival}/events/{world.selected.pk}/select/"),
        ("POST", f"{rival}/events/{world.selected.pk}/tournament/"),
        ("DELETE", f"{rival}/organisers/{world.co_organiser.pk}/"),
    ]:
        assert client.generic(method, url).status_code == 404, url
    response = client.post(
        f"{rival}/links/",
        {"federation_player": world.fp_sean.pk, "player": world.mary.pk},
        content_type="application/json",
    )
    assert response.status_code == 404


@pytest.mark.django_db
def test_a_federation_organiser_gets_nothing_on_a_member_clubs_own_routes():
    """North is a private member club: its API and console answer the federation's organiser as
    any outsider (404), reads and writes alike; the club's own organiser is let in."""
    world = World()
    organiser = client_for(world, "organiser", "/api/")
    for method, url in [
        ("GET", "/api/clubs/north/"),
        ("GET", "/api/clubs/north/players/"),
        ("POST", "/api/clubs/north/games/"),
        ("POST", "/api/clubs/north/tournaments/"),
        ("POST", "/api/clubs/north/nights/"),
        ("PATCH", "/api/clubs/north/"),
    ]:
        assert (
            organiser.generic(method, url, "{}", content_type="application/json").status_code == 404
        ), url
    page = client_for(world, "organiser", "/console/")
    assert page.get(reverse("console:home", kwargs={"slug": "north"})).status_code == 404
    club_organiser = client_for(world, "club_organiser", "/console/")
    assert club_organiser.get(reverse("console:home", kwargs={"slug": "north"})).status_code == 200


@pytest.mark.django_db
def test_undeclared_methods_are_refused():
    """Every method a route does not declare is 405 for the actor who passes the route's checks
    (HEAD answers as GET where GET is declared; OPTIONS is refused, as everywhere)."""
    world = World()
    failures = []
    for route_key, methods in FEDERATION_ROUTES.items():
        url = url_for(route_key, world)
        outcomes = [dict(zip(ACTORS, each.split(), strict=True)) for each in methods.values()]
        actor = max(
            ("organiser", "club_organiser", "player"),
            key=lambda name: sum(outcome[name] in ("ok", "400") for outcome in outcomes),
        )
        client = client_for(world, actor, url)
        declared = set(methods) | ({"HEAD"} if "GET" in methods else set())
        for method in ("GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"):
            if method not in declared and client.generic(method, url).status_code != 405:
                failures.append(f"{method} {route_key}")
    assert failures == []
