"""A night of tables through the REST API, with faults, and the proof that nothing went wrong.

What it does:
- ``prepare_night`` sets up, through the API, a club's players and a 25 drive of ``tables``
  tables of four (partners opposite, ``rounds`` rounds, auto advance) and draws round 1.
- ``play_night`` plays it: one thread per table (a tablet) records every hand of its game with an
  ``Idempotency-Key`` and the hand ``number``, retrying on a timeout or a dropped request with the
  same key; ``drop_rate`` of the requests are dropped at random, half before the server sees
  them, half after it answered (the answer is thrown away and the request retried). When a table's
  match is decided the tablet waits for the next round (drawn by the Celery worker) and plays on.
  ``pollers`` threads read the tournament's page, standings and bracket meanwhile, as players'
  phones do. A 503 (a fault met the request: config.middleware) is retried after its
  ``Retry-After`` and counted (``unavailable``); any other 5xx, or a 503 without ``Retry-After``,
  is an error. Which
  hand is played is a pluggable function ``choose_hand(game, rng) -> record``; the default,
  ``random_hand``, lets random seats take the tricks (and stops a 25 hand at the trick where a
  side reaches the target).
- ``verify_night`` proves, from the database (Django set up on it), that every hand the tablets
  believe stored is stored exactly once with that record, every game's fields equal an engine
  replay of its hands, every game's ledger sums to zero, every match is decided and the
  tournament finished, the standings the API serves equal a full recomputation, and every match's
  stored result (what the bracket shows) equals the match recomputed from its games.

What it does not do: start the stack (bench/bench_night.py and tests/hardening/test_night.py do)
or judge speed (the figures are printed by the bench).

Terms: *attempt* — one HTTP request; a hand may take several (retries); *latency* — of one attempt
that got an answer.
"""

from __future__ import annotations

import random
import threading
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field

import requests

TIMEOUT_SECONDS = 10
POLL_SECONDS = 5.0  # a phone on the standings page refreshes every few seconds


class Dropped(Exception):
    """A request lost on the way (before or after the server answered)."""


def random_hand(game: dict, rng: random.Random) -> dict:
    """A trick-winner record of a 25 game: random seats take the tricks."""
    rules = game["house_rules"]
    side_of = {seat: index for index, side in enumerate(game["sides"]) for seat in side["seats"]}
    totals = dict(game["totals"])
    winners = []
    for _ in range(5):
        seat = rng.choice(sorted(side_of))
        winners.append(seat)
        side = str(side_of[seat])
        totals[side] = totals.get(side, 0) + rules["trick_points"]
        if rules["game_end"] == "at_trick" and totals[side] >= rules["target"]:
            break
    return {"dealer": game["next_dealer"], "trump": rng.choice("SHDC"), "trick_winners": winners}


@dataclass
class Tally:
    """What the threads saw (shared, under ``lock``)."""

    lock: threading.Lock = field(default_factory=threading.Lock)
    hand_latencies: list[float] = field(default_factory=list)
    attempts: int = 0
    dropped_before: int = 0
    dropped_after: int = 0
    timeouts: int = 0
    retries: int = 0
    unavailable: int = 0
    replays: int = 0
    errors: list[str] = field(default_factory=list)
    polls: int = 0
    stored: dict[int, dict[int, dict]] = field(default_factory=dict)  # game -> number -> record

    def add(self, name: str, amount: int = 1) -> None:
        with self.lock:
            setattr(self, name, getattr(self, name) + amount)


class Tablet:
    """One device's HTTP session, with the random drops of the night."""

    def __init__(self, base_url: str, token: str, tally: Tally, rng: random.Random, drop_rate):
        self.base_url = base_url
        self.session = requests.Session()
        self.session.headers["Authorization"] = f"Token {token}"
        self.tally = tally
        self.rng = rng
        self.drop_rate = drop_rate

    def request(self, method: str, path: str, **arguments) -> requests.Response:
        roll = self.rng.random()
        if roll < self.drop_rate / 2:
            self.tally.add("dropped_before")
            raise Dropped("before")
        started = time.perf_counter()
        try:
            response = self.session.request(
                method, self.base_url + path, timeout=TIMEOUT_SECONDS, **arguments
            )
        except requests.RequestException as error:
            self.tally.add("timeouts")
            raise Dropped(str(error)) from error
        finally:
            self.tally.add("attempts")
        elapsed = time.perf_counter() - started
        if response.status_code >= 500 and not (
            response.status_code == 503 and response.headers.get("Retry-After")
        ):
            with self.tally.lock:
                self.tally.errors.append(f"{method} {path}: {response.status_code}")
        if roll < self.drop_rate:
            self.tally.add("dropped_after")
            raise Dropped("after")
        response.elapsed_seconds = elapsed
        return response

    def retrying(self, method: str, path: str, *, tries: int = 60, **arguments):
        for attempt in range(tries):
            try:
                response = self.request(method, path, **arguments)
            except Dropped:
                self.tally.add("retries")
                time.sleep(min(0.05 * (attempt + 1), 0.5))
                continue
            if response.status_code == 409 and "idempotency_in_progress" in response.text:
                self.tally.add("retries")
                time.sleep(0.1)
                continue
            if response.status_code == 503 and response.headers.get("Retry-After"):
                self.tally.add("unavailable")
                self.tally.add("retries")
                time.sleep(min(float(response.headers["Retry-After"]), 5.0))
                continue
            return response
        raise RuntimeError(f"{method} {path}: no answer after {tries} tries")

    def get(self, path: str) -> dict:
        response = self.retrying("GET", path)
        if response.status_code != 200:
            raise RuntimeError(f"GET {path}: {response.status_code} {response.text[:300]}")
        return response.json()


def prepare_night(base_url: str, token: str, *, slug: str, tables: int, rounds: int) -> dict:
    """Players, a 25 drive of ``tables`` tables of four, round 1 drawn; returns the tournament."""
    session = requests.Session()
    session.headers["Authorization"] = f"Token {token}"

    def ok(method: str, path: str, body=None, status: int = 201) -> dict:
        response = session.request(method, base_url + path, json=body, timeout=60)
        assert response.status_code == status, (path, response.status_code, response.text[:500])
        return response.json()

    players = [
        ok("POST", f"/api/clubs/{slug}/players/", {"display_name": f"Player {index:03d}"})["id"]
        for index in range(tables * 4)
    ]
    tournament = ok(
        "POST",
        f"/api/clubs/{slug}/tournaments/",
        {
            "name": "A night of 25",
            "game": "25",
            "format": "drive",
            "table_size": 4,
            "sides_per_table": 2,
            "round_count": rounds,
            "stake": "0.20",
            "auto_advance": True,
            "is_public": True,
            "lots_seed": 2026,
            "entrants": [{"player": player} for player in players],
        },
    )
    ok("POST", f"/api/tournaments/{tournament['id']}/rounds/")
    return tournament


def _play_table(
    tablet: Tablet, tournament_id: int, table: int, rounds: int, choose_hand, run: str
) -> None:
    tally = tablet.tally
    for round_number in range(1, rounds + 1):
        match = None
        while match is None:
            listing = tablet.get(
                f"/api/tournaments/{tournament_id}/matches/?round__number={round_number}"
                "&page_size=200"
            )
            match = next((m for m in listing["results"] if m["table"] == table), None)
            if match is None:
                time.sleep(1.0)  # a waiting tablet looks for its next table once a second
        while True:
            match = tablet.get(f"/api/matches/{match['id']}/")
            game_id = next(
                (game["id"] for game in match["games"] if game["status"] == "in_progress"), None
            )
            if game_id is None:
                break
            game = tablet.get(f"/api/games/{game_id}/")
            while game["status"] == "in_progress":
                number = game["hands_played"] + 1
                record = choose_hand(game, tablet.rng)
                key = f"{run}-{game_id}-{number}"
                response = tablet.retrying(
                    "POST",
                    f"/api/games/{game_id}/hands/",
                    json={"number": number, **record},
                    headers={"Idempotency-Key": key},
                )
                if response.status_code != 201:
                    with tally.lock:
                        tally.errors.append(
                            f"hand {game_id}/{number}: {response.status_code} {response.text[:200]}"
                        )
                    return
                with tally.lock:
                    tally.hand_latencies.append(response.elapsed_seconds)
                    tally.stored.setdefault(game_id, {})[number] = record
                    if response.headers.get("Idempotent-Replayed") == "true":
                        tally.replays += 1
                body = response.json()
                game = {
                    **game,
                    "totals": body["totals"],
                    "status": body["game"]["status"],
                    "next_dealer": body["game"]["next_dealer"],
                    "hands_played": number,
                }
            # Wait until the match has taken the game's result (the worker's task).
            for _ in range(120):
                match = tablet.get(f"/api/matches/{match['id']}/")
                if match["status"] == "decided" or any(
                    g["status"] == "in_progress" for g in match["games"]
                ):
                    break
                time.sleep(0.5)
            if match["status"] == "decided":
                break


def _poll(tablet: Tablet, tournament: dict, stop: threading.Event) -> None:
    # A player's phone: the tournament's page (HTML; public standings, so no login) and the
    # API's standings and bracket.
    paths = (
        f"/clubs/{tournament['club']}/tournaments/{tournament['id']}/",
        f"/api/tournaments/{tournament['id']}/standings/",
        f"/api/tournaments/{tournament['id']}/bracket/",
    )
    while not stop.is_set():
        for path in paths:
            try:
                response = tablet.request("GET", path)
            except Dropped:
                continue
            tablet.tally.add("polls")
            if response.status_code == 503:
                tablet.tally.add("unavailable")  # a fault met it: retried at the next poll
            elif response.status_code != 200:
                with tablet.tally.lock:
                    tablet.tally.errors.append(f"GET {path}: {response.status_code}")
        stop.wait(POLL_SECONDS)


def play_night(
    base_url: str,
    token: str,
    tournament: dict,
    *,
    tables: int,
    rounds: int,
    drop_rate: float = 0.05,
    pollers: int = 10,
    seed: int = 1,
    choose_hand: Callable[[dict, random.Random], dict] = random_hand,
) -> dict:
    """Play every table's games to the end; returns the figures (see the module docstring)."""
    tally = Tally()
    run = uuid.uuid4().hex[:8]
    stop = threading.Event()
    workers = [
        threading.Thread(
            target=_play_table,
            args=(
                Tablet(base_url, token, tally, random.Random(seed * 1000 + table), drop_rate),
                tournament["id"],
                table,
                rounds,
                choose_hand,
                run,
            ),
            name=f"table-{table}",
        )
        for table in range(1, tables + 1)
    ]
    watchers = [
        threading.Thread(
            target=_poll,
            args=(
                Tablet(base_url, token, tally, random.Random(-index), drop_rate),
                tournament,
                stop,
            ),
            name=f"phone-{index}",
        )
        for index in range(pollers)
    ]
    started = time.perf_counter()
    for thread in workers + watchers:
        thread.start()
    for thread in workers:
        thread.join(timeout=1800)
    seconds = time.perf_counter() - started
    stop.set()
    for thread in watchers:
        thread.join(timeout=30)
    latencies = sorted(tally.hand_latencies)

    def percentile(share: float) -> float:
        return latencies[min(len(latencies) - 1, int(share * len(latencies)))] if latencies else 0

    hands = sum(len(numbers) for numbers in tally.stored.values())
    return {
        "tables": tables,
        "rounds": rounds,
        "seconds": seconds,
        "hands": hands,
        "hands_per_second": hands / seconds if seconds else 0.0,
        "p50": percentile(0.50),
        "p95": percentile(0.95),
        "p99": percentile(0.99),
        "attempts": tally.attempts,
        "dropped_before": tally.dropped_before,
        "dropped_after": tally.dropped_after,
        "timeouts": tally.timeouts,
        "retries": tally.retries,
        "unavailable": tally.unavailable,
        "replays": tally.replays,
        "polls": tally.polls,
        "errors": tally.errors,
        "stored": tally.stored,
    }


def current_standings(
    base_url: str, token: str, tournament_id: int, *, seconds: float = 60
) -> dict:
    """The tournament's standings once its snapshot has caught up with the last hand.

    Standings are a snapshot the worker stores after each change (tournaments.snapshots), so
    right after the last hand the API may still serve the one before it with ``stale: true``;
    this asks again until ``stale`` is false, for at most ``seconds``, and returns the last answer
    (stale or not: ``verify_night`` then says what differs).
    """
    deadline = time.monotonic() + seconds
    while True:
        standings = requests.get(
            f"{base_url}/api/tournaments/{tournament_id}/standings/",
            headers={"Authorization": f"Token {token}"},
            timeout=30,
        ).json()
        if not standings["stale"] or time.monotonic() >= deadline:
            return standings
        time.sleep(0.5)


def verify_night(tournament_id: int, stored: dict[int, dict[int, dict]], standings: dict) -> dict:
    """The proof of the module docstring; returns counts, raises AssertionError on any gap."""
    from django.db.models import Sum

    from games import bridge
    from games.models import Game, Hand, LedgerEntry
    from rules_engine import canonical_record
    from tournaments import bridge as tournament_bridge
    from tournaments import progress
    from tournaments import standings as standings_module
    from tournaments.models import Match, Tournament
    from tournaments.play import load_matches

    tournament = Tournament.objects.get(pk=tournament_id)
    assert tournament.status in ("finished", "closed"), tournament.status
    undecided = Match.objects.filter(tournament=tournament).exclude(status="decided").count()
    assert undecided == 0, f"{undecided} matches not decided"
    games = list(Game.objects.filter(pk__in=stored).select_related("club"))
    assert len(games) == len(stored)
    hands_checked = 0
    for game in games:
        hands = list(Hand.objects.filter(game=game).order_by("number"))
        assert [hand.number for hand in hands] == sorted(stored[game.pk]), game.pk
        state = bridge.start_for(game)
        fields = None
        for hand in hands:
            assert hand.record == canonical_record(stored[game.pk][hand.number]), (game.pk, hand)
            state, fields, _ = bridge.play_state(state, hand.record)
            hands_checked += 1
        assert fields is not None
        assert (game.totals, game.status, game.winner_side, game.hands_played) == (
            fields["totals"],
            fields["status"],
            fields["winner_side"],
            fields["hands_played"],
        ), game.pk
        total = LedgerEntry.objects.filter(game=game).aggregate(total=Sum("amount_minor"))
        assert (total["total"] or 0) == 0, game.pk
    recomputed = standings_module.compute_standings(tournament)
    assert standings["standings"] == _plain(recomputed["standings"]), "standings differ"
    # The bracket: every match's stored result (what the bracket and the draws read) equals the
    # match recomputed from its games.
    match_ids = list(
        Match.objects.filter(tournament=tournament, is_bye=False).values_list("pk", flat=True)
    )
    for match in load_matches(match_ids):
        recomputed_result = progress.read_match(match, tournament).result
        stored_result = tournament_bridge.stored_result(match)
        assert recomputed_result is not None and stored_result is not None, match.pk
        assert recomputed_result.placings == stored_result.placings, match.pk
    return {"games": len(games), "hands": hands_checked, "matches": len(match_ids)}


def _plain(rows):
    """Standings rows as the API renders them (JSON values)."""
    import json

    from rest_framework.utils.encoders import JSONEncoder

    from tournaments.api.serializers import StandingOutput

    return json.loads(json.dumps(StandingOutput(rows, many=True).data, cls=JSONEncoder))
