"""Helpers of the exchange tests: a night played through the API in one club, a second club to
import it into, and the comparisons of what the two clubs hold.

What it does: ``played_night(event)`` opens a night with a prize split and an entry fee, plays
three games at two tables (a 2 v 2 among them) through the API, marks fees and closes it (the
settle-up job runs on commit); ``federation()`` is a second club (``build_event`` with its own
slug) with players of other names; ``night_games(night)`` lists a night's games by table as
names, sides, totals, winner and hand records; ``last_settle_up(night)`` the latest settle-up
version as names and amounts; ``row_counts()`` the rows an import could write;
``night_outcome(night)`` all of it as JSON (the night's games, its club's season table, its last
settle-up and its club's ratings, by names, never ids), so two databases can be compared: it is
run in the second one by tests/exchange/test_two_databases.py (``manage.py shell``).

What it does not do: assert (the tests do).
"""

from __future__ import annotations

import datetime
import json

from clubs.models import Player
from exchange.models import ImportedNight, ImportedPlayer
from games.models import Game, Hand
from seasons.league_table import compute_season_rows
from seasons.models import PlayerRating, RatingChange
from settlements.models import EntryFeePayment, Night, NightGame, Settlement, SettlementTransfer
from tests.tournaments.play_helpers import build_event, win_game


def played_night(event, name: str = "Friday drive") -> dict:
    ann, bill, cait, dan = event.players[:4]
    night = event.ok(
        "post",
        f"/api/clubs/{event.club.slug}/nights/",
        {"name": name, "entry_fee": "2.50", "prize_split": [70, 30]},
        status=201,
    )
    games = f"/api/nights/{night['id']}/games/"
    body = {"game": "25", "first_dealer": 0, "stake": "0.20"}
    first = event.ok("post", games, {**body, "seats": [ann.pk, bill.pk], "table": 1}, status=201)
    win_game(event, first["id"], 0)
    pairs = {
        **body,
        "seats": [ann.pk, cait.pk, bill.pk, dan.pk],
        "teams": [[0, 2], [1, 3]],
        "table": 1,
    }
    second = event.ok("post", games, pairs, status=201)
    win_game(event, second["id"], 1)
    third = event.ok("post", games, {**body, "seats": [cait.pk, dan.pk], "table": 2}, status=201)
    win_game(event, third["id"], 1)
    fees = f"/api/nights/{night['id']}/fees/"
    event.ok("post", fees, {"player": ann.pk, "status": "cash"}, status=201)
    event.ok("post", fees, {"player": bill.pk, "status": "owed"}, status=201)
    event.ok("post", f"/api/nights/{night['id']}/close/")
    return night


def federation():
    return build_event(players=0, slug="federation")


def night_games(night: Night) -> list[tuple]:
    links = NightGame.objects.filter(night=night).order_by("game_id")
    rows = []
    for link in links:
        game = Game.objects.get(pk=link.game_id)
        seats = [(s.seat, s.player.display_name, s.side) for s in game.seats.order_by("seat")]
        hands = [
            (hand.number, hand.record, hand.result, hand.totals_after)
            for hand in Hand.objects.filter(game=game).order_by("number")
        ]
        rows.append(
            (
                link.table_number,
                game.variant,
                game.house_rules,
                game.stake_minor,
                seats,
                game.totals,
                game.status,
                game.winner_side,
                hands,
            )
        )
    return rows


def _party(player) -> str:
    return player.display_name if player is not None else "the club"


def last_settle_up(night: Night) -> tuple:
    version = Settlement.objects.filter(night=night).order_by("-version").first()
    names = dict(Player.objects.values_list("pk", "display_name"))
    lines = [
        {key: (names.get(value) if key == "player" else value) for key, value in line.items()}
        for line in version.lines
    ]
    transfers = sorted(
        (_party(t.payer), _party(t.payee), t.amount_minor, t.kind, t.superseded_by_id is None)
        for t in SettlementTransfer.objects.filter(settlement=version).select_related(
            "payer", "payee"
        )
    )
    return version.version, lines, transfers


def row_counts() -> dict:
    return {
        model.__name__: model.objects.count()
        for model in (
            Player,
            Game,
            Hand,
            Night,
            NightGame,
            EntryFeePayment,
            Settlement,
            SettlementTransfer,
            ImportedPlayer,
            ImportedNight,
        )
    }


def game_versions() -> dict:
    return dict(Game.objects.values_list("pk", "version"))


def _season_table(club_id: int) -> list[dict]:
    """The season table as the app computes it (every game of the club: it has this night's
    only), each row's player by name."""
    rows = compute_season_rows(club_id, datetime.date(2000, 1, 1), datetime.date(2100, 12, 31))
    return [{**row, "player": row["player"]["name"]} for row in rows]


def _ratings(club_id: int) -> list[tuple]:
    """Each player's rating and its steps game by game (by the club's rated order)."""
    steps: dict[int, list] = {}
    for change in RatingChange.objects.filter(player__club_id=club_id).order_by("sequence"):
        steps.setdefault(change.player_id, []).append(
            (change.sequence, change.mu, change.sigma, change.ordinal)
        )
    return [
        (
            rating.player.display_name,
            rating.mu,
            rating.sigma,
            rating.ordinal,
            rating.games,
            steps.get(rating.player_id, []),
        )
        for rating in PlayerRating.objects.filter(club_id=club_id).select_related("player")
    ]


def night_outcome(night: Night) -> dict:
    """What the night came to, as JSON (tuples as lists): comparable across databases."""
    outcome = {
        "games": night_games(night),
        "standings": _season_table(night.club_id),
        "settle_up": last_settle_up(night),
        "ratings": _ratings(night.club_id),
    }
    return json.loads(json.dumps(outcome))
