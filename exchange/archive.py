"""A club's history, or one event's, as one JSON archive or as CSV (docs/console.md documents the
archive's fields, docs/archive.schema.json is its JSON Schema).

What it does: ``event_archive(tournament)``, ``night_archive(night)`` and ``club_archive(club)``
return a JSON-ready dict
``{"archive": "jink", "version": 2, "exported_at", "club", "players", "teams", "games",
"events", "nights"}`` — every event with its settings, entrants, rounds, matches (with their
games' ids), standings and settle-up, every club night with its games and settle-up, every game
with its seats, sides, totals and hands (each hand's record as entered and the engine's result).
The settle-up is the stored versions (``settlements``), exactly as the API and the console show
them: lines, prize rule and changes in words, transfers with their kind, status and paid marks
(who and when), and the fees taken at the door. The CSV exports are built from these archives by
``exchange.archive_csv``. Reads only, in a
number of queries that grows with the number of events, not of games, hands or transfers (the
club's games are read ``GAMES_PAGE`` at a time: three queries a page). ``club_archive_parts``
and ``json_chunks`` give the club's archive a game at a time, for the
streamed export: its memory is one page of games, whatever the club's history.

What it does not do: import anything (players come in through ``clubs.services``; an exchange
document through ``exchange.services``), or decide who may export (the views: organisers). The
exchange format (``exchange.document``) is built from these readers.
"""

from __future__ import annotations

import itertools
import json
import textwrap
from collections.abc import Iterable, Iterator

from django.core.serializers.json import DjangoJSONEncoder
from django.db.models import Prefetch
from django.utils import timezone

from clubs import selectors as club_selectors
from games.models import Game, GameSeat, Hand
from games.money import amount_string
from settlements import selectors as settlement_selectors
from settlements.models import NightGame
from settlements.representations import FeeOutput, SettlementVersionOutput
from tournaments import selectors as tournament_selectors
from tournaments.play import load_matches
from tournaments.standings import compute_standings

# 2: an event's settlement is its stored settle-up versions; club nights are exported.
ARCHIVE_VERSION = 2
GAMES_PAGE = 50  # games (with their seats and hands) read at a time by a streamed export


def _club_json(club) -> dict:
    return {
        "slug": club.slug,
        "name": club.name,
        "currency": club.currency,
        "time_zone": club.time_zone,
        "default_game": club.default_game,
        "default_house_rules": club.default_house_rules,
    }


def _people(club) -> tuple[list, list]:
    players = [
        {"id": player.pk, "name": player.display_name, "is_active": player.is_active}
        for player in club_selectors.list_players(club=club)
    ]
    teams = [
        {
            "id": team.pk,
            "name": team.name,
            "is_active": team.is_active,
            "members": [member.pk for member in team.ordered_members()],
        }
        for team in club_selectors.list_teams(club=club)
    ]
    return players, teams


def _game_json(game: Game, club) -> dict:
    return {
        "id": game.pk,
        "game": game.variant,
        "status": game.status,
        "house_rules": game.house_rules,
        "seats": [
            {"seat": seat.seat, "player": seat.player_id, "side": seat.side}
            for seat in game.seats.all()
        ],
        "totals": game.totals,
        "winner_side": game.winner_side,
        "stake": amount_string(game.stake_minor, club),
        "created_at": game.created_at.isoformat(),
        "hands": [
            {
                "number": hand.number,
                "record": hand.record,
                "result": hand.result,
                "totals_after": hand.totals_after,
                "entered_at": hand.entered_at.isoformat(),
            }
            for hand in game.hands.all()
        ],
    }


def _games(queryset) -> list[Game]:
    return list(
        queryset.order_by("pk").prefetch_related(
            Prefetch("seats", queryset=GameSeat.objects.order_by("seat")),
            Prefetch("hands", queryset=Hand.objects.order_by("number")),
        )
    )


class _SettleUps:
    """The stored settle-up versions and fees of the club's events, read once, by event."""

    def __init__(self, club, tournament_id: int | None = None, night_id: int | None = None):
        self.club = club
        versions = settlement_selectors.list_club_settlements(
            club=club, tournament_id=tournament_id
        )
        fees = settlement_selectors.list_club_fees(club=club, tournament_id=tournament_id)
        if night_id is not None:
            versions, fees = versions.filter(night_id=night_id), fees.filter(night_id=night_id)
        versions = list(versions)
        self.names = settlement_selectors.party_names(versions)
        self.versions: dict[tuple, list] = {}
        for version in versions:
            key = (
                ("tournament", version.tournament_id)
                if version.tournament_id
                else ("night", version.night_id)
            )
            self.versions.setdefault(key, []).append(version)
        self.fees: dict[tuple, list] = {}
        for fee in fees:
            key = (
                ("tournament", fee.tournament_id) if fee.tournament_id else ("night", fee.night_id)
            )
            self.fees.setdefault(key, []).append(fee)

    def of(self, kind: str, event_id: int, *, stake, entry_fee) -> dict:
        versions = self.versions.get((kind, event_id), [])
        return {
            "currency": self.club.currency,
            "stake": amount_string(stake, self.club),
            "entry_fee": amount_string(entry_fee, self.club),
            "fees": FeeOutput(self.fees.get((kind, event_id), []), many=True).data,
            "versions": SettlementVersionOutput(
                versions, many=True, context={"names": self.names}
            ).data,
        }


def _event_json(tournament, settle_ups: _SettleUps) -> tuple[dict, list[int]]:
    """The event and the ids of its games."""
    club = tournament.club
    rounds = list(tournament_selectors.list_rounds(tournament=tournament, with_unreleased=True))
    matches = load_matches([match.pk for round_ in rounds for match in round_.matches.all()])
    by_id = {match.pk: match for match in matches if match is not None}
    game_ids = []
    rounds_json = []
    for round_ in rounds:
        matches_json = []
        for listed in round_.matches.all():
            match = by_id[listed.pk]
            ids = sorted(game.pk for game in match.games.all())
            game_ids.extend(ids)
            matches_json.append(
                {
                    "table": match.table,
                    "status": match.status,
                    "is_bye": match.is_bye,
                    "entrants": [
                        slot.entrant_id
                        for slot in sorted(match.slots.all(), key=lambda slot: slot.position)
                    ],
                    "result": match.result,
                    "games": ids,
                }
            )
        rounds_json.append(
            {
                "number": round_.number,
                "status": round_.status,
                "released_at": round_.released_at.isoformat() if round_.released_at else None,
                "matches": matches_json,
            }
        )
    standings = compute_standings(tournament)
    event = {
        "id": tournament.pk,
        "name": tournament.name,
        "game": tournament.game,
        "format": tournament.format,
        "entrant_kind": tournament.entrant_kind,
        "table_size": tournament.table_size,
        "round_count": tournament.round_count,
        "match_rule": tournament.match_rule,
        "match_games": tournament.match_games,
        "house_rules": tournament.house_rules,
        "status": tournament.status,
        "stake": amount_string(tournament.stake_minor, club),
        "entry_fee": amount_string(tournament.entry_fee_minor, club),
        "created_at": tournament.created_at.isoformat(),
        "closed_at": tournament.closed_at.isoformat() if tournament.closed_at else None,
        "entrants": [
            {
                "id": entrant.pk,
                "player": entrant.player_id,
                "team": entrant.team_id,
                "name": entrant.name,
                "seed": entrant.seed,
                "is_present": entrant.is_present,
            }
            for entrant in tournament_selectors.list_entrants(tournament=tournament)
        ],
        "rounds": rounds_json,
        "standings": [
            {
                "rank": row["rank"],
                "place": row.get("place", row["rank"]),
                "entrant": row["entrant"]["id"],
                "match_wins": row["match_wins"],
                "points_for": row["points_for"],
                "tricks_won": row["tricks_won"],
            }
            for row in standings["standings"]
        ],
        "settlement": settle_ups.of(
            "tournament",
            tournament.pk,
            stake=tournament.stake_minor,
            entry_fee=tournament.entry_fee_minor,
        ),
    }
    return event, game_ids


def _nights_json(club, settle_ups: _SettleUps, night_id: int | None = None) -> list[dict]:
    nights = settlement_selectors.list_nights(club=club).order_by("opened_at", "id")
    links = NightGame.objects.filter(night__club=club)
    if night_id is not None:
        nights, links = nights.filter(pk=night_id), links.filter(night_id=night_id)
    nights = list(nights)
    games: dict[int, list[int]] = {}
    if nights:
        for linked_night, game_id in links.values_list("night_id", "game_id"):
            games.setdefault(linked_night, []).append(game_id)
    return [
        {
            "id": night.pk,
            "name": night.name,
            "status": night.status,
            "opened_at": night.opened_at.isoformat(),
            "closed_at": night.closed_at.isoformat() if night.closed_at else None,
            "entry_fee": amount_string(night.entry_fee_minor, club),
            "prize_split": night.prize_split.percentages if hasattr(night, "prize_split") else [],
            "games": sorted(games.get(night.pk, [])),
            "settlement": settle_ups.of(
                "night", night.pk, stake=None, entry_fee=night.entry_fee_minor
            ),
        }
        for night in nights
    ]


def _envelope(club, events: list[dict], games: list[Game], nights: list[dict]) -> dict:
    players, teams = _people(club)
    return {
        "archive": "jink",
        "version": ARCHIVE_VERSION,
        "exported_at": timezone.now().isoformat(),
        "club": _club_json(club),
        "players": players,
        "teams": teams,
        "games": [_game_json(game, club) for game in games],
        "events": events,
        "nights": nights,
    }


def event_archive(tournament) -> dict:
    settle_ups = _SettleUps(tournament.club, tournament_id=tournament.pk)
    event, game_ids = _event_json(tournament, settle_ups)
    games = _games(Game.objects.filter(pk__in=game_ids))
    return _envelope(tournament.club, [event], games, [])


def night_archive(night) -> dict:
    """One club night: its games and settle-up, the club's players and teams (``events`` empty)."""
    club = night.club
    nights = _nights_json(club, _SettleUps(club, night_id=night.pk), night_id=night.pk)
    games = _games(Game.objects.filter(pk__in=nights[0]["games"]))
    return _envelope(club, [], games, nights)


def iter_games(queryset) -> Iterator[Game]:
    """The games of ``queryset`` by id, with their seats and hands, ``GAMES_PAGE`` at a time
    (keyset pages: the memory held is one page, whatever the history)."""
    last = 0
    while True:
        page = list(
            queryset.filter(pk__gt=last)
            .order_by("pk")
            .prefetch_related(
                Prefetch("seats", queryset=GameSeat.objects.order_by("seat")),
                Prefetch("hands", queryset=Hand.objects.order_by("number")),
            )[:GAMES_PAGE]
        )
        yield from page
        if len(page) < GAMES_PAGE:
            return
        last = page[-1].pk


def club_archive_parts(club) -> tuple[dict, Iterator[dict]]:
    """The club's archive without its games (``"games": []``), and its games one by one, read
    a page at a time as they are consumed (the first page now): what a streamed export sends."""
    settle_ups = _SettleUps(club)
    events = []
    for tournament in tournament_selectors.list_club_tournaments(club=club):
        event, _ = _event_json(tournament, settle_ups)
        events.append(event)
    envelope = _envelope(club, events, [], _nights_json(club, settle_ups))
    games = iter_games(Game.objects.filter(club=club))
    first = next(games, None)
    if first is None:
        return envelope, iter(())
    return envelope, (_game_json(game, club) for game in itertools.chain([first], games))


def club_archive(club) -> dict:
    envelope, games = club_archive_parts(club)
    envelope["games"] = list(games)
    return envelope


def json_chunks(envelope: dict, games: Iterable[dict]) -> Iterator[str]:
    """The archive's JSON text (``indent=1``, as ``json.dumps`` writes the whole archive), the
    envelope first, then the games one at a time."""
    marker = "\x00games\x00"
    text = json.dumps(
        {**envelope, "games": marker}, cls=DjangoJSONEncoder, indent=1, ensure_ascii=False
    )
    head, tail = text.split(json.dumps(marker), 1)
    yield head + "["
    empty = True
    for game in games:
        body = json.dumps(game, cls=DjangoJSONEncoder, indent=1, ensure_ascii=False)
        yield ("\n" if empty else ",\n") + textwrap.indent(body, "  ")
        empty = False
    yield ("]" if empty else "\n ]") + tail
