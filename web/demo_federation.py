"""The demo's federation, for ``manage.py load_demo``: a county board of two clubs, ranked.

What it does: ``build_demo_federation(...)`` makes, through the services, a second demo club
("The Marble City", ``marble-city``: its own players, run by the demo organiser), the federation
"Kilkenny County Board" (``kilkenny``: created by the demo organiser, who is its organiser, with
the demo admin account as a second organiser when it exists), invites both clubs and accepts for
them, links every club player to a federation player (two people play at both clubs: Mary Byrne,
the demo ``player`` account at both, linked by the same account as the clubs join; Tom Ryan,
linked by the organiser), then plays club nights at both clubs with the computer players
(``web.demo_nights.build_demo_nights``: two at each club, after the
clubs joined, so they count), runs the half-played "Kilkenny Winter League" of two teams per
club (``web.demo_league.build_demo_league``: ``/f/kilkenny/leagues/winter-league/``), holds the
federation event "Kilkenny County Championship" (``build_demo_event``, through
``federations.events`` only: a 25 knockout, one player against one, at The Marble City, whose
entrants are the top ``EVENT_QUOTA`` of each member club's season table; the entrants selected,
the host club's tournament created and its first round drawn, ``EVENT_MATCHES_PLAYED`` of its
matches played by the computer players) and builds the rankings
(``rankings.build.rebuild_rankings``), so ``/f/kilkenny/rankings/`` lists ranked players.
``ensure_demo_federation(demo, out)`` is the loader's step: when the federation exists it only
makes sure the admin is an organiser and the league and the event are there
(``web.demo_league.ensure_demo_league``, ``ensure_demo_event``: for a demo loaded before they
existed), so a second run changes nothing.

What it does not do: settle-ups (so no lifetime points), nominations (the event's rule is the
season table), or date a game in the past (the league's first rounds are dated in the past, their
results entered on paper).
"""

from __future__ import annotations

import random
from typing import Any

from django.contrib.auth import get_user_model
from django.utils import timezone

from clubs import services as club_services
from clubs.models import Club, Role
from computer_players import play_game
from federations import events, organisers, services
from federations.models import (
    Federation,
    FederationEvent,
    FederationPlayer,
    FederationRole,
    PlayerLink,
    SelectionRule,
)
from games import services as game_services
from games.models import GameStatus
from rankings.build import rebuild_rankings
from rules_engine import HouseRules
from tournaments import services as tournament_services
from tournaments.models import Format
from web.demo_league import build_demo_league, ensure_demo_league
from web.demo_nights import build_demo_nights

FEDERATION_SLUG = "kilkenny"
FEDERATION_NAME = "Kilkenny County Board"
SECOND_CLUB_SLUG = "marble-city"
SECOND_CLUB_NAME = "The Marble City"
SECOND_CLUB_PLAYERS = [
    "Mary Byrne",  # the demo ``player`` account at both clubs: linked by the same account
    "Tom Ryan",  # plays at both clubs too: linked by the federation's organiser
    "Ger Phelan",
    "Breda Comerford",
    "Martin Brennan",
    "Noreen Dowling",
    "Johnny Murphy",
    "Ann Cody",
    "Kieran Walsh",
    "Phil Delaney",
]
SAME_ACCOUNT = {"Mary Byrne": "player"}
"""Second club players who are a demo account (the account plays at the demo club too)."""
NIGHTS = {"home": 2, "second": 2}
"""Club nights played at each club after it joined (the demo club's earlier nights predate the
federation and do not count)."""
SEED = 2025
EVENT_NAME = "Kilkenny County Championship"
EVENT_QUOTA = 4
"""The top four of each member club's season table enter: eight players, a knockout of three
rounds."""
EVENT_MATCHES_PLAYED = 2
"""First-round matches of the event's tournament played at the load (the others wait)."""


def ensure_demo_federation(demo: Any, out: Any) -> None:
    """The ``load_demo`` step (the demo club, its users and players exist; ``demo.admin_username``
    names the admin account to make an organiser, ``load_demo --admin``)."""
    federation = Federation.objects.filter(slug=FEDERATION_SLUG).first()
    if federation is None:
        federation = build_demo_federation(
            home=demo.club, organiser=demo.users["organiser"], password=demo.password, out=out
        )
    else:
        out.write(f"Found federation {federation.name}")
        ensure_demo_league(
            federation,
            home=demo.club,
            second=Club.objects.get(slug=SECOND_CLUB_SLUG),
            organiser=demo.users["organiser"],
            password=demo.password,
            out=out,
        )
        ensure_demo_event(federation, organiser=demo.users["organiser"], out=out)
    _ensure_admin_organiser(federation, demo.users["organiser"], demo.admin_username, out)


def _ensure_admin_organiser(federation, organiser, admin_username, out) -> None:
    if not admin_username:
        return
    admin = get_user_model().objects.filter(username=admin_username).first()
    if admin is None:
        out.write(f"No account {admin_username!r}: not made an organiser of {federation.name}")
    elif not FederationRole.objects.filter(federation=federation, user=admin).exists():
        organisers.add_organiser(federation=federation, user=organiser, identifier=admin_username)
        out.write(f"{admin_username} is an organiser of {federation.name}")


def build_demo_federation(*, home: Club, organiser: Any, password: str, out: Any) -> Federation:
    second = _second_club(organiser)
    federation = services.create_federation(
        user=organiser, name=FEDERATION_NAME, slug=FEDERATION_SLUG, currency="EUR"
    )
    for club in (home, second):
        services.invite_club(federation=federation, user=organiser, club=club)
        services.accept_invitation(federation=federation, user=organiser, club=club)
    _link_everyone(federation, organiser, home, second)
    games = build_demo_nights(home, user=organiser, nights=NIGHTS["home"], seed=SEED)
    games += build_demo_nights(second, user=organiser, nights=NIGHTS["second"], seed=SEED + 1)
    build_demo_league(
        federation, home=home, second=second, organiser=organiser, password=password, out=out
    )
    build_demo_event(federation, host=second, organiser=organiser, out=out)
    ranked = rebuild_rankings(federation_id=federation.pk)
    out.write(
        f"Created federation {federation.name}: {home.name} and {second.name}, "
        f"{len(games)} games played after joining, {ranked['rated']} ranked"
    )
    return federation


def _second_club(organiser) -> Club:
    club = club_services.create_club(
        user=organiser,
        name=SECOND_CLUB_NAME,
        slug=SECOND_CLUB_SLUG,
        currency="EUR",
        time_zone="Europe/Dublin",
        default_game="45",
        public_standings=True,
    )
    for username in sorted(set(SAME_ACCOUNT.values())):
        club_services.add_membership(club=club, username=username, role=Role.PLAYER)
    for name in SECOND_CLUB_PLAYERS:
        club_services.add_player(club=club, display_name=name, username=SAME_ACCOUNT.get(name))
    return club


def _link_everyone(federation, organiser, home, second) -> None:
    """One federation player per person: the club players of the same name at both clubs are
    one person (linked already when they share an account), everyone else their own."""
    linked = set(
        PlayerLink.objects.current().filter(federation=federation).values_list("player", flat=True)
    )
    people: dict[str, FederationPlayer] = {
        link.player.display_name: link.federation_player
        for link in PlayerLink.objects.current()
        .filter(federation=federation)
        .select_related("player", "federation_player")
    }
    for club in (home, second):
        for player in club.players.filter(is_active=True).order_by("pk"):
            if player.pk in linked:
                continue
            person = people.get(player.display_name)
            if person is None:
                person = services.create_player(
                    federation=federation, user=organiser, display_name=player.display_name
                )
                people[player.display_name] = person
            services.link_player(
                federation=federation, user=organiser, federation_player=person, player=player
            )


def ensure_demo_event(federation: Federation, *, organiser: Any, out: Any) -> None:
    """The event, for a demo federation made before events existed; nothing when it is there."""
    if FederationEvent.objects.filter(federation=federation, name=EVENT_NAME).exists():
        out.write(f"Found event {EVENT_NAME}")
        return
    build_demo_event(
        federation, host=Club.objects.get(slug=SECOND_CLUB_SLUG), organiser=organiser, out=out
    )
    rebuild_rankings(federation_id=federation.pk)


def build_demo_event(federation: Federation, *, host: Club, organiser: Any, out: Any):
    """The county championship: selected from the season tables, created at ``host``, its
    first round drawn and ``EVENT_MATCHES_PLAYED`` matches played (module docstring)."""
    event = events.create_event(
        federation=federation,
        user=organiser,
        name=EVENT_NAME,
        host_club=host,
        game="25",
        format=Format.KNOCKOUT,
        date=timezone.localdate(),
        rule=SelectionRule.TOP_N,
        quota=EVENT_QUOTA,
        settings={"table_size": 2, "is_public": True},
    )
    events.select_entrants(event=event, user=organiser)
    tournament = events.create_event_tournament(event=event, user=organiser)
    first = tournament_services.draw_next_round(tournament_id=tournament.pk, user=organiser)
    rng = random.Random(SEED)
    played = 0
    for match in first.matches.filter(is_bye=False).order_by("table")[:EVENT_MATCHES_PLAYED]:
        for game in match.games.filter(status=GameStatus.IN_PROGRESS):
            seats = len(game.side_of_seat)
            result = play_game(
                game.variant,
                seat_count=seats,
                sides=None,
                first_dealer=game.first_dealer,
                rules=HouseRules.from_dict(game.house_rules),
                levels=["club"] * seats,
                rng=rng,
            )
            for record in result.records:
                game_services.record_hand(game_id=game.pk, user=organiser, record=record)
        tournament_services.progress_match(match_id=match.pk, user=organiser)
        played += 1
    out.write(
        f"Created event {event.name} at {host.name}: {event.entrants.count()} entrants, "
        f"round 1 drawn, {played} matches played"
    )
    return event
