"""A club's history, or one event's, as one JSON archive or as CSV (docs/console.md documents the
archive's fields).

What it does: ``event_archive(tournament)`` and ``club_archive(club)`` return a JSON-ready dict
``{"archive": "jink", "version": 1, "exported_at", "club", "players", "teams", "games",
"events"}`` — every event with its settings, entrants, rounds, matches (with their games' ids),
standings and settlement, every game with its seats, sides, totals and hands (each hand's record
as entered and the engine's result). ``games_csv_rows`` flattens games to one row per side (the
CSV export). Reads only, in a number of queries that grows with the number of events, not of
games or hands.

What it does not do: import anything (players come in through ``clubs.services``), or decide
who may export (the views: organisers).
"""

from __future__ import annotations

from django.db.models import Prefetch
from django.utils import timezone

from clubs import selectors as club_selectors
from games.models import Game, GameSeat, Hand
from games.money import minor_to_decimal_string
from tournaments import selectors as tournament_selectors
from tournaments.progress import load_matches
from tournaments.settlement import compute_settlement
from tournaments.standings import compute_standings

ARCHIVE_VERSION = 1
CSV_HEADER = ["event", "round", "table", "game", "game_type", "status", "hands", "side",
              "players", "total", "winner", "stake", "created_at"]


def _money(club, amount):
    return None if amount is None else minor_to_decimal_string(amount, club.minor_unit_exponent)


def _club_json(club) -> dict:
    return {"slug": club.slug, "name": club.name, "currency": club.currency,
            "time_zone": club.time_zone, "default_game": club.default_game,
            "default_house_rules": club.default_house_rules}


def _people(club) -> tuple[list, list]:
    players = [
        {"id": player.pk, "name": player.display_name, "is_active": player.is_active}
        for player in club_selectors.list_players(club=club)
    ]
    teams = [
        {"id": team.pk, "name": team.name, "is_active": team.is_active,
         "members": [member.pk for member in team.ordered_members()]}
        for team in club_selectors.list_teams(club=club)
    ]
    return players, teams


def _game_json(game: Game, club) -> dict:
    return {
        "id": game.pk,
        "game": game.game,
        "status": game.status,
        "house_rules": game.house_rules,
        "seats": [{"seat": seat.seat, "player": seat.player_id, "side": seat.side}
                  for seat in game.seats.all()],
        "totals": game.totals,
        "winner_side": game.winner_side,
        "stake": _money(club, game.stake_minor),
        "created_at": game.created_at.isoformat(),
        "hands": [
            {"number": hand.number, "record": hand.record, "result": hand.result,
             "totals_after": hand.totals_after, "entered_at": hand.entered_at.isoformat()}
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


def _event_json(tournament) -> tuple[dict, list[int]]:
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
            matches_json.append({
                "table": match.table, "status": match.status, "is_bye": match.is_bye,
                "entrants": [slot.entrant_id for slot in sorted(
                    match.slots.all(), key=lambda slot: slot.position)],
                "result": match.result, "games": ids,
            })
        rounds_json.append({
            "number": round_.number, "status": round_.status,
            "released_at": round_.released_at.isoformat() if round_.released_at else None,
            "matches": matches_json,
        })
    standings = compute_standings(tournament)
    settlement = compute_settlement(tournament)
    event = {
        "id": tournament.pk, "name": tournament.name, "game": tournament.game,
        "format": tournament.format, "entrant_kind": tournament.entrant_kind,
        "table_size": tournament.table_size, "round_count": tournament.round_count,
        "match_rule": tournament.match_rule, "match_games": tournament.match_games,
        "house_rules": tournament.house_rules, "status": tournament.status,
        "stake": _money(club, tournament.stake_minor),
        "entry_fee": _money(club, tournament.entry_fee_minor),
        "created_at": tournament.created_at.isoformat(),
        "closed_at": tournament.closed_at.isoformat() if tournament.closed_at else None,
        "entrants": [
            {"id": entrant.pk, "player": entrant.player_id, "team": entrant.team_id,
             "name": entrant.name, "seed": entrant.seed, "is_present": entrant.is_present}
            for entrant in tournament_selectors.list_entrants(tournament=tournament)
        ],
        "rounds": rounds_json,
        "standings": [
            {"rank": row["rank"], "entrant": row["entrant"]["id"],
             "match_wins": row["match_wins"], "points_for": row["points_for"],
             "tricks_won": row["tricks_won"]}
            for row in standings["standings"]
        ],
        "settlement": {key: settlement[key] for key in
                       ("currency", "stake", "balances", "transfers", "entry_fees")},
    }
    return event, game_ids


def _envelope(club, events: list[dict], games: list[Game]) -> dict:
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
    }


def event_archive(tournament) -> dict:
    event, game_ids = _event_json(tournament)
    games = _games(Game.objects.filter(pk__in=game_ids))
    return _envelope(tournament.club, [event], games)


def club_archive(club) -> dict:
    events = []
    for tournament in tournament_selectors.list_club_tournaments(club=club):
        event, _ = _event_json(tournament)
        events.append(event)
    return _envelope(club, events, _games(Game.objects.filter(club=club)))


def games_csv_rows(archive: dict) -> list[list]:
    """One row per side of every game in ``archive`` (``CSV_HEADER`` order)."""
    names = {player["id"]: player["name"] for player in archive["players"]}
    place = {}
    for event in archive["events"]:
        for round_ in event["rounds"]:
            for match in round_["matches"]:
                for game_id in match["games"]:
                    place[game_id] = (event["name"], round_["number"], match["table"])
    rows = []
    for game in archive["games"]:
        event, round_number, table = place.get(game["id"], ("", "", ""))
        for side, total in enumerate(game["totals"]):
            players = [names.get(seat["player"], str(seat["player"]))
                       for seat in game["seats"] if seat["side"] == side]
            rows.append([event, round_number, table, game["id"], game["game"], game["status"],
                         len(game["hands"]), side, " & ".join(players), total,
                         "yes" if game["winner_side"] == side else "",
                         game["stake"] or "", game["created_at"]])
    return rows
