"""Helpers of the exchange tests: a night played through the API in one club, a second club to
import it into, and the comparisons of what the two clubs hold.

What it does: ``played_night(event)`` opens a night with a prize split and an entry fee, plays
three games at two tables (a 2 v 2 among them) through the API, marks fees and closes it (the
settle-up job runs on commit); ``played_cup(event)`` plays and closes a knockout of four with a
third-place match, a prize split, an entry fee and a stake (the final in two hands);
``federation()`` is a second club (``build_event`` with its own
slug) with players of other names; ``night_games(night)`` lists a night's games by table as
names, sides, totals, winner and hand records; ``last_settle_up(night)`` the latest settle-up
version as names and amounts; ``row_counts()`` the rows an import could write;
``draw_of(tournament)``, ``settle_up_of(tournament_id)`` and ``event_outcome(tournament)`` the
same for an event (its rounds, matches, games and hands; its standings; its last settle-up);
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
from tests.tournaments.play_helpers import build_event, current_game, win_game, win_match
from tournaments.models import Match, Tournament
from tournaments.standings import compute_standings


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


def played_cup(home, *, teams: bool = False) -> int:
    """A closed knockout of four with a third-place match; its id."""
    entrants = (
        [{"team": team.pk} for team in home.teams]
        if teams
        else [{"player": player.pk} for player in home.players[:4]]
    )
    tournament = home.create_tournament(
        name="Winter cup",
        game="25",
        format="knockout",
        entrant_kind="team" if teams else "player",
        third_place_match=True,
        stake="0.20",
        entry_fee="5.00",
        entrants=entrants,
    )
    tournament_id = tournament["id"]
    home.ok("put", f"/api/tournaments/{tournament_id}/prize-split/", {"percentages": [60, 40]})
    first = entrants[0]
    if not teams:
        home.ok(
            "post",
            f"/api/tournaments/{tournament_id}/fees/",
            {"player": first["player"], "status": "cash"},
            status=201,
        )
    semis = home.draw(tournament_id)["matches"]
    win_match(home, tournament_id, semis[0]["id"], 0)
    win_match(home, tournament_id, semis[1]["id"], 1)
    later = [
        match
        for round_ in home.rounds(tournament_id)
        if round_["number"] == 2
        for match in round_["matches"]
    ]
    assert len(later) == 2
    for match in later:
        if match["is_third_place"]:
            win_match(home, tournament_id, match["id"], 0)
        else:
            play_final(home, tournament_id, match["id"])
    home.ok("post", f"/api/tournaments/{tournament_id}/close/")
    return tournament_id


def play_final(home, tournament_id: int, match_id: int) -> None:
    """The final in two hands, side 0 winning 25 to 20: 10-15, then 25-20 (a correction of the
    last hand, 25-15, moves the points but not the winner)."""
    game = home.game(current_game(home, tournament_id, match_id)["id"])
    winner, loser = (side["seats"][0] for side in game["sides"])
    for tricks in ([winner, winner, loser, loser, loser], [winner, loser, winner, winner]):
        game = home.game(game["id"])
        record = {"dealer": game["next_dealer"], "trump": "S", "trick_winners": tricks}
        home.ok("post", f"/api/games/{game['id']}/hands/", record, status=201)
    assert home.game(game["id"])["status"] == "finished"


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


def _entrant_name(entrant) -> str:
    return entrant.player.display_name if entrant.player_id else entrant.team.name


def draw_of(tournament: Tournament) -> list:
    """The rounds, tables and seats by names (ids differ between the clubs)."""
    rows = []
    for match in Match.objects.filter(tournament=tournament).order_by("round__number", "table"):
        slots = [
            (
                slot.position,
                _entrant_name(slot.entrant),
                slot.side,
                (slot.source_match.round.number, slot.source_match.table)
                if slot.source_match_id
                else None,
                slot.source_place,
                slot.games_won,
                slot.points_for,
                slot.tricks_won,
                slot.place,
                slot.advances,
            )
            for slot in match.slots.order_by("position").select_related(
                "entrant__player", "entrant__team", "source_match__round"
            )
        ]
        games = [
            (
                game.totals,
                game.status,
                game.winner_side,
                game.stake_minor,
                game.house_rules,
                [(seat.seat, seat.player.display_name, seat.side) for seat in game.seats.all()],
                list(Hand.objects.filter(game=game).order_by("number").values_list("record")),
            )
            for game in Game.objects.filter(match_link__match=match).order_by("pk")
        ]
        rows.append(
            (
                match.round.number,
                match.round.status,
                match.table,
                match.status,
                match.is_bye,
                match.is_third_place,
                slots,
                games,
            )
        )
    return rows


def settle_up_of(tournament_id: int) -> tuple:
    version = Settlement.objects.filter(tournament_id=tournament_id).order_by("-version").first()
    names = dict(Player.objects.values_list("pk", "display_name"))
    lines = [
        {key: (names.get(value) if key == "player" else value) for key, value in line.items()}
        for line in version.lines
    ]
    transfers = sorted(
        (
            t.payer.display_name if t.payer else "the club",
            t.payee.display_name if t.payee else "the club",
            t.amount_minor,
            t.kind,
        )
        for t in SettlementTransfer.objects.filter(settlement=version).select_related(
            "payer", "payee"
        )
    )
    return version.version, lines, transfers


def event_outcome(tournament: Tournament) -> dict:
    """What the event came to, as JSON: its draw with each match's figures and games, its
    standings and its last settle-up, by names (comparable across databases)."""
    standings = [
        (
            row["rank"],
            row.get("place"),
            row["entrant"]["name"],
            row["match_wins"],
            row["points_for"],
            row["tricks_won"],
        )
        for row in compute_standings(tournament)["standings"]
    ]
    outcome = {
        "status": tournament.status,
        "draw": draw_of(tournament),
        "standings": standings,
        "settle_up": settle_up_of(tournament.pk),
    }
    return json.loads(json.dumps(outcome))
