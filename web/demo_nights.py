"""Demo club nights played by the computer players, for ``manage.py load_demo``.

What it does: ``build_demo_nights(club, user=..., nights=3)`` starts, for each night, a few
tables through the games services (a three-hand 45, a four-seat 25, a three-hand 110), lets the
computer players of ``computer_players`` play every game to its end from real shuffles, and
records each hand through ``games.services.record_hand`` (so the engine checks it and the ledger
and history see it like any scorekeeper's entry). Games at even tables keep their card-by-card
records (deal, rob or auction, every trick); games at odd tables are entered as trick-winner
records, as a scorekeeper taps them. The players are drawn from the club's active players.
``ensure_demo_nights(demo, out)`` is the loader's step: it does nothing when the club already
holds a card-by-card hand (an earlier run), so running the loader twice changes nothing.

What it does not do: create clubs, players or users (earlier steps do), or date the nights in
the past (every game is created now).
"""

from __future__ import annotations

import random
from typing import Any

from computer_players import play_game
from games import services
from games.models import Game, Hand
from rules_engine import HouseRules

NIGHT_TABLES = (("45", 3, None), ("25", 4, None), ("110", 3, None))
"""Per night: (game, seats, sides) of each table."""
SEED = 2026


def build_demo_nights(
    club: Any, *, user: Any, nights: int = 3, seed: int = SEED, out: Any = None
) -> list[Game]:
    rng = random.Random(seed)
    player_ids = list(
        club.players.filter(is_active=True).order_by("id").values_list("pk", flat=True)
    )
    created = []
    for _night in range(nights):
        for table, (game_code, seats, sides) in enumerate(NIGHT_TABLES):
            if len(player_ids) < seats:
                continue
            first_dealer = rng.randrange(seats)
            game = services.create_game(
                club=club,
                user=user,
                game=game_code,
                seat_player_ids=rng.sample(player_ids, seats),
                teams=sides,
                first_dealer=first_dealer,
            )
            card_by_card = table % 2 == 0
            played = play_game(
                game_code,
                seat_count=seats,
                sides=sides,
                first_dealer=first_dealer,
                rules=HouseRules.from_dict(game.house_rules),
                levels=[rng.choice(("club", "club", "easy")) for _ in range(seats)],
                rng=rng,
                trick_winner_hands=None if card_by_card else (lambda number: True),
            )
            for record in played.records:
                services.record_hand(game_id=game.pk, user=user, record=record)
            game.refresh_from_db()  # the services recorded the hands on locked copies
            created.append(game)
    if out is not None:
        out.write(f"Played {len(created)} demo games over {nights} club nights (computer players)")
    return created


def ensure_demo_nights(demo: Any, out: Any) -> None:
    """The ``load_demo`` step: club nights in the demo club, entered by the demo scorekeeper."""
    club = demo.club
    if Hand.objects.filter(game__club=club, record__has_key="deal").exists():
        if out is not None:
            out.write("Found demo club nights")
        return
    build_demo_nights(club, user=demo.users["scorekeeper"], out=out)
