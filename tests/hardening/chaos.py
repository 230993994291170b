"""The chaos night: the real stack, a seeded loop of faults, and the proof that it all converged.

What it gives:
- ``ChaosStack``: a private Redis (``services.PrivateRedis``, on a port of its own: the system
  Redis at 6379 is never touched), a Celery worker with beat and gunicorn (``services``' own
  starters, on the database Django's settings name), and the five faults: ``kill -9`` of one
  gunicorn worker (the master starts another), ``kill -9`` of the Celery worker's process group
  (the harness starts a new one at once, as a supervisor would), a Redis restart (killed, started
  again on the same port, empty), Redis stopped with ``SIGSTOP`` for ten seconds, and
  ``pg_terminate_backend`` of every connection to the database but the harness's own
  (``tests.jobs.stack.end_other_sessions``: gunicorn's and the worker's).
- ``ChaosLoop``: a thread that, at seeded random moments (a gap drawn in ``gap`` seconds),
  injects the faults: first each of the five once, in a seeded order, then seeded random ones
  until ``stop`` is set or ``limit`` faults were injected. It logs each fault with when it
  started and ended.
- ``WebhookReceiver``: a small HTTP server on 127.0.0.1 that answers 200 to every POST and keeps
  each delivery's ``Jink-Event-Id`` and body.
- ``converged(...)``: whether the night has settled after the faults — every snapshot current
  and equal to a recomputation, the season table current and equal to one, the settle-up
  stored, no task or announcement left in the outbox; ``webhooks_converged``: every delivery
  delivered and received. ``run_chaos_night(...)`` sets up a club, plays the night under the
  loop, closes the tournament and waits for both; ``check_chaos_night(...)`` asserts the proof
  (test_chaos_night.py says what), ``webhook_gaps(...)`` lists the webhook events lost.

What it does not do: play the night (bench/night.py's ``play_night`` does, with its drops and
retries) or decide how long a night is (the test and bench/bench_chaos.py do).

Terms: *fault* — one injected failure; *convergence time* — from the end of the last fault to
the moment ``converged`` first holds.
"""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import threading
import time
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import requests

from tests.hardening.services import (
    PrivateRedis,
    kill_group,
    start_gunicorn,
    start_worker,
    wait_for_port,
)
from tests.helpers import free_port
from tests.jobs.stack import wait_until

FAULTS = (
    "kill_gunicorn_worker",
    "kill_celery_worker",
    "restart_redis",
    "stop_redis",
    "end_database_connections",
)
STOP_SECONDS = 10.0
CONVERGENCE_SECONDS = 60
# The harness's processes see short sweeps, as the jobs' fault tests (tests/jobs/stack.py).
ENVIRONMENT = {
    "JINK_SWEEP_SECONDS": "2",
    "JINK_REPAIR_SECONDS": "2",
    "JINK_WEBHOOKS_ALLOW_LOOPBACK_HTTP": "true",
    "JINK_WEBHOOK_RETRY_DELAYS": "1,1,2,2,3,3,5,5,5,5",
}


class ChaosStack:
    def __init__(self, folder: Path, *, gunicorn_workers: int = 2) -> None:
        self.folder = folder
        self.gunicorn_workers = gunicorn_workers
        self.redis = PrivateRedis()
        self.port = free_port()
        self.worker: subprocess.Popen | None = None
        self.server: subprocess.Popen | None = None
        self.worker_starts = 0
        self.previous_environment: dict[str, str | None] = {}

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> None:
        # Read by services' starters (stack_environment); put back by stop().
        self.previous_environment = {key: os.environ.get(key) for key in ENVIRONMENT}
        os.environ.update(ENVIRONMENT)
        self.redis.start()
        self.start_worker()
        self.server = start_gunicorn(
            self.redis.url, self.folder, self.port, workers=self.gunicorn_workers
        )

    def start_worker(self) -> None:
        self.worker_starts += 1
        self.worker = start_worker(self.redis.url, self.folder, name=f"chaos{self.worker_starts}")

    def stop(self) -> None:
        for process in (self.server, self.worker):
            if process is not None:
                kill_group(process)
        self.server = self.worker = None
        self.redis.kill()
        for key, value in self.previous_environment.items():
            if value is None:
                os.environ.pop(key, None)
            else:
                os.environ[key] = value

    # The faults -------------------------------------------------------------------------------

    def gunicorn_workers_pids(self) -> list[int]:
        assert self.server is not None
        path = Path(f"/proc/{self.server.pid}/task/{self.server.pid}/children")
        return sorted(int(pid) for pid in path.read_text().split())

    def kill_gunicorn_worker(self, rng: random.Random) -> str:
        pids = self.gunicorn_workers_pids()
        pid = rng.choice(pids)
        os.kill(pid, signal.SIGKILL)
        return f"gunicorn worker {pid} of {len(pids)}"

    def kill_celery_worker(self, rng: random.Random) -> str:
        assert self.worker is not None
        pid = self.worker.pid
        os.killpg(pid, signal.SIGKILL)
        self.worker.wait(15)
        self.start_worker()
        return f"celery worker {pid}, restarted as {self.worker.pid}"

    def restart_redis(self, rng: random.Random) -> str:
        self.redis.kill()
        self.redis.start()
        return f"redis on {self.redis.port} restarted empty"

    def stop_redis(self, rng: random.Random) -> str:
        self.redis.signal(signal.SIGSTOP)
        try:
            time.sleep(STOP_SECONDS)
        finally:
            self.redis.signal(signal.SIGCONT)
        wait_for_port(self.redis.port)
        return f"redis stopped {STOP_SECONDS:.0f} s"

    def end_database_connections(self, rng: random.Random) -> str:
        from tests.jobs.stack import end_other_sessions

        return f"{end_other_sessions()} database connections ended"


@dataclass
class Fault:
    kind: str
    started: float
    ended: float
    detail: str


class ChaosLoop(threading.Thread):
    def __init__(
        self,
        stack: ChaosStack,
        seed: int,
        *,
        gap: tuple[float, float] = (2.0, 6.0),
        limit: int | None = None,
    ) -> None:
        super().__init__(name="chaos", daemon=True)
        self.stack = stack
        self.limit = limit
        self.seed = seed
        self.gap = gap
        self.stop = threading.Event()
        self.faults: list[Fault] = []
        self.errors: list[str] = []

    def run(self) -> None:
        rng = random.Random(self.seed)
        first = list(FAULTS)
        rng.shuffle(first)
        while not self.stop.wait(rng.uniform(*self.gap)):
            if self.limit is not None and len(self.faults) >= self.limit:
                return
            kind = first.pop(0) if first else rng.choice(FAULTS)
            started = time.monotonic()
            try:
                detail = getattr(self.stack, kind)(rng)
            except Exception as error:  # noqa: BLE001 - reported by the test, not swallowed
                self.errors.append(f"{kind}: {error!r}")
                detail = "failed"
            self.faults.append(Fault(kind, started, time.monotonic(), detail))

    @property
    def every_kind_injected(self) -> bool:
        return {fault.kind for fault in self.faults} == set(FAULTS)

    @property
    def last_fault_end(self) -> float:
        return max(fault.ended for fault in self.faults)


class WebhookReceiver:
    """Every POST answered 200; ``received``: (event id, event type, body) in arrival order."""

    def __init__(self) -> None:
        self.received: list[tuple[str, str, dict]] = []
        self.lock = threading.Lock()
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:  # noqa: N802 - http.server's name
                body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
                with receiver.lock:
                    receiver.received.append(
                        (
                            self.headers.get("Jink-Event-Id", ""),
                            self.headers.get("Jink-Event", ""),
                            json.loads(body or b"{}"),
                        )
                    )
                self.send_response(200)
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, *arguments) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", free_port()), Handler)
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.server.server_port}/hook"

    def __enter__(self) -> WebhookReceiver:
        self.thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self.server.shutdown()
        self.server.server_close()

    def event_ids(self) -> set[str]:
        with self.lock:
            return {event_id for event_id, _, _ in self.received}


def season_is_a_recomputation(club_id: int) -> bool:
    from seasons import league_table
    from seasons.models import SeasonSnapshot

    date_from, date_to = league_table.season_range()
    snapshot = SeasonSnapshot.objects.filter(
        club_id=club_id, date_from=date_from, date_to=date_to
    ).first()
    return (
        snapshot is not None
        and snapshot.data_stamp == league_table.data_stamp(club_id, date_from, date_to)
        and snapshot.rows == league_table.compute_season_rows(club_id, date_from, date_to)
    )


def converged(tournament_id: int) -> bool:
    """The standings snapshot, the season table, the settle-up and the outbox (tasks and
    announcements) have settled."""
    from django.db import close_old_connections

    from outbox.models import Announcement, PendingTask
    from settlements.models import Settlement
    from tests.jobs.stack import snapshot_is_a_full_recomputation
    from tournaments.models import Tournament

    close_old_connections()
    club_id = Tournament.objects.values_list("club_id", flat=True).get(pk=tournament_id)
    return (
        snapshot_is_a_full_recomputation(tournament_id)
        and season_is_a_recomputation(club_id)
        and Settlement.objects.filter(tournament_id=tournament_id).exists()
        and not PendingTask.objects.exists()
        and not Announcement.objects.exists()
    )


def webhooks_converged(receiver: WebhookReceiver) -> bool:
    """Every delivery stored is delivered and its event id was received."""
    from webhooks.models import DeliveryStatus, WebhookDelivery

    deliveries = WebhookDelivery.objects.values_list("event_id", "status")
    return (
        all(status == DeliveryStatus.DELIVERED for _, status in deliveries)
        and {str(event_id) for event_id, _ in deliveries} <= receiver.event_ids()
    )


def expected_events(tournament_id: int, game_ids) -> set[tuple[str, int]]:
    """The events the night must have announced, as (type, subject): every game finished (of
    ``game_ids``), match decided, round drawn and settle-up version stored."""
    from games.models import Game
    from settlements.models import Settlement
    from tournaments.models import Match, Round

    finished = Game.objects.filter(pk__in=list(game_ids), status="finished")
    expected = {("game.finished", game_id) for game_id in finished.values_list("pk", flat=True)}
    expected |= {
        ("match.decided", match_id)
        for match_id in Match.objects.filter(tournament_id=tournament_id, is_bye=False).values_list(
            "pk", flat=True
        )
    }
    expected |= {
        ("round.drawn", number)
        for number in Round.objects.filter(tournament_id=tournament_id).values_list(
            "number", flat=True
        )
    }
    expected |= {
        ("settlement.ready", version)
        for version in Settlement.objects.filter(tournament_id=tournament_id).values_list(
            "version", flat=True
        )
    }
    return expected


def received_events(receiver: WebhookReceiver) -> set[tuple[str, int]]:
    found: set[tuple[str, int]] = set()
    for _, event_type, body in receiver.received:
        data = body.get("data", {})
        if event_type == "game.finished":
            found.add((event_type, data["game"]))
        elif event_type == "match.decided":
            found |= {(event_type, match_id) for match_id in data["matches"]}
        elif event_type == "round.drawn":
            found.add((event_type, data["round"]))
        elif event_type == "settlement.ready":
            found.add((event_type, data["version"]))
    return found


def close_tournament(base_url: str, token: str, tournament_id: int, errors: list[str]) -> None:
    """Close through the API, retrying a 503 or a lost answer; a 409 after a lost answer is
    the close that already happened."""
    for _ in range(60):
        try:
            response = requests.post(
                f"{base_url}/api/tournaments/{tournament_id}/close/",
                headers={"Authorization": f"Token {token}"},
                timeout=15,
            )
        except requests.RequestException:
            time.sleep(0.5)
            continue
        if response.status_code == 503:
            time.sleep(float(response.headers["Retry-After"]))
            continue
        if response.status_code >= 500:
            errors.append(f"close: {response.status_code}")
        return
    errors.append("close: no answer")


def run_chaos_night(
    folder,
    *,
    tables: int,
    rounds: int,
    seed: int,
    pollers: int,
    gap,
    limit: int | None = None,
    gunicorn_workers: int = 2,
) -> dict:
    """Set up the club, start the stack and the chaos, play, close, wait for convergence;
    everything the assertions and the bench's figures need."""
    from accounts.services import issue_device_token
    from bench.night import current_standings, play_night, prepare_night
    from tests.clubs.factories import make_club, make_membership, make_user
    from webhooks.models import EVENT_TYPES, WebhookEndpoint

    club = make_club("night", public=True)
    organiser = make_user("organiser")
    make_membership(club, organiser, "organiser")
    _, token = issue_device_token(user=organiser, device="chaos")
    stack = ChaosStack(folder, gunicorn_workers=gunicorn_workers)
    with WebhookReceiver() as receiver:
        WebhookEndpoint.objects.create(
            club=club, url=receiver.url, secret="chaos-secret", events=list(EVENT_TYPES)
        )
        try:
            stack.start()
            tournament = prepare_night(
                stack.base_url, token, slug="night", tables=tables, rounds=rounds
            )
            chaos = ChaosLoop(stack, seed, gap=gap, limit=limit)
            chaos.start()
            figures = play_night(
                stack.base_url,
                token,
                tournament,
                tables=tables,
                rounds=rounds,
                drop_rate=0.05,
                pollers=pollers,
                seed=seed,
            )
            # Every kind of fault at least once, even when the play was quicker than them.
            wait_until(lambda: chaos.every_kind_injected, 120, interval=0.5)
            chaos.stop.set()
            chaos.join(60)
            close_tournament(stack.base_url, token, tournament["id"], figures["errors"])
            start = max(chaos.last_fault_end, time.monotonic())
            settled = wait_until(lambda: converged(tournament["id"]), CONVERGENCE_SECONDS)
            converged_after = time.monotonic() - chaos.last_fault_end if settled else None
            standings = current_standings(stack.base_url, token, tournament["id"])
            hooks = wait_until(
                lambda: webhooks_converged(receiver),
                max(1.0, start + CONVERGENCE_SECONDS - time.monotonic()),
            )
            hooks_after = time.monotonic() - chaos.last_fault_end if hooks else None
        finally:
            stack.stop()
        # Django logs every 500 it answers ("Internal Server Error: <path>"), also those whose
        # answer no client read (a dropped or timed-out request).
        log = (Path(folder) / "gunicorn.log").read_text(errors="replace")
        return {
            "server_errors": [line for line in log.splitlines() if "Internal Server Error" in line],
            "tournament": tournament,
            "figures": figures,
            "faults": chaos.faults,
            "chaos_errors": chaos.errors,
            "converged_after": converged_after,
            "webhooks_after": hooks_after,
            "standings": standings,
            "receiver": receiver,
        }


def check_chaos_night(night: dict) -> dict:
    """The assertions of the module docstring but the webhooks' (``webhook_gaps``); returns the
    proof's counts."""
    from bench.night import verify_night
    from games.models import Hand
    from settlements.models import Settlement
    from settlements.settle_up import settle_event

    figures, tournament_id = night["figures"], night["tournament"]["id"]
    assert night["chaos_errors"] == []
    assert figures["errors"] == []  # no 500, no hand refused
    assert night["server_errors"] == []  # no 500 in the server's log either
    assert night["converged_after"] is not None, "not converged within 60 s of the last fault"
    proof = verify_night(tournament_id, figures["stored"], night["standings"])
    intended = {(game, number) for game, numbers in figures["stored"].items() for number in numbers}
    rows = list(Hand.objects.filter(game_id__in=figures["stored"]).values_list("game_id", "number"))
    losses, duplicates = len(intended - set(rows)), len(rows) - len(intended & set(rows))
    assert (losses, duplicates) == (0, 0)
    versions = list(
        Settlement.objects.filter(tournament_id=tournament_id).values_list("version", "fingerprint")
    )
    assert [version for version, _ in versions] == list(range(1, len(versions) + 1))
    assert len({fingerprint for _, fingerprint in versions}) == len(versions) >= 1
    assert settle_event(tournament_id=tournament_id) is None  # nothing left to settle
    return {**proof, "losses": losses, "duplicates": duplicates, "settlements": len(versions)}


def webhook_gaps(night: dict) -> dict:
    """What the receiver should have and has not: deliveries stored but not delivered in time or
    not received (by event id), and events of the night (``expected_events``) that no delivery
    carried (lost before a delivery was stored). Empty lists: nothing lost."""
    from webhooks.models import WebhookDelivery

    receiver = night["receiver"]
    stored_ids = {
        str(event_id) for event_id in WebhookDelivery.objects.values_list("event_id", flat=True)
    }
    expected = expected_events(night["tournament"]["id"], night["figures"]["stored"])
    return {
        "late": [] if night["webhooks_after"] is not None else ["not all delivered in 60 s"],
        "not_received": sorted(stored_ids - receiver.event_ids()),
        "never_stored": sorted(expected - received_events(receiver)),
        "deliveries": len(stored_ids),
        "events": len(expected),
        "posts": len(receiver.received),
    }
