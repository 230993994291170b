"""A club night played through the REST API by computer players: ``simulate_night``.

What it does: with an API client (``HttpApi`` for a running server over real HTTP, or
``InProcessApi`` for Django's test client in this process), starts one game per table in a club
(``POST /api/clubs/{slug}/games/``) with the club's active players, then plays them hand by hand
in turns round the tables: the computer players of ``computer_players`` play each hand, and the
hand goes to ``POST /api/games/{id}/hands/`` as a card-by-card record (or, for every other hand
when ``trick_winner_share`` asks, as a trick-winner entry), the server checking it in the engine as
it checks a tablet's. The next dealer and the totals come from the server's answers. Between two
posts it waits ``HAND_SECONDS / speed`` (``speed`` 0: no wait), like scorekeepers at real tables.
Returns a ``NightReport`` (games, hands, refusals, the slowest answer). Issue 14 uses it as its
load generator; ``manage.py simulate_night`` is the thin command.

What it does not do: create clubs, players or accounts (the club must have enough active
players), or retry a refused hand (a refusal is counted and that table stops).

Terms: *format*: "<game>-<seats>" (each for themselves: "45-3", "25-4", "110-3") or
"<game>-<n>v<n>" (partners: "45-2v2"); *table*: one game.
"""

from __future__ import annotations

import json
import random
import time
import urllib.error
import urllib.request
from dataclasses import dataclass, field
from typing import Any, Protocol

from computer_players import HandInProgress, make_player, play_hand, trick_winner_entry
from computer_players.driver import shuffled_deck
from rules_engine import HouseRules, new_game

HAND_SECONDS = 60.0
"""How long a hand takes at a real table; ``speed`` divides it."""


class Api(Protocol):
    def request(self, method: str, path: str, body: Any = None) -> tuple[int, Any]: ...


class HttpApi:
    """The real HTTP API of a running server (``base_url``), authenticated by a token."""

    def __init__(self, base_url: str, *, token: str | None = None) -> None:
        self.base_url = base_url.rstrip("/")
        self.token = token

    @classmethod
    def log_in(cls, base_url: str, username: str, password: str) -> HttpApi:
        api = cls(base_url)
        status, body = api.request(
            "POST", "/api/auth/token/", {"username": username, "password": password}
        )
        if status != 200:
            raise RuntimeError(f"log-in refused ({status}): {body}")
        api.token = body["token"]
        return api

    def request(self, method: str, path: str, body: Any = None) -> tuple[int, Any]:
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(self.base_url + path, data=data, method=method)
        request.add_header("Accept", "application/json")
        if data is not None:
            request.add_header("Content-Type", "application/json")
        if self.token:
            request.add_header("Authorization", f"Token {self.token}")
        try:
            with urllib.request.urlopen(request, timeout=30) as response:
                return response.status, _json(response.read())
        except urllib.error.HTTPError as error:
            return error.code, _json(error.read())


class InProcessApi:
    """The same API through Django's test client, in this process (tests, demos)."""

    def __init__(self, user: Any) -> None:
        from django.test import Client

        from accounts.services import issue_device_token

        _, token = issue_device_token(user=user, device="simulate_night")
        self.client = Client(HTTP_AUTHORIZATION=f"Token {token}")

    def request(self, method: str, path: str, body: Any = None) -> tuple[int, Any]:
        if body is None:
            response = self.client.generic(method, path)
        else:
            response = self.client.generic(
                method, path, json.dumps(body), content_type="application/json"
            )
        return response.status_code, _json(response.content)


def _json(content: bytes) -> Any:
    try:
        return json.loads(content or b"null")
    except ValueError:
        return content.decode(errors="replace")


@dataclass
class NightReport:
    games: list[int] = field(default_factory=list)
    finished: int = 0
    hands: int = 0
    refusals: list[str] = field(default_factory=list)
    slowest_seconds: float = 0.0


def parse_format(text: str) -> tuple[str, int, list[list[int]] | None]:
    """(game, seats, teams) of a format such as "45-3" or "45-2v2"."""
    try:
        game, shape = text.rsplit("-", 1)
        if "v" in shape:
            size, count = int(shape.split("v")[0]), len(shape.split("v"))
            seats = size * count
            return game, seats, [list(range(side, seats, count)) for side in range(count)]
        return game, int(shape), None
    except ValueError:
        raise ValueError(f"format {text!r}: use <game>-<seats> or <game>-<n>v<n>") from None


@dataclass
class _Table:
    game_id: int
    rules: HouseRules
    seats: int
    side_of_seat: tuple[int, ...]
    teams: list[list[int]] | None
    players: list
    next_dealer: int
    totals: tuple[int, ...]
    hands: int = 0
    done: bool = False


def simulate_night(
    *,
    api: Api,
    club_slug: str,
    tables: int,
    game_format: str = "45-3",
    speed: float = 0.0,
    levels: tuple[str, ...] = ("club", "easy"),
    trick_winner_share: float = 0.0,
    seed: int | None = None,
    out: Any = None,
) -> NightReport:
    """Play ``tables`` games of ``game_format`` in the club through ``api`` (see the module)."""
    rng = random.Random(seed)
    game, seats, teams = parse_format(game_format)
    status, players = api.request("GET", f"/api/clubs/{club_slug}/players/?page_size=500")
    if status != 200:
        raise RuntimeError(f"cannot list the club's players ({status}): {players}")
    rows = players["results"] if isinstance(players, dict) else players
    player_ids = [row["id"] for row in rows if row.get("is_active", True)]
    if len(player_ids) < seats:
        raise RuntimeError(f"the club has {len(player_ids)} active players; a table needs {seats}")
    report = NightReport()
    open_tables: list[_Table] = []
    for _ in range(tables):
        seated = rng.sample(player_ids, seats)
        body: dict[str, Any] = {"game": game, "seats": seated, "first_dealer": rng.randrange(seats)}
        if teams is not None:
            body["teams"] = teams
        status, created = api.request("POST", f"/api/clubs/{club_slug}/games/", body)
        if status != 201:
            raise RuntimeError(f"cannot start a game ({status}): {created}")
        rules = HouseRules.from_dict(created["house_rules"])
        state = new_game(game, seats, sides=teams, rules=rules)
        open_tables.append(
            _Table(
                game_id=created["id"],
                rules=rules,
                seats=seats,
                side_of_seat=state.side_of_seat,
                teams=teams,
                players=[
                    make_player(rng.choice(levels), rng.randrange(1 << 30)) for _ in range(seats)
                ],
                next_dealer=created.get("next_dealer", body["first_dealer"]),
                totals=tuple(_per_side(created.get("totals"), len(state.sides))),
            )
        )
        report.games.append(created["id"])
    pause = HAND_SECONDS / speed / max(1, tables) if speed else 0.0
    while any(not table.done for table in open_tables):
        for table in open_tables:
            if table.done:
                continue
            _play_one_hand(api, table, rng, trick_winner_share, report)
            if pause:
                time.sleep(pause)
    report.finished = sum(1 for table in open_tables if table.done and table.hands)
    if out is not None:
        out.write(
            f"{len(report.games)} games, {report.hands} hands, "
            f"{len(report.refusals)} refused, slowest answer "
            f"{report.slowest_seconds * 1000:.0f} ms"
        )
    return report


def _per_side(totals: Any, sides: int) -> list[int]:
    if isinstance(totals, dict):
        return [totals.get(str(side), 0) for side in range(sides)]
    if isinstance(totals, list) and len(totals) == sides:
        return totals
    return [0] * sides


def _play_one_hand(
    api: Api, table: _Table, rng: random.Random, trick_winner_share: float, report: NightReport
) -> None:
    hand = HandInProgress(
        rules=table.rules,
        seat_count=table.seats,
        dealer=table.next_dealer,
        deck=shuffled_deck(rng),
        totals=table.totals,
        side_of_seat=table.side_of_seat,
    )
    play_hand(hand, table.players)
    record = hand.record()
    if rng.random() < trick_winner_share and hand.tricks:
        # The server's engine works the trick winners out again from this entry.
        state = new_game(
            table.rules.game,
            table.seats,
            sides=table.teams,
            rules=table.rules,
            first_dealer=table.next_dealer,
        )
        state = _with_totals(state, table)
        result, _ = state.record(record)
        record = trick_winner_entry(record, result)
    started = time.perf_counter()
    status, answer = api.request("POST", f"/api/games/{table.game_id}/hands/", record)
    report.slowest_seconds = max(report.slowest_seconds, time.perf_counter() - started)
    if status != 201:
        report.refusals.append(f"game {table.game_id} hand {table.hands + 1}: {status} {answer}")
        table.done = True
        return
    report.hands += 1
    table.hands += 1
    after = answer["game"]
    table.next_dealer = after["next_dealer"]
    table.totals = tuple(_per_side(answer["totals"], len(table.totals)))
    table.done = after["status"] == "finished"


def _with_totals(state: Any, table: _Table) -> Any:
    """The engine's state at this table's totals (for building a trick-winner entry)."""
    from dataclasses import replace

    return replace(
        state,
        totals=table.totals,
        next_dealer=table.next_dealer,
        has_scored=tuple(total != 0 for total in table.totals),
    )
