"""Export: one club night or one event as a "jink-exchange" version 1 document (docs/exchange.md,
docs/exchange.schema.json).

What it does: ``night_document(night)`` and ``event_document(tournament)`` build the document
from the archive's readers (``exchange.archive.night_archive`` / ``event_archive``: the same
games, hands, standings and stored settle-up versions the console's archive exports), keeping
only the players the night or event names, and adding what an import needs that the archive does
not carry: each game's first dealer and its table, the origin (this site's key, the kind and the
id) and the night's fees by player id. ``site_key()`` is this database's key (made once);
``document_hash(document)`` a document's hash (the import log's).

What it does not do: import (``exchange.services``), check permissions (the views), or write
anything but the site's key on the first export.

Terms: *origin* — ``{"site", "kind", "id", "club"}``: which database, which night or event.
"""

from __future__ import annotations

import hashlib
import json

from exchange import archive
from exchange.models import ExchangeSite
from games.models import Game
from settlements.models import NightGame, PrizeSplit
from tournaments.models import Match, MatchEntrant

FORMAT = "jink-exchange"
VERSION = 1


def document_hash(document) -> str:
    """A document's SHA-256 over its canonical JSON (key order and spacing do not count)."""
    text = json.dumps(document, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(text.encode()).hexdigest()


def site_key() -> str:
    """This database's key in exchange documents (the first call makes it)."""
    site = ExchangeSite.objects.order_by("pk").first()
    if site is None:
        site = ExchangeSite.objects.create()
    return str(site.key)


def _games(data: dict, tables: dict[int, int | None]) -> list[dict]:
    ids = [game["id"] for game in data["games"]]
    dealers = dict(Game.objects.filter(pk__in=ids).values_list("pk", "first_dealer"))
    return [
        {
            "id": game["id"],
            "game": game["game"],
            "table": tables.get(game["id"]),
            "house_rules": game["house_rules"],
            "first_dealer": dealers[game["id"]],
            "stake": game["stake"],
            "status": game["status"],
            "seats": game["seats"],
            "totals": game["totals"],
            "winner_side": game["winner_side"],
            "hands": [
                {
                    "number": hand["number"],
                    "record": hand["record"],
                    "totals_after": hand["totals_after"],
                }
                for hand in game["hands"]
            ],
        }
        for game in data["games"]
    ]


def _named_players(
    data: dict, games: list[dict], player_ids: set[int], team_ids: set[int] = frozenset()
) -> tuple[list, list]:
    named = {seat["player"] for game in games for seat in game["seats"]} | player_ids
    teams = [team for team in data["teams"] if team["id"] in team_ids]
    named |= {member for team in teams for member in team["members"]}
    players = [{"id": p["id"], "name": p["name"]} for p in data["players"] if p["id"] in named]
    teams = [{"id": t["id"], "name": t["name"], "members": t["members"]} for t in teams]
    return players, teams


def _settle_up(settlement: dict) -> dict:
    return {"currency": settlement["currency"], "versions": settlement["versions"]}


def _envelope(data: dict, kind: str, source_id: int) -> dict:
    club = data["club"]
    return {
        "format": FORMAT,
        "version": VERSION,
        "exported_at": data["exported_at"],
        "origin": {
            "site": site_key(),
            "kind": kind,
            "id": source_id,
            "club": {"slug": club["slug"], "name": club["name"], "currency": club["currency"]},
        },
    }


def night_document(night) -> dict:
    data = archive.night_archive(night)
    (item,) = data["nights"]
    tables = dict(NightGame.objects.filter(night=night).values_list("game_id", "table_number"))
    games = _games(data, tables)
    fees = [
        {"player": fee["player"]["id"], "status": fee["status"], "amount": fee["amount"]}
        for fee in item["settlement"]["fees"]
    ]
    players, teams = _named_players(data, games, {fee["player"] for fee in fees})
    return {
        **_envelope(data, "night", night.pk),
        "players": players,
        "teams": teams,
        "games": games,
        "night": {
            "name": item["name"],
            "status": item["status"],
            "opened_at": item["opened_at"],
            "closed_at": item["closed_at"],
            "entry_fee": item["entry_fee"],
            "prize_split": item["prize_split"],
            "fees": fees,
        },
        "event": None,
        "standings": [],
        "settle_up": _settle_up(item["settlement"]),
    }


EVENT_SETTINGS = (
    "advancing_per_table",
    "sides_per_table",
    "movement",
    "min_table_size",
    "third_place_match",
    "bye_rule",
    "tie_breaks",
    "auto_advance",
    "private_draws",
    "is_public",
    "lots_seed",
)


def _add_draw(tournament, event: dict) -> None:
    """What an import needs to store the draw as it was made, beside the archive's event: the
    settings the archive leaves out, the draw order, and each match's third-place mark and each
    seat's side and source (the match, by round and table, and the place that filled it)."""
    event["settings"] = {name: getattr(tournament, name) for name in EVENT_SETTINGS}
    event["draw_order"] = list(tournament.draw_order)
    third = set(
        Match.objects.filter(tournament=tournament, is_third_place=True).values_list(
            "round__number", "table"
        )
    )
    slots: dict[tuple[int, int], list] = {}
    for number, table, _position, side, source_round, source_table, place in (
        MatchEntrant.objects.filter(match__tournament=tournament)
        .order_by("match__round__number", "match__table", "position")
        .values_list(
            "match__round__number",
            "match__table",
            "position",
            "side",
            "source_match__round__number",
            "source_match__table",
            "source_place",
        )
    ):
        source = (
            None
            if source_round is None
            else {"round": source_round, "table": source_table, "place": place}
        )
        slots.setdefault((number, table), []).append((side, source))
    for round_ in event["rounds"]:
        for match in round_["matches"]:
            key = (round_["number"], match["table"])
            match["is_third_place"] = key in third
            match["sides"] = [side for side, _ in slots.get(key, [])]
            match["sources"] = [source for _, source in slots.get(key, [])]


def event_document(tournament) -> dict:
    data = archive.event_archive(tournament)
    (event,) = data["events"]
    tables = {
        game_id: match["table"]
        for round_ in event["rounds"]
        for match in round_["matches"]
        for game_id in match["games"]
    }
    games = _games(data, tables)
    settlement = event.pop("settlement")
    standings = event.pop("standings")
    _add_draw(tournament, event)
    split = PrizeSplit.objects.filter(tournament=tournament).first()
    event["prize_split"] = split.percentages if split is not None else []
    event["fees"] = [
        {"player": fee["player"]["id"], "status": fee["status"], "amount": fee["amount"]}
        for fee in settlement["fees"]
    ]
    players, teams = _named_players(
        data,
        games,
        {entrant["player"] for entrant in event["entrants"] if entrant["player"]}
        | {fee["player"] for fee in event["fees"]},
        {entrant["team"] for entrant in event["entrants"] if entrant["team"]},
    )
    return {
        **_envelope(data, "event", tournament.pk),
        "players": players,
        "teams": teams,
        "games": games,
        "night": None,
        "event": event,
        "standings": standings,
        "settle_up": _settle_up(settlement),
    }
