"""Benchmark of recording hands through the API, against a trivial authenticated request.

What it does: sets Django up itself (``DJANGO_SETTINGS_MODULE=config.settings``), on a throwaway
database — a new PostgreSQL database ``jink_bench_<pid>`` when PostgreSQL answers (at
``DATABASE_URL``'s server, else 127.0.0.1:5432), otherwise SQLite in a temporary file — migrates
it, and drives the API in process with DRF's ``APIClient`` and a device token, as a tablet does.
It times, after a warm-up:

- ``GET /api/auth/me/`` (the trivial authenticated request: token check, one small query);
- ``POST /api/games/{id}/hands/`` with trick-winner entries, with card-by-card entries, and with
  trick-winner entries carrying an ``Idempotency-Key``, on games of 45 to the highest target the
  house rules allow (1000; a finished game is followed by a new one, made between two timed
  requests), plus the first and last hundred hands of one long game separately (the trick-winner
  pattern ties every hand, and in 45 a tie past the target plays another hand, so the game never
  ends), to show that the cost does not grow with the hands already played.

Hands and trivial requests are sent in alternating blocks (of ``BLOCK``), so both meet the same
load when the machine is busy, and each figure is a median over ``JINK_BENCH_HANDS`` requests
(default 400). It prints milliseconds per request, the ratio of
recording a hand to the trivial request (the goal: at most 4) and hands per second. It asserts
nothing about speed; the figures depend on the machine. The database is dropped at the end.

Run: ``make bench``, or ``.venv/bin/python bench/bench_hands_api.py`` from the project root.
"""

from __future__ import annotations

import os
import statistics
import sys
import tempfile
import time
import warnings
from pathlib import Path
from urllib.parse import urlsplit

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

HANDS = int(os.environ.get("JINK_BENCH_HANDS", "400"))
WARM_UP = 40
BLOCK = 20
# The highest target a game's house rules accept (rules_engine.house_rules.MAX_POINTS). Each
# trick-winner hand below gives both sides 15: in 45 an exact tie past the target plays another
# hand, so that game never ends; the card-by-card pattern ends its game at hand 67.
LONGEST_TARGET = 1000
PLAIN_ORDER = {
    "H": ["KH", "QH", "JH", "10H", "9H", "8H", "7H", "6H", "5H", "4H", "3H", "2H"],
    "D": ["KD", "QD", "JD", "10D", "9D", "8D", "7D", "6D", "5D", "4D", "3D", "2D", "AD"],
    "C": ["KC", "QC", "JC", "AC", "2C", "3C", "4C", "5C", "6C", "7C", "8C", "9C", "10C"],
}


def choose_database() -> tuple[str, str, callable]:
    """(DATABASE_URL for the run, description, cleanup)."""
    server = os.environ.get("DATABASE_URL") or "postgres://postgres@127.0.0.1:5432/postgres"
    parts = urlsplit(server)
    if parts.scheme.startswith("postgres"):
        try:
            import psycopg

            options = {
                "host": parts.hostname or "127.0.0.1",
                "port": parts.port or 5432,
                "user": parts.username or "postgres",
                "password": parts.password or None,
                "dbname": "postgres",
                "connect_timeout": 3,
                "autocommit": True,
            }
            name = f"jink_bench_{os.getpid()}"
            with psycopg.connect(**options) as connection:
                connection.execute(f'DROP DATABASE IF EXISTS "{name}"')
                connection.execute(f'CREATE DATABASE "{name}"')
                version = connection.info.parameter_status("server_version")

            def drop() -> None:
                from django.db import connections

                connections.close_all()
                with psycopg.connect(**options) as connection:
                    connection.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')

            netloc = parts.netloc or "postgres@127.0.0.1:5432"
            return f"postgres://{netloc}/{name}", f"PostgreSQL {version} ({name})", drop
        except Exception as error:  # no server, no rights: fall back to SQLite
            print(f"PostgreSQL not usable ({type(error).__name__}: {error}); using SQLite")
    folder = tempfile.mkdtemp(prefix="jink-bench-")
    path = Path(folder) / "bench.sqlite3"

    def remove() -> None:
        for leftover in Path(folder).glob("*"):
            leftover.unlink()
        Path(folder).rmdir()

    return f"sqlite:///{path}", f"SQLite ({path})", remove


def set_up_django(database_url: str) -> None:
    os.environ["DJANGO_SETTINGS_MODULE"] = "config.settings"
    os.environ.setdefault("DJANGO_SECRET_KEY", "jink-bench-secret-not-for-production")
    os.environ["DJANGO_DEBUG"] = "false"  # debug keeps every query in memory
    os.environ["DJANGO_HTTPS"] = "false"
    os.environ["DJANGO_ENV_FILE"] = ""
    os.environ["DJANGO_ALLOWED_HOSTS"] = "testserver"
    os.environ["DATABASE_URL"] = database_url
    os.environ["REDIS_URL"] = ""
    os.environ["DJANGO_LOG_LEVEL"] = "ERROR"
    # Outside debug, whitenoise warns that collectstatic has not run: irrelevant to an API bench.
    warnings.filterwarnings("ignore", message="No directory at", category=UserWarning)
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0, interactive=False)
    # Started as the deployed processes are: every view and task module loaded (as the first
    # request and a worker's start load them), then the start-up heap frozen (config.heap).
    from django.urls import get_resolver

    from config.celery import app
    from config.heap import freeze_startup_heap

    get_resolver().url_patterns  # noqa: B018 - imports every view module
    app.loader.import_default_modules()
    freeze_startup_heap()


def card_by_card(dealer: int) -> dict:
    """A 45 hand for four seats: plain tricks led by the left of the dealer, who wins each one,
    except the third, which the leader's left-hand neighbour trumps with the five of spades."""
    pools = {suit: list(cards) for suit, cards in PLAIN_ORDER.items()}
    leader = (dealer + 1) % 4
    tricks = []
    for index, suit in enumerate(["H", "D", "C", "H", "D"]):
        order = [(leader + offset) % 4 for offset in range(4)]
        cards = [pools[suit].pop(0) for _ in order]
        if index == 2:
            cards[1] = "5S"
            leader = order[1]
        tricks.append(cards)
    return {"dealer": dealer, "turn_up": "10S", "tricks": tricks}


def trick_winners(dealer: int) -> dict:
    return {
        "dealer": dealer,
        "trump": "C",
        "trick_winners": [1, 1, 0, 2, 1],
        "best_trump": {"seat": 0, "trick": 2},
    }


def main() -> None:
    database_url, description, cleanup = choose_database()
    try:
        set_up_django(database_url)
        run(description)
    finally:
        cleanup()


def run(description: str) -> None:
    from django.contrib.auth import get_user_model
    from rest_framework.test import APIClient

    from accounts.services import issue_device_token
    from clubs.models import Club, Membership, Player, Role

    user = get_user_model().objects.create(username="bench-scorekeeper")
    club = Club.objects.create(
        name="Bench", slug="bench", currency="EUR", time_zone="Europe/Dublin"
    )
    Membership.objects.create(club=club, user=user, role=Role.SCOREKEEPER)
    players = [Player.objects.create(club=club, display_name=f"P{index}") for index in range(4)]
    _, token = issue_device_token(user=user, device="bench tablet")
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {token}")

    def new_game() -> int:
        response = client.post(
            "/api/clubs/bench/games/",
            {
                "game": "45",
                "seats": [player.pk for player in players],
                "teams": [[0, 2], [1, 3]],
                "house_rules": {"target": LONGEST_TARGET},
            },
            format="json",
        )
        assert response.status_code == 201, response.content
        return response.json()["id"]

    def one(request) -> float:
        started = time.perf_counter()
        response = request()
        elapsed = time.perf_counter() - started
        assert response.status_code in (200, 201), response.content
        return elapsed

    def me():
        return client.get("/api/auth/me/")

    def recorder(build, key: str | None = None):
        """A sender of the next hand; once a hand finishes its game, the next goes to a new
        game (made between two timed requests, not inside one)."""
        state = {"game": new_game(), "hand": 0, "sent": 0, "over": False}

        def send():
            if state["over"]:  # the deal starts again at seat 0 in a new game
                state.update(game=new_game(), hand=0, over=False)
            dealer = state["hand"] % 4
            state["hand"] += 1
            state["sent"] += 1
            headers = {} if key is None else {"Idempotency-Key": f"{key}-{state['sent']}"}
            response = client.post(
                f"/api/games/{state['game']}/hands/", build(dealer), format="json", headers=headers
            )
            state["over"] = b'"status":"finished"' in response.content
            return response

        send.state = state
        return send

    def interleaved(send, count: int) -> tuple[list[float], list[float]]:
        """Blocks of hands alternating with blocks of trivial requests, so that both meet the
        same load on the machine; returns (hand times, trivial times) in seconds."""
        hands: list[float] = []
        trivial: list[float] = []
        while len(hands) < count:
            hands.extend(one(send) for _ in range(BLOCK))
            trivial.extend(one(me) for _ in range(BLOCK))
        return hands, trivial

    warm = recorder(trick_winners)
    for _ in range(WARM_UP):
        one(me)
        one(warm)

    print(f"database: {description}; {HANDS} hands per figure, in process (APIClient), in")
    print(f"blocks of {BLOCK} alternating with blocks of GET /api/auth/me/ (the trivial request)")
    print(f"{'':44s} {'hand ms':>9s} {'trivial ms':>11s} {'ratio':>6s} {'hands/s':>8s}")

    def report(label: str, hands: list[float], trivial: list[float]) -> None:
        hand_median, trivial_median = statistics.median(hands), statistics.median(trivial)
        print(
            f"{label:44s} {hand_median * 1000:9.2f} {trivial_median * 1000:11.2f} "
            f"{hand_median / trivial_median:5.2f}x {len(hands) / sum(hands):8.0f}"
        )

    report("trick-winner entry", *interleaved(recorder(trick_winners), HANDS))
    report("card-by-card entry", *interleaved(recorder(card_by_card), HANDS))
    report(
        "trick-winner entry + Idempotency-Key",
        *interleaved(recorder(trick_winners, key="bench"), HANDS),
    )
    if HANDS >= 200:
        long_game = recorder(trick_winners)
        first_game = long_game.state["game"]
        first = interleaved(long_game, 100)
        interleaved(long_game, HANDS - 200)
        last = interleaved(long_game, 100)
        assert long_game.state["game"] == first_game and not long_game.state["over"]
        report("  one long game: its first 100 hands", *first)
        report(f"  the same game: its last 100 hands (of {HANDS})", *last)
    print("medians; the goal: recording a hand costs at most 4x the trivial request")


if __name__ == "__main__":
    main()
