"""Test helpers for games: a club with players in every role, token clients, game builders.

What it does: ``Table`` bundles one club (from ``tests.clubs.factories.build_world``), extra
players so every formation can be seated, and an API client per role that authenticates the way
tablets do (a device token); ``new_game`` starts a game through the API and ``post_hand`` records
a hand. Used by every test module of tests/games.

What it does not do: assert anything about the API (the tests do).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from rest_framework.test import APIClient

from clubs.models import Club, Player
from tests.clubs.factories import World, build_world, make_player
from tests.helpers import token_client

EXTRA_PLAYER_NAMES = ("Fin", "Gus", "Hal", "Ida", "Jo")


@dataclass
class Table:
    world: World
    players: list[Player]
    clients: dict[str, APIClient] = field(default_factory=dict)

    @property
    def club(self) -> Club:
        return self.world.club

    def client(self, role: str = "scorekeeper") -> APIClient:
        if role not in self.clients:
            self.clients[role] = token_client(self.world.users[role])
        return self.clients[role]

    def player_ids(self, count: int) -> list[int]:
        return [player.pk for player in self.players[:count]]

    def new_game(self, game: str, seats: int | list[int], *, role: str = "scorekeeper", **body):
        """Start a game through the API: ``seats`` is a count (the first players) or ids."""
        seat_ids = self.player_ids(seats) if isinstance(seats, int) else seats
        payload = {"game": game, "seats": seat_ids, **body}
        response = self.client(role).post(
            f"/api/clubs/{self.club.slug}/games/", payload, format="json"
        )
        assert response.status_code == 201, response.json()
        return response.json()

    def post_hand(self, game_id: int, record: dict, *, role: str = "scorekeeper", **headers):
        return self.client(role).post(
            f"/api/games/{game_id}/hands/", record, format="json", headers=headers
        )


def build_table(*, public: bool = False, slug: str = "the-local") -> Table:
    world = build_world(public=public, slug=slug)
    players = list(world.players) + [make_player(world.club, name) for name in EXTRA_PLAYER_NAMES]
    return Table(world=world, players=players)
