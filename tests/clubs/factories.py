"""Test data builders for clubs: users, clubs with members in every role, players, teams.

What it does: small functions that write rows directly (no services), so tests of the services
and the API start from a known state; and ``build_world``, the one club with a user in every role
that the permission matrix and the API tests share; ``clubs_snapshot``, every row the clubs
services write, to prove a refused change stored nothing. Later apps extend ``World`` (add fields
and ``path_values`` entries: a game id, a tournament id) so the matrix can fill their routes.

What it does not do: test anything, or go through the API.

Terms: *role name* — "anonymous", "outsider" (logged in, no role in the club), "player",
"scorekeeper", "organiser".
"""

from __future__ import annotations

from dataclasses import dataclass, field

from django.contrib.auth import get_user_model

from clubs.models import Club, Membership, Player, Role, Team, TeamMember

ROLE_NAMES = ("anonymous", "outsider", "player", "scorekeeper", "organiser")


def make_user(username: str, **fields):
    """An account without a usable password: hashing one costs ~0.3 s, and API tests
    authenticate with ``force_authenticate`` instead."""
    user = get_user_model()(username=username, **fields)
    user.set_unusable_password()
    user.save()
    return user


def make_club(slug: str = "the-local", *, public: bool = False, **fields) -> Club:
    values = {
        "name": slug.replace("-", " ").title(),
        "currency": "EUR",
        "time_zone": "Europe/Dublin",
        "default_game": "25",
        "public_standings": public,
        **fields,
    }
    return Club.objects.create(slug=slug, **values)


def make_membership(club: Club, user, role: str) -> Membership:
    return Membership.objects.create(club=club, user=user, role=role)


def make_player(club: Club, display_name: str, **fields) -> Player:
    return Player.objects.create(club=club, display_name=display_name, **fields)


def make_team(club: Club, name: str, players: list[Player], **fields) -> Team:
    team = Team.objects.create(club=club, name=name, **fields)
    for position, player in enumerate(players):
        TeamMember.objects.create(team=team, player=player, position=position)
    return team


@dataclass
class World:
    """One club seen by a user in each role, with objects of every kind to address."""

    club: Club
    users: dict[str, object]  # role name -> user (None for anonymous)
    players: list[Player]
    team: Team
    spare_membership: Membership  # a plain member's membership, safe to change or remove
    spare_user: object  # an account with no role in the club
    extra: dict = field(default_factory=dict)  # what later apps add (games, tournaments, ...)

    @property
    def player(self) -> Player:
        """A player that no team refers to."""
        return self.players[-1]

    def path_values(self) -> dict[str, object]:
        """Values for the path parameters of every route (by parameter name)."""
        return {
            "slug": self.club.slug,
            "player_id": self.player.pk,
            "team_id": self.team.pk,
            "membership_id": self.spare_membership.pk,
            **self.extra.get("path_values", {}),
        }


def build_world(*, public: bool = False, slug: str = "the-local") -> World:
    club = make_club(slug, public=public)
    users = {"anonymous": None, "outsider": make_user(f"{slug}-outsider")}
    for role in (Role.PLAYER, Role.SCOREKEEPER, Role.ORGANISER):
        users[str(role)] = make_user(f"{slug}-{role}")
        make_membership(club, users[str(role)], role)
    spare_member = make_user(f"{slug}-spare-member")
    spare_membership = make_membership(club, spare_member, Role.PLAYER)
    players = [make_player(club, name) for name in ("Ann", "Bill", "Cait", "Dan", "Eve")]
    team = make_team(club, "Ann and Bill", players[:2])
    return World(
        club=club,
        users=users,
        players=players,
        team=team,
        spare_membership=spare_membership,
        spare_user=make_user(f"{slug}-newcomer"),
    )


def clubs_snapshot() -> tuple:
    """Every row the clubs services write, to compare before and after a refused change."""
    return (
        list(Club.objects.order_by("pk").values()),
        list(Membership.objects.order_by("pk").values()),
        list(Player.objects.order_by("pk").values()),
        list(Team.objects.order_by("pk").values()),
        list(TeamMember.objects.order_by("pk").values()),
    )
