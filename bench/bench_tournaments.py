"""Benchmark of tournaments backed by the database: drawing, advancing, reading standings.

What it does: on a throwaway database (as ``bench_hands_api.py``: a new PostgreSQL database when
PostgreSQL answers, else SQLite), with tasks run in process after each commit (as without
``REDIS_URL``), it drives the API with ``APIClient`` and device tokens and times:

- a knockout of ``JINK_BENCH_ENTRANTS`` players (default 64) at 25, head to head, best of one:
  drawing round 1; recording a hand that does not finish a game; recording the hand that finishes
  the game — which decides the match, fills the next round's table and starts its game (the whole
  chain, in the request's after-commit work); then reading the standings and the bracket;
- a swiss of the same players, drawn round by round by ``POST /rounds/`` (``auto_advance`` off),
  six rounds: the draw of each round (networkx matching on the stored results), and the
  standings at the end.

Each figure is a median in milliseconds (with the count); the draws and the deciding hands also
show how many SQL queries they made (the after-commit work included). It asserts nothing about
speed. The pure draw modules are benchmarked without a database in ``bench_draw.py``.

Run: ``.venv/bin/python bench/bench_tournaments.py`` from the project root.
"""

from __future__ import annotations

import os
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.bench_hands_api import choose_database, set_up_django  # noqa: E402

ENTRANTS = int(os.environ.get("JINK_BENCH_ENTRANTS", "64"))
SWISS_ROUNDS = 6
READS = 20


def median_ms(samples: list[float]) -> str:
    return f"{statistics.median(samples) * 1000:8.1f} ms (n={len(samples)})"


def query_range(counts: list[int]) -> str:
    low, high = min(counts), max(counts)
    return f"{low} queries" if low == high else f"{low}-{high} queries"


def timed(call, queries: list[int] | None = None):
    """Run ``call`` (a request); its time, its response, and its query count in ``queries``."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    with CaptureQueriesContext(connection) as captured:
        started = time.perf_counter()
        response = call()
        elapsed = time.perf_counter() - started
    assert response.status_code in (200, 201), response.content[:500]
    if queries is not None:
        queries.append(len(captured.captured_queries))
    return elapsed, response


def run(description: str) -> None:
    from django.contrib.auth import get_user_model
    from rest_framework.test import APIClient

    from accounts.services import issue_device_token
    from accounts.token_activity import note_sign_in
    from clubs.models import Club, Membership, Player, Role

    club = Club.objects.create(
        name="Bench", slug="bench", currency="EUR", time_zone="Europe/Dublin"
    )
    clients = {}
    for role in (Role.ORGANISER, Role.SCOREKEEPER):
        user = get_user_model().objects.create(username=f"bench-{role}")
        Membership.objects.create(club=club, user=user, role=role)
        device_token, token = issue_device_token(user=user, device="bench")
        # As the sign-in endpoint does (accounts.token_activity): the first draw's figure is
        # then a draw's, not a draw's plus the token's first record. A run past a token's minute
        # shows that minute's one UPDATE in a figure, as it would cost in production.
        note_sign_in(device_token, "127.0.0.1")
        client = APIClient()
        client.credentials(HTTP_AUTHORIZATION=f"Token {token}")
        clients[role] = client
    organiser, scorekeeper = clients[Role.ORGANISER], clients[Role.SCOREKEEPER]
    players = [
        Player.objects.create(club=club, display_name=f"Player {index:03d}")
        for index in range(ENTRANTS)
    ]
    entrants = [{"player": player.pk, "seed": index + 1} for index, player in enumerate(players)]
    print(f"Tournaments benchmark on {description}, {ENTRANTS} entrants")

    # Knockout ---------------------------------------------------------------------------------
    tournament = organiser.post(
        "/api/clubs/bench/tournaments/",
        {"name": "Bench cup", "game": "25", "format": "knockout", "entrants": entrants},
        format="json",
    ).json()
    base = f"/api/tournaments/{tournament['id']}/"
    draw_queries: list[int] = []
    draw_time, response = timed(lambda: organiser.post(base + "rounds/"), draw_queries)
    pending = [match["id"] for match in response.json()["matches"]]
    plain, finishing, finishing_queries = [], [], []
    while pending:
        match_id = pending.pop(0)
        match = organiser.get(f"/api/matches/{match_id}/").json()
        game_id = match["games"][0]["id"]
        hands = f"/api/games/{game_id}/hands/"
        for samples, record in (
            (plain, {"dealer": 0, "trump": "S", "trick_winners": [0, 1, 0, 1, 0]}),
            (finishing, {"dealer": 1, "trump": "S", "trick_winners": [0, 0]}),
        ):
            elapsed, _ = timed(
                lambda url=hands, body=record: scorekeeper.post(url, body, format="json"),
                finishing_queries if samples is finishing else None,
            )
            samples.append(elapsed)
        if not pending:
            rounds = organiser.get(base + "rounds/").json()
            pending = [
                match["id"] for match in rounds[-1]["matches"] if match["status"] != "decided"
            ]
    status = organiser.get(base).json()["status"]
    standings = [timed(lambda: organiser.get(base + "standings/"))[0] for _ in range(READS)]
    bracket = [timed(lambda: organiser.get(base + "bracket/"))[0] for _ in range(READS)]
    print(f"knockout ({status}):")
    print(
        f"  draw round 1                         {median_ms([draw_time])}, "
        f"{query_range(draw_queries)}"
    )
    print(f"  hand that does not finish the game   {median_ms(plain)}")
    print(
        f"  hand that decides the match          {median_ms(finishing)}, "
        f"{query_range(finishing_queries)}"
    )
    print("    (the match, the next table and its game, in the request's after-commit work)")
    print(f"  GET standings                        {median_ms(standings)}")
    print(f"  GET bracket                          {median_ms(bracket)}")

    # Swiss ------------------------------------------------------------------------------------
    tournament = organiser.post(
        "/api/clubs/bench/tournaments/",
        {
            "name": "Bench swiss",
            "game": "25",
            "format": "swiss",
            "round_count": SWISS_ROUNDS,
            "auto_advance": False,
            "entrants": entrants,
        },
        format="json",
    ).json()
    base = f"/api/tournaments/{tournament['id']}/"
    draws, draw_queries = [], []
    for _ in range(SWISS_ROUNDS):
        elapsed, response = timed(lambda: organiser.post(base + "rounds/"), draw_queries)
        draws.append(elapsed)
        for match in response.json()["matches"]:
            if match["is_bye"]:
                continue
            game_id = match["games"][0]["id"]
            scorekeeper.post(
                f"/api/games/{game_id}/hands/",
                {"dealer": 0, "trump": "S", "trick_winners": [(match["id"] % 2)] * 5},
                format="json",
            )
    standings = [timed(lambda: organiser.get(base + "standings/"))[0] for _ in range(READS)]
    print(f"swiss ({organiser.get(base).json()['status']}):")
    print(f"  draw a round (POST /rounds/)         {median_ms(draws)}, {query_range(draw_queries)}")
    print(f"  GET standings after {SWISS_ROUNDS} rounds        {median_ms(standings)}")


def main() -> None:
    database_url, description, cleanup = choose_database()
    try:
        set_up_django(database_url)
        run(description)
    finally:
        cleanup()


if __name__ == "__main__":
    main()
