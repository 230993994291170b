"""The CSV exports of a club's archive (``exchange.archive``): ``games_csv_rows`` flattens games
to one row per side, ``iter_games_csv_rows`` the same a game at a time (the streamed export),
``transfers_csv_rows`` every transfer of every settle-up version, and ``balances_csv_rows`` each
player's running balance over the season's events.

What it does not do: read games, events or settle-ups itself (the archive's readers do), or decide
who may export (the views: organisers).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from clubs import selectors as club_selectors
from games.money import amount_string
from settlements import selectors as settlement_selectors

CSV_HEADER = [
    "event",
    "round",
    "table",
    "game",
    "game_type",
    "status",
    "hands",
    "side",
    "players",
    "total",
    "winner",
    "stake",
    "created_at",
]
TRANSFERS_CSV_HEADER = [
    "event_kind",
    "event",
    "event_name",
    "version",
    "transfer",
    "payer",
    "payee",
    "amount",
    "currency",
    "kind",
    "status",
    "superseded_by",
    "paid_at",
    "paid_by",
]


def games_csv_rows(archive: dict) -> list[list]:
    """One row per side of every game in ``archive`` (``CSV_HEADER`` order)."""
    return list(iter_games_csv_rows(archive, archive["games"]))


def iter_games_csv_rows(archive: dict, games: Iterable[dict]) -> Iterator[list]:
    """``games_csv_rows`` of ``games`` (the archive's or streamed), the players' names and the
    events' places from ``archive``."""
    names = {player["id"]: player["name"] for player in archive["players"]}
    place = {}
    for event in archive["events"]:
        for round_ in event["rounds"]:
            for match in round_["matches"]:
                for game_id in match["games"]:
                    place[game_id] = (event["name"], round_["number"], match["table"])
    for game in games:
        event, round_number, table = place.get(game["id"], ("", "", ""))
        for side, total in enumerate(game["totals"]):
            players = [
                names.get(seat["player"], str(seat["player"]))
                for seat in game["seats"]
                if seat["side"] == side
            ]
            yield [
                event,
                round_number,
                table,
                game["id"],
                game["game"],
                game["status"],
                len(game["hands"]),
                side,
                " & ".join(players),
                total,
                "yes" if game["winner_side"] == side else "",
                game["stake"] or "",
                game["created_at"],
            ]


def transfers_csv_rows(archive: dict) -> list[list]:
    """One row per transfer of every settle-up version of every event and night in ``archive``
    (``TRANSFERS_CSV_HEADER`` order), read from the archive's stored versions."""
    rows = []
    currency = archive["club"]["currency"]
    for kind, items in (("tournament", archive["events"]), ("night", archive["nights"])):
        for item in items:
            for version in item["settlement"]["versions"]:
                for transfer in version["transfers"]:
                    rows.append(
                        [
                            kind,
                            item["id"],
                            item["name"],
                            version["version"],
                            transfer["id"],
                            transfer["payer"]["name"],
                            transfer["payee"]["name"],
                            transfer["amount"],
                            currency,
                            transfer["kind"],
                            transfer["status"],
                            transfer["superseded_by"] or "",
                            transfer["paid_at"] or "",
                            transfer["paid_by"] or "",
                        ]
                    )
    return rows


BALANCES_CSV_HEADER = [
    "year",
    "player",
    "player_name",
    "event_kind",
    "event",
    "event_name",
    "settled_at",
    "net",
    "paid_at_door",
    "paid",
    "received",
    "open",
    "running",
    "running_open",
    "currency",
]


def balances_csv_rows(club) -> list[list]:
    """Each player's running balance over the season's settled events, one row per player and
    event (``BALANCES_CSV_HEADER`` order; ``settlements.selectors.season_balances``)."""
    season = settlement_selectors.season_balances(club=club)
    names = dict(club_selectors.list_players(club=club).values_list("pk", "display_name"))
    rows = []
    for player_id in sorted(season["players"], key=lambda pk: (names.get(pk, ""), pk)):
        for row in season["players"][player_id]:
            kind, event_id = row["event"]["key"]
            rows.append(
                [
                    season["year"],
                    player_id,
                    names.get(player_id, ""),
                    kind,
                    event_id,
                    row["event"]["name"],
                    row["event"]["settled_at"].isoformat(),
                    *(
                        amount_string(row[key], club)
                        for key in (
                            "net",
                            "paid_at_door",
                            "paid",
                            "received",
                            "open",
                            "running",
                            "running_open",
                        )
                    ),
                    club.currency,
                ]
            )
    return rows
