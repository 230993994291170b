"""``manage.py load_demo``: demo data to try Jink with, safe to run any number of times.

What it does: makes sure the demo users (``organiser``, ``scorekeeper``, ``player``, all with the
password ``DEMO_PASSWORD``, printed at the end), the demo club "The Hole in the Wall"
(``hole-in-the-wall``: EUR, Europe/Dublin, game 25, public standings), its memberships, 24
players and a few teams exist, then demo games, a tournament and three club nights played by the
computer players (web/demo_nights.py), then a federation of the demo club and a second club,
its players linked across the clubs, nights played, a league half played (web/demo_league.py:
its captains are the demo users and ``noreen``, made there with the demo password) and the
rankings built (web/demo_federation.py; ``--admin USERNAME`` makes that account one of its
organisers). Each step finds what an earlier run created before creating anything, so a second
run changes nothing (except resetting the demo passwords).

What it does not do: touch anything outside the demo clubs, the demo federation and the three
demo users and ``noreen`` (the ``--admin`` account only gets the federation's organiser role;
the demo club's Bridget Kelly is linked to the ``organiser`` account, the league's captain), or
create a superuser (``manage.py createsuperuser`` does).

Extending it: write ``def ensure_<things>(demo: DemoData, out) -> None`` using the services of
your app, and append it to ``STEPS``; later steps see what earlier ones put in ``demo``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand
from django.db import transaction

from clubs import services
from clubs.models import Club, Membership, Player, Role, Team
from games.demo import ensure_games
from tournaments.demo import ensure_tournament
from web.demo_federation import FEDERATION_SLUG, ensure_demo_federation
from web.demo_league import LEAGUE_SLUG
from web.demo_nights import ensure_demo_nights

DEMO_PASSWORD = "jink-demo-2026"
DEMO_CLUB_SLUG = "hole-in-the-wall"
DEMO_USERS = {"organiser": Role.ORGANISER, "scorekeeper": Role.SCOREKEEPER, "player": Role.PLAYER}
DEMO_PLAYER_NAMES = [
    "Mary Byrne",
    "Seán Murphy",
    "Bridget Kelly",
    "Paddy O'Brien",
    "Nora Walsh",
    "Tom Ryan",
    "Kathleen Doyle",
    "Mick Brennan",
    "Siobhán Daly",
    "Jimmy Nolan",
    "Peggy Keane",
    "Declan Moran",
    "Aoife Kavanagh",
    "Liam Gallagher",
    "Maureen Quinn",
    "Frank Hogan",
    "Eileen Fitzgerald",
    "Gerry Whelan",
    "Úna Dunne",
    "Christy Power",
    "Rita Lynch",
    "Dessie Carroll",
    "Josie Flanagan",
    "Packie Hayes",
]
# Which demo player each demo account is.
DEMO_LINKED_PLAYERS = {"player": "Mary Byrne", "scorekeeper": "Seán Murphy"}
DEMO_TEAMS = {
    "The Knaves": ["Mary Byrne", "Seán Murphy"],
    "Five Fingers": ["Bridget Kelly", "Paddy O'Brien"],
    "Robbers": ["Nora Walsh", "Tom Ryan"],
    "Ace of Hearts": ["Kathleen Doyle", "Mick Brennan"],
    "Three Jinks": ["Siobhán Daly", "Jimmy Nolan", "Peggy Keane"],
    "Half Past Nine": ["Declan Moran", "Aoife Kavanagh", "Liam Gallagher"],
}


@dataclass
class DemoData:
    """What the steps have found or created so far, for the steps after them."""

    users: dict = field(default_factory=dict)
    club: Club | None = None
    players: dict[str, Player] = field(default_factory=dict)
    teams: dict[str, Team] = field(default_factory=dict)
    admin_username: str | None = None
    password: str = DEMO_PASSWORD
    """The demo accounts' password (an account a later step makes gets it too)."""


def ensure_users(demo: DemoData, out) -> None:
    user_model = get_user_model()
    for username in DEMO_USERS:
        user, created = user_model.objects.get_or_create(username=username)
        # Reset every run, so the printed password always works.
        user.set_password(DEMO_PASSWORD)
        user.save()
        demo.users[username] = user
        out.write(f"{'Created' if created else 'Found'} user {username}")


def ensure_club(demo: DemoData, out) -> None:
    club = Club.objects.filter(slug=DEMO_CLUB_SLUG).first()
    if club is None:
        club = services.create_club(
            user=demo.users["organiser"],
            name="The Hole in the Wall",
            slug=DEMO_CLUB_SLUG,
            currency="EUR",
            time_zone="Europe/Dublin",
            default_game="25",
            public_standings=True,
        )
        out.write(f"Created club {club.name}")
    else:
        out.write(f"Found club {club.name}")
    demo.club = club


def ensure_memberships(demo: DemoData, out) -> None:
    for username, role in DEMO_USERS.items():
        membership = Membership.objects.filter(club=demo.club, user=demo.users[username]).first()
        if membership is None:
            services.add_membership(club=demo.club, username=username, role=role)
        elif membership.role != role:
            services.change_membership_role(membership=membership, role=role)
    out.write(f"Memberships: {', '.join(f'{name} ({role})' for name, role in DEMO_USERS.items())}")


def ensure_players(demo: DemoData, out) -> None:
    existing = {player.display_name.lower(): player for player in demo.club.players.all()}
    linked = {name: username for username, name in DEMO_LINKED_PLAYERS.items()}
    created = 0
    for name in DEMO_PLAYER_NAMES:
        player = existing.get(name.lower())
        if player is None:
            player = services.add_player(
                club=demo.club, display_name=name, username=linked.get(name)
            )
            created += 1
        demo.players[name] = player
    out.write(f"Players: {len(DEMO_PLAYER_NAMES)} ({created} created)")


def ensure_teams(demo: DemoData, out) -> None:
    existing = {team.name.lower(): team for team in demo.club.teams.all()}
    created = 0
    for name, member_names in DEMO_TEAMS.items():
        team = existing.get(name.lower())
        if team is None:
            team = services.create_team(
                club=demo.club,
                name=name,
                member_ids=[demo.players[member].pk for member in member_names],
            )
            created += 1
        demo.teams[name] = team
    out.write(f"Teams: {len(DEMO_TEAMS)} ({created} created)")


STEPS: list[Callable[[DemoData, object], None]] = [
    ensure_users,
    ensure_club,
    ensure_memberships,
    ensure_players,
    ensure_teams,
    ensure_games,
    ensure_tournament,  # tournaments/demo.py: keep it after the games step (it plays games)
    # web/demo_nights.py: club nights the computer players play; after the games step, which
    # adds its games only to a club without any.
    ensure_demo_nights,
    # web/demo_federation.py: a second club and the county board; after the nights, so the
    # demo club's own nights stay before it joined.
    ensure_demo_federation,
]


class Command(BaseCommand):
    help = "Create (or complete) the demo club, users, players and teams. Safe to run again."

    def add_arguments(self, parser) -> None:
        parser.add_argument(
            "--admin",
            default=None,
            help="An existing account to make an organiser of the demo federation.",
        )

    def handle(self, *args, **options) -> None:
        demo = DemoData(admin_username=options["admin"])
        with transaction.atomic():
            for step in STEPS:
                step(demo, self.stdout)
        self.stdout.write(
            self.style.SUCCESS(
                f"Demo ready: club /api/clubs/{DEMO_CLUB_SLUG}/. Log in as "
                f"{', '.join(DEMO_USERS)} with the password {DEMO_PASSWORD!r}. Federation: "
                f"/federations/{FEDERATION_SLUG}/ (its organisers), ranking "
                f"/f/{FEDERATION_SLUG}/rankings/, league "
                f"/f/{FEDERATION_SLUG}/leagues/{LEAGUE_SLUG}/."
            )
        )
