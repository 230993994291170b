"""Benchmark of the hall screen: how soon a change shows, and what an idle screen costs.

What it does: sets Django up on a throwaway database (as bench_hands_api.py: PostgreSQL when it
answers, else SQLite), seeds a drive of 16 players (round 1 released) with its hall link, and
starts a real server — gunicorn with threaded workers, as `make serve` — on loopback. Then:

1. *Update latency*: a screen polls ``GET /api/hall/<token>/`` every POLL_MS (read from
   static/hall/state.js) with If-None-Match, as the page does; an organiser changes the hall
   (``POST /api/tournaments/{id}/hall/clock/``, by device token, at a random moment between two
   polls) and the time from the change's answer to the first poll that sees it is recorded,
   ``SAMPLES`` times; it prints p50 and p95 (the issue asks for p95 under 2 s).
2. *Idle cost*: the queries behind one 304 (Django's test client in process, counted), the
   bytes of a 304 on the wire (its status line and headers, read from the socket) and so the
   bytes and queries a minute of one idle screen.

It asserts nothing about speed. Run: ``make bench``, or ``.venv/bin/python bench/bench_hall.py``.
"""

from __future__ import annotations

import http.client
import json
import os
import random
import re
import socket
import statistics
import subprocess
import sys
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.bench_hands_api import choose_database, set_up_django  # noqa: E402

SAMPLES = int(os.environ.get("JINK_BENCH_HALL_SAMPLES", "30"))


def poll_period_ms() -> int:
    source = (ROOT / "static" / "hall" / "state.js").read_text()
    return int(re.search(r"export const POLL_MS = (\d+);", source).group(1))


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def _start_server(port: int) -> subprocess.Popen:
    server = subprocess.Popen(
        [
            str(Path(sys.executable).parent / "gunicorn"),
            "config.wsgi",
            "--bind",
            f"127.0.0.1:{port}",
            "--workers",
            "2",
            "--worker-class",
            "gthread",
            "--threads",
            "4",
            "--log-level",
            "warning",
        ],
        cwd=ROOT,
        env={
            **os.environ,
            "DJANGO_ALLOWED_HOSTS": "127.0.0.1,testserver",
            "PYTHONWARNINGS": "ignore::UserWarning",  # whitenoise: no collectstatic in a bench
        },
    )
    for _ in range(100):
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.2):
                return server
        except OSError:
            time.sleep(0.1)
    server.kill()
    raise RuntimeError("gunicorn did not start")


def _seed():
    from accounts.services import issue_device_token
    from hall.services import create_hall_link
    from tests.clubs.factories import build_world, make_player
    from tournaments.evening import release_round
    from tournaments.services import create_tournament, draw_next_round

    world = build_world(slug="bench-hall")
    organiser = world.users["organiser"]
    players = [make_player(world.club, f"Bench player {index:02d}") for index in range(16)]
    drive = create_tournament(
        club=world.club,
        user=organiser,
        values={
            "name": "Bench drive",
            "game": "45",
            "format": "drive",
            "table_size": 4,
            "sides_per_table": 2,
            "round_count": 3,
            "private_draws": True,
        },
        entrants=[{"player": player.pk} for player in players],
    )
    draw_next_round(tournament_id=drive.pk, user=organiser)
    release_round(tournament_id=drive.pk, round_number=1, user=organiser)
    _link, token, _code = create_hall_link(tournament_id=drive.pk, user=organiser)
    _device, device_token = issue_device_token(user=organiser, device="bench")
    return drive.pk, token, device_token


class Screen(threading.Thread):
    """A hall screen: one conditional poll every ``period`` seconds; notes when each clock
    version it sees first arrived."""

    def __init__(self, port: int, token: str, period: float) -> None:
        super().__init__(daemon=True)
        self.port, self.path, self.period = port, f"/api/hall/{token}/", period
        self.etag = None
        self.seen: dict[str, float] = {}  # a running clock's end -> when first seen
        self.stopped = threading.Event()
        self.statuses: list[int] = []

    def run(self) -> None:
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=5)
        while not self.stopped.is_set():
            started = time.monotonic()
            headers = {"If-None-Match": self.etag} if self.etag else {}
            connection.request("GET", self.path, headers=headers)
            response = connection.getresponse()
            body = response.read()
            self.statuses.append(response.status)
            if response.status == 200:
                self.etag = response.getheader("ETag")
                clock = json.loads(body)["clock"]
                key = f"{clock['state']}:{clock['ends_at']}"
                self.seen.setdefault(key, time.monotonic())
            self.stopped.wait(max(0.0, self.period - (time.monotonic() - started)))


def _change(port: int, tournament_id: int, device_token: str, action: dict) -> tuple[str, float]:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
    connection.request(
        "POST",
        f"/api/tournaments/{tournament_id}/hall/clock/",
        body=json.dumps(action),
        headers={"Authorization": f"Token {device_token}", "Content-Type": "application/json"},
    )
    response = connection.getresponse()
    clock = json.loads(response.read())["clock"]
    done = time.monotonic()
    assert response.status == 200, response.status
    return f"{clock['state']}:{clock['ends_at']}", done


def _wire_bytes_of_304(port: int, token: str, etag: str) -> int:
    request = (
        f"GET /api/hall/{token}/ HTTP/1.1\r\nHost: 127.0.0.1\r\nIf-None-Match: {etag}\r\n"
        "Connection: close\r\n\r\n"
    ).encode()
    with socket.create_connection(("127.0.0.1", port)) as connection:
        connection.sendall(request)
        received = b""
        while chunk := connection.recv(65536):
            received += chunk
    assert received.startswith(b"HTTP/1.1 304"), received[:40]
    return len(received)


def run(description: str) -> None:
    from django.db import connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext

    tournament_id, token, device_token = _seed()
    period = poll_period_ms() / 1000
    print(f"database: {description}")
    print(f"the screen polls every {period:g} s (static/hall/state.js POLL_MS)")

    client = Client()
    first = client.get(f"/api/hall/{token}/")
    etag = first["ETag"]
    with CaptureQueriesContext(connection) as queries:
        idle = client.get(f"/api/hall/{token}/", HTTP_IF_NONE_MATCH=etag)
    assert idle.status_code == 304

    port = _free_port()
    server = _start_server(port)
    try:
        wire = _wire_bytes_of_304(port, token, etag)
        polls = round(60 / period)
        print(
            f"idle cost: {len(queries)} query a poll; a 304 is {wire} bytes on the wire "
            f"(status line and headers, no body); a minute of one idle screen: {polls} polls, "
            f"{polls * len(queries)} queries, {polls * wire / 1024:.1f} KB"
        )
        screen = Screen(port, token, period)
        screen.start()
        time.sleep(2 * period)
        latencies = []
        actions = [{"action": "start", "minutes": 20}, {"action": "extend", "minutes": 1}]
        for index in range(SAMPLES):
            time.sleep(random.uniform(0, period))  # a change at any moment between two polls
            key, done = _change(port, tournament_id, device_token, actions[index % 2])
            deadline = time.monotonic() + 10 * period
            while key not in screen.seen and time.monotonic() < deadline:
                time.sleep(0.01)
            if key in screen.seen:
                latencies.append(max(0.0, screen.seen[key] - done))
        screen.stopped.set()
        screen.join()
        latencies.sort()
        p95 = latencies[max(0, round(0.95 * len(latencies)) - 1)]
        print(
            f"update latency (organiser's change answered -> a polling screen has it), "
            f"{len(latencies)}/{SAMPLES} changes seen: p50 {statistics.median(latencies):.2f} s, "
            f"p95 {p95:.2f} s, max {latencies[-1]:.2f} s (gunicorn, gthread workers)"
        )
        print(
            f"polls while measuring: {len(screen.statuses)}, of which 304: "
            f"{screen.statuses.count(304)}, 200: {screen.statuses.count(200)}"
        )
    finally:
        server.terminate()
        server.wait(timeout=10)


def main() -> None:
    os.environ["DJANGO_STATIC_MANIFEST"] = "false"
    database_url, description, cleanup = choose_database()
    try:
        set_up_django(database_url)
        run(description)
    finally:
        cleanup()


if __name__ == "__main__":
    main()
