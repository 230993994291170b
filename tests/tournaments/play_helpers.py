"""Test helpers for the tournaments API: a club full of players and teams, clients, and play.

What it does: ``Event`` bundles one club (``tests.clubs.factories.build_world``) with as many
extra players and teams as a test needs, an API client per role (device tokens, as tablets use),
and ``call`` — one request with every ``transaction.on_commit`` callback run, so the chain
"hand recorded -> game finished -> match_progress_task (in process) -> next round filled" runs
exactly as in production. ``win_game`` plays a game to the end through the games API with
trick-winner records, letting a chosen side win; ``win_match`` wins every game a match needs;
``deciding_hand`` is one hand that ends a game of 25. ``start_game`` starts a game of 25 outside
any tournament; ``seeds_of``, ``by_lot`` and ``game_at`` say who was seeded where, the order of
a drawing of lots and which game a table of a round plays.

What it does not do: assert anything about the API (the tests do) or use the services directly
(``game_at`` reads the rows).

Terms: *side* — as in games: side i of a match's game is the match's i-th entrant (or side of
partnered individuals).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from django.test import TestCase
from rest_framework.test import APIClient

from clubs.models import Player, Team
from tests.clubs.factories import World, build_world, make_player, make_team
from tests.helpers import token_client
from tournaments.draw import ranking
from tournaments.models import Match


@dataclass
class Event:
    world: World
    players: list[Player]
    teams: list[Team] = field(default_factory=list)
    clients: dict = field(default_factory=dict)

    @property
    def club(self):
        return self.world.club

    def client(self, role: str = "organiser") -> APIClient:
        if role not in self.clients:
            self.clients[role] = token_client(self.world.users[role])
        return self.clients[role]

    def call(self, method: str, url: str, data=None, *, role: str = "organiser", **headers):
        """One request; every on-commit callback (the progress task) runs before returning."""
        client = self.client(role)
        with TestCase.captureOnCommitCallbacks(execute=True):
            return getattr(client, method)(url, data, format="json", headers=headers or None)

    def ok(self, method: str, url: str, data=None, *, status: int = 200, role="organiser"):
        response = self.call(method, url, data, role=role)
        assert response.status_code == status, (response.status_code, response.content[:2000])
        return response.json() if response.content else None

    def create_tournament(self, **body) -> dict:
        return self.ok("post", f"/api/clubs/{self.club.slug}/tournaments/", body, status=201)

    def draw(self, tournament_id: int) -> dict:
        return self.ok("post", f"/api/tournaments/{tournament_id}/rounds/", status=201)

    def rounds(self, tournament_id: int) -> list[dict]:
        return self.ok("get", f"/api/tournaments/{tournament_id}/rounds/")

    def standings(self, tournament_id: int) -> list[dict]:
        return self.ok("get", f"/api/tournaments/{tournament_id}/standings/")["standings"]

    def tournament(self, tournament_id: int) -> dict:
        return self.ok("get", f"/api/tournaments/{tournament_id}/")

    def game(self, game_id: int) -> dict:
        # Read as the organiser: a game of a round not yet released (a private draw) is theirs
        # alone (a scorekeeper gets 404 until the release).
        return self.ok("get", f"/api/games/{game_id}/")


def build_event(
    *, players: int = 8, teams: int = 0, team_size: int = 2, slug="the-local", public: bool = False
) -> Event:
    """A club with ``players`` players not in any team plus ``teams`` teams of fresh players."""
    world = build_world(public=public, slug=slug)
    # world.players[:2] form world.team; the tests use their own players and teams only.
    free = [make_player(world.club, f"Player {index:02d}") for index in range(1, players + 1)]
    made_teams = []
    for index in range(1, teams + 1):
        members = [
            make_player(world.club, f"Team {index:02d} member {position}")
            for position in range(team_size)
        ]
        made_teams.append(make_team(world.club, f"Team {index:02d}", members))
    return Event(world=world, players=free, teams=made_teams)


def _hand_for(game: dict, side: int) -> dict:
    """A trick-winner hand in which ``side`` takes every trick it needs (see ``win_game``)."""
    rules = game["house_rules"]
    sides = game["sides"]
    seat = sides[side]["seats"][0]
    totals = game["totals"]
    current = totals[str(side)] if isinstance(totals, dict) else totals[side]
    record: dict = {"dealer": game["next_dealer"], "trump": "S"}
    tricks = 5
    if rules["game_end"] == "at_trick" and rules.get("bids") is None:
        # 25: the hand stops at the trick where the side reaches the target.
        tricks = min(5, max(1, math.ceil((rules["target"] - current) / rules["trick_points"])))
    record["trick_winners"] = [seat] * tricks
    if rules.get("best_trump_bonus"):
        record["best_trump"] = {"seat": seat, "trick": 0}
    if rules.get("bids"):
        record["bid"] = {"seat": seat, "amount": max(rules["bids"])}
    return record


def win_game(event: Event, game_id: int, side: int, *, role: str = "scorekeeper") -> dict:
    """Record hands until ``side`` has won the game; returns the last hand's response."""
    game = event.game(game_id)
    last = None
    for _ in range(20):
        if game["status"] == "finished":
            assert game["winner"] == side, game
            return last
        record = _hand_for(game, side)
        last = event.ok("post", f"/api/games/{game_id}/hands/", record, status=201, role=role)
        game = event.game(game_id)
    raise AssertionError(f"game {game_id} did not finish")


def current_game(event: Event, tournament_id: int, match_id: int) -> dict | None:
    match = event.ok("get", f"/api/matches/{match_id}/")
    for game in match["games"]:
        if game["status"] == "in_progress":
            return game
    return None


def win_match(
    event: Event, tournament_id: int, match_id: int, winner_position: int, *, losses_first: int = 0
) -> dict:
    """Win match ``match_id`` for the entrant at ``winner_position`` (its side in every game).

    ``losses_first`` games are first won by the next entrant at the table (to test best-of-N).
    Returns the decided match.
    """
    match = event.ok("get", f"/api/matches/{match_id}/")
    entrants = match["entrants"]
    winner_side = _side_of_position(entrants, winner_position)
    other_side = next(
        _side_of_position(entrants, position)
        for position in range(len(entrants))
        if _side_of_position(entrants, position) != winner_side
    )
    for number in range(30):
        game = current_game(event, tournament_id, match_id)
        if game is None:
            break
        side = other_side if number < losses_first else winner_side
        win_game(event, game["id"], side)
    match = event.ok("get", f"/api/matches/{match_id}/")
    assert match["status"] == "decided", match
    return match


def _side_of_position(entrants: list[dict], position: int) -> int:
    """The game side of the entrant at ``position``: its partnered side, else its position."""
    entrant = entrants[position]
    return entrant["side"] if entrant["side"] is not None else position


def deciding_hand(game) -> dict:
    """One hand that ends a game of 25 (a ``Game`` row) at once: side 0's first seat takes every
    trick."""
    seat = game.side_of_seat.index(0)
    return {"dealer": game.next_dealer, "trump": "S", "trick_winners": [seat] * 5}


def start_game(event: Event, seats, stake: str = "0.20", teams=None) -> int:
    """A game of 25 of ``seats`` (players) outside any tournament, seat 0 dealing; its id."""
    body = {
        "game": "25",
        "seats": [player.pk for player in seats],
        "first_dealer": 0,
        "stake": stake,
    }
    if teams:
        body["teams"] = teams
    return event.ok(
        "post", f"/api/clubs/{event.club.slug}/games/", body, status=201, role="scorekeeper"
    )["id"]


def seeds_of(event: Event, tournament_id: int) -> dict[int, int]:
    """Entrant id -> seed, as the API lists the entrants."""
    entrants = event.ok("get", f"/api/tournaments/{tournament_id}/entrants/")
    return {entrant["id"]: entrant["seed"] for entrant in entrants}


def by_lot(seed: int, entrant_ids) -> list[int]:
    """Entrants in drawing-of-lots order (``ranking.lot``: higher first)."""
    return sorted(entrant_ids, key=lambda entrant: ranking.lot(seed, entrant), reverse=True)


def game_at(tournament_id: int, round_number: int, table: int) -> int:
    """The id of the game played at ``table`` in round ``round_number`` (one game a match)."""
    match = Match.objects.get(tournament_id=tournament_id, round__number=round_number, table=table)
    return match.match_games.get().game_id
