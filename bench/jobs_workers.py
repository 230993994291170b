"""Part 5 of the jobs benchmark (``bench/bench_jobs.py``; not a bench itself): a hand accepted
→ fresh standings with real workers, in each documented worker layout.

What it does: ``settle_what_nobody_consumed`` first does what parts 1-4's unconsumed messages
would have done, so part 5 measures only its own work; ``hand_to_fresh_standings(layout, ...)``
starts a stack of its own (``tests.jobs.stack.Stack``: Redis, workers, beat, at production sweep
intervals) and a webhook receiver on loopback, plays a swiss through the API round by round (a
burst of the round's hands, then sampled hands one at a time, each awaited until its standings
are fresh), and prints per round the p50 and p95, each task kind's time from the workers' logs
(``TASK_KINDS``), what the standings refreshes did and what the sweep stored.

What it does not do: decide which layouts run (``JINK_BENCH_WORKER_LAYOUTS``, read in
``bench.jobs_common``) or assert anything about speed.

Terms: *layout*: ``one`` (one worker on both queues, concurrency 1) or ``serve`` (`make serve`'s:
a default worker and a standings worker of two processes each); *fresh*: the match decided and
the standings snapshot at the tournament's data version.
"""

from __future__ import annotations

import http.server
import re
import shutil
import statistics
import tempfile
import threading
import time
from pathlib import Path

from bench.jobs_common import (
    WORKER_ENTRANTS,
    WORKER_ROUNDS,
    WORKER_SAMPLES,
    deciding_hand,
    drop_queued_messages,
    ms,
    swiss,
    vacuum_when_autovacuum_is_off,
)


def settle_what_nobody_consumed() -> None:
    """Before the real workers of part 5: do what parts 1-4's messages (sent to an in-memory
    broker nobody consumed) would have done, so part 5 measures only its own work. Without it the
    outbox's sweep hands part 5's workers thousands of the earlier parts' tasks (their
    ``PendingTask`` rows), and the standings sweep stores the earlier tournaments' snapshots."""
    from outbox.models import PendingTask
    from tournaments import snapshots

    drop_queued_messages()
    PendingTask.objects.all().delete()
    for tournament_id in snapshots.list_stale_tournaments():
        snapshots.refresh_standings(tournament_id=tournament_id)


class _Receiver(http.server.BaseHTTPRequestHandler):
    """A webhook receiver on loopback that takes every delivery (204)."""

    def do_POST(self):  # noqa: N802  (the name http.server calls)
        self.rfile.read(int(self.headers.get("Content-Length") or 0))
        self.send_response(204)
        self.end_headers()

    def log_message(self, *args):
        pass


TASK_LINE = re.compile(r"Task ([\w.]+)\[[^\]]+\] succeeded in ([0-9.e-]+)s: (.*)$")
TASK_KINDS = {
    "seasons.rate_game_task": "ratings",
    "seasons.catch_up_ratings_task": "ratings catch-up",
    "tournaments.match_progress_task": "match progress",
    "tournaments.refresh_standings_task": "refresh",
    "seasons.refresh_season_task": "season table",
    "webhooks.deliver_webhook_task": "webhook",
}


def _task_lines(logs: list[Path], offsets: dict) -> list[tuple[str, float, str]]:
    """(task, seconds, result) of every task the workers logged since ``offsets`` (moved on)."""
    lines = []
    for log in logs:
        if not log.exists():
            continue
        with log.open("rb") as handle:
            handle.seek(offsets.get(log, 0))
            text = handle.read()
            offsets[log] = handle.tell()
        for line in text.decode(errors="replace").splitlines():
            found = TASK_LINE.search(line)
            if found:
                lines.append((found.group(1), float(found.group(2)), found.group(3)))
    return lines


def _percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * share))] if ordered else 0.0


def hand_to_fresh_standings(layout: str, club, user, players) -> None:
    """Part 5, one worker layout: a swiss played through the API with real workers on a Redis
    of their own, ratings, league tables and webhooks on; per round the time from a sampled
    deciding hand's ``201`` to fresh standings (its match decided and the snapshot at the
    tournament's data version), each task kind's time from the workers' logs, and what the
    refreshes did (stored, current, busy: the holder looks again; requeued: rounds exhausted,
    queued again) and what the minute's sweep had left to store."""
    from django.test import TestCase  # noqa: F401  (Django's test utilities load settings)
    from rest_framework.test import APIClient

    from accounts.services import issue_device_token
    from games.models import Game, GameStatus
    from outbox.models import PendingTask
    from seasons.league_table import read_season
    from tests.jobs.stack import Stack, wait_until
    from tournaments import services
    from tournaments.models import Match, StandingsSnapshot, Tournament
    from webhooks.models import WebhookEndpoint

    folder = Path(tempfile.mkdtemp(prefix="jink-bench-stack-"))
    # Production sweeps (every minute, the outbox every 5), not the fault tests' 2 s.
    stack = Stack(folder, environment={"JINK_SWEEP_SECONDS": "60", "JINK_REPAIR_SECONDS": "300"})
    receiver = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _Receiver)
    threading.Thread(target=receiver.serve_forever, daemon=True).start()
    if layout == "serve":
        # `make serve`: a default worker of two processes, a standings worker of two.
        stack.start(standings_worker=True, standings_concurrency=2, worker_concurrency=2)
        title = "the make serve layout (default worker ×2, standings worker ×2)"
    else:
        stack.start()
        title = "one worker on both queues (concurrency 1)"
    logs = [folder / "worker.log", folder / "standings.log"]
    offsets: dict = {}
    try:
        WebhookEndpoint.objects.create(
            club=club,
            url=f"http://127.0.0.1:{receiver.server_port}/hook",
            events=["game.finished", "match.decided", "round.drawn", "standings.updated"],
            secret="bench",
        )
        read_season(club)  # the club's league table is stored: every finished game moves it
        tournament = swiss(club, user, players[:WORKER_ENTRANTS], WORKER_ROUNDS)
        services.draw_next_round(tournament_id=tournament.pk, user=user)
        _, token = issue_device_token(user=user, device=f"bench-scorer-{layout}")
        client = APIClient()
        client.credentials(HTTP_AUTHORIZATION=f"Token {token}")
        wait_until(lambda: StandingsSnapshot.objects.filter(tournament=tournament).exists(), 60)
        print(
            f"5. hand accepted → fresh standings, {title}: a swiss of {WORKER_ENTRANTS}, "
            f"{WORKER_SAMPLES} sampled hands a round, one at a time, after the round's "
            "other hands posted back to back and caught up with, "
            "ratings, season table and webhooks on; task times from the workers' logs "
            "(p50/max ms); refreshes: runs, recomputations stored, busy (refused the lock: the "
            "holder looks again), requeued (rounds exhausted: queued itself again); sweep: "
            "what the minute's sweep stored"
        )
        everything = []
        for number in range(1, WORKER_ROUNDS + 1):
            vacuum_when_autovacuum_is_off()
            _task_lines(logs, offsets)  # skip what ran before this round
            matches = list(
                Match.objects.filter(tournament=tournament, round__number=number, is_bye=False)
                .order_by("table")
                .values_list("pk", flat=True)
            )
            sampled = matches[:WORKER_SAMPLES]

            def post(match_id: int) -> float:
                game = Game.objects.get(
                    match_link__match_id=match_id, status=GameStatus.IN_PROGRESS
                )
                response = client.post(
                    f"/api/games/{game.pk}/hands/", deciding_hand(game), format="json"
                )
                assert response.status_code == 201, response.content
                return time.perf_counter()

            def fresh(match_id=None):
                if (
                    match_id is not None
                    and not Match.objects.filter(pk=match_id, status="decided").exists()
                ):
                    return False
                data_version = Tournament.objects.get(pk=tournament.pk).data_version
                snapshot = StandingsSnapshot.objects.get(tournament=tournament)
                return snapshot.data_version >= data_version

            # The round's other tables first, back to back (a burst far faster than a night's
            # tables finish), and the time until the workers have caught up with it...
            started = time.perf_counter()
            for match_id in matches[WORKER_SAMPLES:]:
                post(match_id)
            posted = time.perf_counter()
            wait_until(lambda: fresh() and not PendingTask.objects.exists(), 600, interval=0.05)
            burst = (posted - started, time.perf_counter() - posted)
            # ... then the sampled tables one at a time, each hand's standings awaited.
            samples = []
            for match_id in sampled:
                accepted = post(match_id)
                wait_until(lambda match_id=match_id: fresh(match_id), 120, interval=0.005)
                samples.append(time.perf_counter() - accepted)
            # The round's end: the next round drawn (or the tournament over) and fresh.
            wait_until(
                lambda number=number: (
                    (
                        number == WORKER_ROUNDS
                        or Match.objects.filter(
                            tournament=tournament, round__number=number + 1
                        ).exists()
                    )
                    and StandingsSnapshot.objects.get(tournament=tournament).data_version
                    >= Tournament.objects.get(pk=tournament.pk).data_version
                ),
                120,
                interval=0.05,
            )
            time.sleep(0.5)  # let the default queue's work of the round's last hands finish
            everything += samples
            lines = _task_lines(logs, offsets)
            kinds: dict[str, list[float]] = {}
            outcomes: dict[str, int] = {}
            swept = 0
            for task, seconds, result in lines:
                if task in TASK_KINDS:
                    kinds.setdefault(TASK_KINDS[task], []).append(seconds)
                if task == "tournaments.refresh_standings_task":
                    found = re.search(r"'stored': (\d+), 'outcome': '(\w+)'", result)
                    if found:
                        outcomes["stored"] = outcomes.get("stored", 0) + int(found.group(1))
                        outcomes[found.group(2)] = outcomes.get(found.group(2), 0) + 1
                if task == "tournaments.sweep_standings_task" and result.strip().isdigit():
                    swept += int(result.strip())
            tasks = ", ".join(
                f"{kind} {statistics.median(values) * 1000:.0f}/{max(values) * 1000:.0f}"
                for kind, values in sorted(kinds.items())
            )
            refreshes = (
                f"{len(kinds.get('refresh', []))} runs storing {outcomes.get('stored', 0)}, "
                f"busy {outcomes.get('busy', 0)}, requeued {outcomes.get('requeued', 0)}"
            )
            print(
                f"   round {number:2d}: p50 {ms(statistics.median(samples))}, p95 "
                f"{ms(_percentile(samples, 0.95))}; burst of {len(matches) - len(sampled)} "
                f"posted in {burst[0]:.1f} s, caught up {burst[1]:.1f} s later; {tasks}; "
                f"refreshes {refreshes}; sweep {swept}"
            )
        print(
            f"   all rounds: p50 {ms(statistics.median(everything))}, p95 "
            f"{ms(_percentile(everything, 0.95))}, max {ms(max(everything))} "
            "(goal p95 ≤ 2 s, flat)"
        )
    finally:
        stack.stop()
        receiver.shutdown()
        shutil.rmtree(folder, ignore_errors=True)
