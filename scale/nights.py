"""A club's nights: games sampled from the pool, their hands, ledger and settle-up version.

What it does: ``write_night`` stores one closed club night (``settlements.Night``) with
``games_per_table`` games at each of the club's tables, each a whole game of the pool played by
players of the night, as ``games.services`` stores them: the game row with its final fields
(totals, status, winner, version 1 + one per hand), its seats and sides, one ``Hand`` per hand
(the record, the engine's result, the totals and fields after it), the ledger's one booking of a
finished game with a stake (``games.ledger.stake_shares``), the ``NightGame`` link with its table,
and the night's first settle-up version as ``settlements.settle_up.settle_event`` computes it
for a night without entry fee or prize split (``settlements.computation``: the pot at the door,
stakes settled in the fewest transfers), some of them marked paid. It returns each game's facts
(``GameFacts``) for the season table and the ratings (``scale.standings``).

What it does not do: write audit history rows (simple-history), attendance, entry fees, prize
splits, later settle-up versions or announcements.

Terms: *facts*: what the standings and ratings read of a game (seats, totals, winner, version,
when it finished, its ledger).
"""

from __future__ import annotations

import datetime
import random
from collections import defaultdict
from dataclasses import dataclass, field

from games.ledger import stake_shares
from games.models import Game, GameSeat, GameSide, Hand, LedgerEntry
from scale.pool import TABLES, PooledGame, dumps
from settlements import computation
from settlements.models import Night, NightGame, Settlement, SettlementTransfer
from settlements.settle_up import REMAINDER_RULE

PAID_SHARE = 0.4
"""The share of a night's transfers marked paid two days after the night."""


@dataclass
class GameFacts:
    game_id: int
    version: int
    finished_at: datetime.datetime
    seats: list[tuple[int, int, int]]  # (seat, player id, side)
    totals: list[int]
    winner_side: int | None
    shares: dict[int, int] = field(default_factory=dict)


def _write_game(
    loader, club, pooled: PooledGame, players: list[int], start: datetime.datetime
) -> GameFacts:
    game_id = loader.next_id(Game)
    finished = start + datetime.timedelta(seconds=pooled.hands[-1].entered_offset)
    version = 1 + len(pooled.hands)
    loader.add(
        Game,
        game_id,
        club.club_id,
        TABLES[pooled.kind][0],
        dumps(pooled.house_rules),
        pooled.first_dealer,
        dumps(pooled.side_of_seat),
        club.stake_minor,
        "finished",
        pooled.winner_side,
        pooled.double_stake,
        dumps(pooled.totals),
        pooled.next_dealer,
        len(pooled.hands),
        dumps(pooled.engine_state),
        start,
        finished,
        version,
    )
    seats = [(seat, player, pooled.side_of_seat[seat]) for seat, player in enumerate(players)]
    for seat, player, side in seats:
        loader.add(GameSeat, loader.next_id(GameSeat), game_id, seat, player, side)
    for index in range(max(pooled.side_of_seat) + 1):
        loader.add(GameSide, loader.next_id(GameSide), game_id, index)
    for number, (hand, tail) in enumerate(zip(pooled.hands, pooled.tails, strict=True), 1):
        entered = (start + datetime.timedelta(seconds=hand.entered_offset)).isoformat()
        loader.add_line(
            Hand, f"{loader.next_id(Hand)}\t{game_id}\t{number}\t{tail}\t{entered}\t{entered}"
        )
    shares = write_ledger(
        loader,
        club_id=club.club_id,
        game_id=game_id,
        seats=seats,
        pooled=pooled,
        stake_minor=club.stake_minor,
        finished=finished,
    )
    return GameFacts(game_id, version, finished, seats, pooled.totals, pooled.winner_side, shares)


def write_ledger(loader, *, club_id, game_id, seats, pooled, stake_minor, finished) -> dict:
    """A finished game's stake booking (``games.ledger.stake_shares``), one row per non-zero
    share; returns the shares."""
    shares = stake_shares(
        seats=seats,
        winner_side=pooled.winner_side,
        stake_minor=stake_minor,
        double_stake=pooled.double_stake,
    )
    shares = {player: amount for player, amount in shares.items() if amount}
    for player, amount in sorted(shares.items()):
        loader.add(
            LedgerEntry,
            loader.next_id(LedgerEntry),
            club_id,
            game_id,
            player,
            amount,
            "stake",
            1,
            finished,
        )
    return shares


def write_night(
    loader,
    rng: random.Random,
    pool: list[list[PooledGame]],
    club,
    *,
    number: int,
    opened: datetime.datetime,
    games_per_table: int,
) -> list[GameFacts]:
    night_id = loader.next_id(Night)
    seats_needed = sum(TABLES[kind][1] for kind in club.table_kinds)
    present = rng.sample(club.player_ids, seats_needed)
    games: list[tuple[int, int, GameFacts]] = []
    taken = 0
    latest = opened
    for table, kind in enumerate(club.table_kinds, 1):
        players = present[taken : taken + TABLES[kind][1]]
        taken += len(players)
        start = opened + datetime.timedelta(seconds=30 * table)
        for _ in range(games_per_table):
            rng.shuffle(players)
            facts = _write_game(loader, club, rng.choice(pool[kind]), players, start)
            games.append((facts.game_id, table, facts))
            start = facts.finished_at + datetime.timedelta(seconds=rng.randrange(60, 300))
            latest = max(latest, facts.finished_at)
    closed = latest + datetime.timedelta(minutes=10)
    loader.add(Night, night_id, club.club_id, f"Club night {number + 1}", "closed", opened, closed)
    for game_id, table, _ in games:
        loader.add(NightGame, loader.next_id(NightGame), night_id, game_id, table, opened)
    _write_settlement(loader, rng, club, night_id, [facts for *_, facts in games], closed)
    return [facts for *_, facts in games]


def night_settlement(games: list[GameFacts]) -> tuple[list[dict], dict, str, list[tuple]]:
    """``(lines, details, fingerprint, planned transfers)`` of a night's first version, as
    ``settle_event`` computes them for a night without entry fee, prize split or paid
    transfers (the pot at the door)."""
    stakes: dict[int, int] = defaultdict(int)
    wins: dict[int, int] = defaultdict(int)
    for facts in games:
        for player, amount in facts.shares.items():
            stakes[player] += amount
        for _, player, side in facts.seats:
            wins[player] += 1 if side == facts.winner_side else 0
    places = {
        player: 1 + sum(1 for other in wins.values() if other > count)
        for player, count in wins.items()
    }
    targets = computation.targets_of(
        stakes=stakes, fees={}, paid_at_door={}, prizes={}, between_players=False
    )
    planned = computation.plan_transfers(targets, [])
    nets = computation.nets_of(stakes=stakes, fees={}, prizes={})
    to_settle: dict[int, int] = defaultdict(int)
    for amounts in targets.values():
        for party, amount in amounts.items():
            to_settle[party] += amount
    lines = [
        {
            "player": party or None,
            "stakes": stakes.get(party, 0),
            "entry_fee": 0,
            "fee_status": None,
            "prize": 0,
            "paid_at_door": 0,
            "net": nets.get(party, 0),
            "settled_before": 0,
            "difference": to_settle.get(party, 0),
        }
        for party in sorted(set(nets) | set(to_settle))
    ]
    details = {
        "games": len(games),
        "pot": 0,
        "prize_split": [],
        "prizes": [],
        "places": {str(key): value for key, value in places.items()},
        "kept_by_club": nets.get(computation.CLUB, 0),
        "rule": computation.POT,
        "remainder_rule": str(REMAINDER_RULE),
        "exactness": computation.EXACTNESS,
        "changes": [],
        "superseded": 0,
        "kept_paid": 0,
    }
    return lines, details, computation.fingerprint_of(targets), planned


def _write_settlement(loader, rng, club, night_id: int, games: list[GameFacts], closed) -> None:
    lines, details, fingerprint, planned = night_settlement(games)
    settlement_id = loader.next_id(Settlement)
    loader.add(
        Settlement,
        settlement_id,
        club.club_id,
        night_id,
        1,
        dumps(lines),
        dumps(details),
        fingerprint,
        closed,
    )
    paid_at = closed + datetime.timedelta(days=2)
    for payer, payee, amount, kind in planned:
        loader.add(
            SettlementTransfer,
            loader.next_id(SettlementTransfer),
            settlement_id,
            payer or None,
            payee or None,
            amount,
            kind,
            paid_at if rng.random() < PAID_SHARE else None,
        )


TABLE_COLUMNS = [
    (Night, ("id", "club_id", "name", "status", "opened_at", "closed_at")),
    (
        Game,
        (
            "id",
            "club_id",
            "game",
            "house_rules",
            "first_dealer",
            "side_of_seat",
            "stake_minor",
            "status",
            "winner_side",
            "double_stake",
            "totals",
            "next_dealer",
            "hands_played",
            "engine_state",
            "created_at",
            "updated_at",
            "version",
        ),
    ),
    (GameSeat, ("id", "game_id", "seat", "player_id", "side")),
    (GameSide, ("id", "game_id", "index")),
    (
        Hand,
        (
            "id",
            "game_id",
            "number",
            "dealer",
            "record",
            "result",
            "totals_after",
            "state_after",
            "entered_at",
            "updated_at",
        ),
    ),
    (
        LedgerEntry,
        (
            "id",
            "club_id",
            "game_id",
            "player_id",
            "amount_minor",
            "reason",
            "booking",
            "created_at",
        ),
    ),
    (NightGame, ("id", "night_id", "game_id", "table_number", "added_at")),
    (
        Settlement,
        ("id", "club_id", "night_id", "version", "lines", "details", "fingerprint", "created_at"),
    ),
    (
        SettlementTransfer,
        ("id", "settlement_id", "payer_id", "payee_id", "amount_minor", "kind", "paid_at"),
    ),
]
