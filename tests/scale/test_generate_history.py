"""The history generator's rows pass the services' own checks (issue 27), at a small size.

What it checks, on one run of ``manage.py generate_history`` (3 clubs, 2 nights each, 3 tables,
2 games a table, 2 events each: one of every event plan): the counts follow the arguments; the
engine accepts every hand, night and tournament games alike, re-scored from the game's start
exactly as ``games.bridge`` records it (the same result, totals and fields), and each game holds
what its last hand left; the ledger is what ``games.ledger`` would book (``sync_ledger`` books
nothing); each night's and event's settle-up version is the one ``settle_event`` stores
(recomputed after removing it: the same lines, details, fingerprint and transfers) and balances;
every tournament is closed with its format's rounds complete, each match decided as its games
decide it (``progress.refresh_match`` stores nothing) and seated as ``play`` seats it, and its
standings snapshot is ``compute_standings`` at its data version; each season snapshot equals
``compute_season_rows`` and its stamp; the ratings are the ones ``seasons.ratings`` computes (no
disagreement, and the same figures from scratch); people in two clubs are linked; the id
sequences moved past the loaded rows; sizes and events that cannot be filled are refused.
"""

from __future__ import annotations

import datetime
import io
from collections import defaultdict

import pytest
from django.core.management import CommandError, call_command

from clubs.models import Club, Player
from federations.models import FederationPlayer, PlayerLink
from games.bridge import play_state, start_for
from games.ledger import game_shares, sync_ledger
from games.models import Game, Hand, LedgerEntry
from rankings.models import RankedGame
from scale.events import PLANS
from seasons.league_table import compute_season_rows, data_stamp
from seasons.models import PlayerRating, RatedGame, RatingChange, SeasonSnapshot
from seasons.ratings import recompute_ratings, update_ratings
from settlements.models import Night, NightGame, Settlement, SettlementTransfer
from settlements.settle_up import settle_event
from tournaments import bridge, play, progress, snapshots
from tournaments.draw import knockout, meetings
from tournaments.formats import policy_for
from tournaments.models import (
    Format,
    Match,
    MatchGame,
    MatchStatus,
    RoundStatus,
    StandingsSnapshot,
    Tournament,
    TournamentStatus,
)
from tournaments.standings import compute_standings

pytestmark = pytest.mark.django_db

SIZE = {
    "clubs": 3,
    "nights_per_club": 2,
    "tables": 3,
    "games_per_table": 2,
    "pool_games": 8,
    "events_per_club": 2,  # 3 clubs x 2: each of the six event plans once
}
YEAR = 2025
NIGHT_GAMES = 3 * 2 * 3 * 2


@pytest.fixture
def generated() -> str:
    out = io.StringIO()
    call_command(
        "generate_history",
        *(f"--{name.replace('_', '-')}={value}" for name, value in SIZE.items()),
        f"--year={YEAR}",
        "--seed=5",
        "--rankings",
        stdout=out,
    )
    return out.getvalue()


def test_counts_follow_the_arguments(generated):
    assert Club.objects.count() == 3
    assert Night.objects.count() == 3 * 2
    assert Tournament.objects.count() == 3 * 2
    event_games = MatchGame.objects.count()
    assert Game.objects.count() == NIGHT_GAMES + event_games
    assert NightGame.objects.count() == NIGHT_GAMES
    assert Settlement.objects.filter(night__isnull=False).count() == 3 * 2
    assert Settlement.objects.filter(tournament__isnull=False).count() == 3 * 2
    assert SeasonSnapshot.objects.count() == 3
    assert RatedGame.objects.count() == NIGHT_GAMES + event_games
    hands = sum(Game.objects.values_list("hands_played", flat=True))
    assert Hand.objects.count() == hands
    assert set(Game.objects.values_list("status", flat=True)) == {"finished"}
    assert list(
        NightGame.objects.values_list("table_number", flat=True).distinct().order_by("table_number")
    ) == [1, 2, 3]
    printed = {line.split()[0]: line.split()[1:3] for line in generated.splitlines()[1:]}
    # the night games loaded; in the table, the events' too (created by the services)
    assert printed["games_game"] == [str(NIGHT_GAMES), f"{NIGHT_GAMES + event_games:,}"]
    assert printed["games_hand"] == [f"{hands:,}", f"{hands:,}"]
    assert printed["settlements_night"] == ["6", "6"]
    assert printed["tournaments_tournament"] == ["services", "6"]
    assert "Generated in" in generated


def test_the_engine_accepts_every_hand_and_each_game_holds_its_hands(generated):
    for game in Game.objects.all():
        state = start_for(game)
        hands = list(game.hands.order_by("number"))
        assert [hand.number for hand in hands] == list(range(1, len(hands) + 1))
        for hand in hands:
            state, fields, result = play_state(state, hand.record)
            assert result == hand.result
            assert fields == hand.state_after
            assert fields["totals"] == hand.totals_after
            assert result["dealer"] == hand.dealer
        for name, value in fields.items():
            assert getattr(game, name) == value, (game.pk, name)
        assert game.version == 1 + len(hands)
        assert game.updated_at == hands[-1].entered_at


def test_the_ledger_is_what_the_service_books(generated):
    staked = 0
    for game in Game.objects.prefetch_related("seats"):
        nets: dict[int, int] = defaultdict(int)
        for entry in LedgerEntry.objects.filter(game=game):
            nets[entry.player_id] += entry.amount_minor
        assert {player: net for player, net in nets.items() if net} == game_shares(game)
        assert sum(nets.values()) == 0
        assert sync_ledger(game=game, user=None) is False
        staked += 1 if nets else 0
    assert staked > 0


def test_every_settle_up_version_is_the_services_and_balances(generated):
    assert SettlementTransfer.objects.exists()
    for settlement in Settlement.objects.all():
        moved: dict[int | None, int] = defaultdict(int)
        for transfer in settlement.transfers.all():
            moved[transfer.payer_id] -= transfer.amount_minor
            moved[transfer.payee_id] += transfer.amount_minor
        assert sum(moved.values()) == 0
        differences = {line["player"]: line["difference"] for line in settlement.lines}
        assert sum(differences.values()) == 0
        assert {party: amount for party, amount in moved.items() if amount} == {
            party: amount for party, amount in differences.items() if amount
        }
        event = {"night_id": settlement.night_id, "tournament_id": settlement.tournament_id}
        assert settle_event(**event) is None  # nothing has changed
    for settlement in Settlement.objects.all():
        transfers = sorted(
            settlement.transfers.values_list("payer_id", "payee_id", "amount_minor", "kind"),
            key=repr,  # the club's pot is a party without a player (None)
        )
        Settlement.objects.filter(pk=settlement.pk).delete()
        again = settle_event(night_id=settlement.night_id, tournament_id=settlement.tournament_id)
        assert again.version == 1
        assert again.lines == settlement.lines
        assert again.details == settlement.details
        assert again.fingerprint == settlement.fingerprint
        assert (
            sorted(
                again.transfers.values_list("payer_id", "payee_id", "amount_minor", "kind"),
                key=repr,
            )
            == transfers
        )


def test_season_snapshots_equal_a_recomputation(generated):
    first, last = datetime.date(YEAR, 1, 1), datetime.date(YEAR, 12, 31)
    for snapshot in SeasonSnapshot.objects.all():
        assert (snapshot.date_from, snapshot.date_to) == (first, last)
        assert snapshot.rows == compute_season_rows(snapshot.club_id, first, last)
        assert snapshot.data_stamp == data_stamp(snapshot.club_id, first, last)
        assert len(snapshot.rows) > 0


def test_ratings_are_what_the_ratings_job_computes(generated):
    for club_id in Club.objects.values_list("pk", flat=True):
        assert update_ratings(club_id=club_id) == {"rated": 0, "from_scratch": False}
        before = sorted(
            PlayerRating.objects.filter(club_id=club_id).values_list(
                "player_id", "mu", "sigma", "ordinal", "games"
            )
        )
        changes = sorted(
            RatingChange.objects.filter(game__club_id=club_id).values_list(
                "player_id", "game_id", "sequence", "mu", "sigma"
            )
        )
        recompute_ratings(club_id=club_id)
        assert (
            sorted(
                PlayerRating.objects.filter(club_id=club_id).values_list(
                    "player_id", "mu", "sigma", "ordinal", "games"
                )
            )
            == before
        )
        assert (
            sorted(
                RatingChange.objects.filter(game__club_id=club_id).values_list(
                    "player_id", "game_id", "sequence", "mu", "sigma"
                )
            )
            == changes
        )


def test_people_in_two_clubs_are_linked_and_sequences_moved(generated):
    links = PlayerLink.objects.select_related("player", "federation_player")
    by_person: dict[int, list] = defaultdict(list)
    for link in links:
        assert link.player.display_name == link.federation_player.display_name
        by_person[link.federation_player_id].append(link.player.club_id)
    assert len(by_person) == FederationPlayer.objects.count()
    assert PlayerLink.objects.count() == Player.objects.count()  # every player is linked
    in_two = [clubs for clubs in by_person.values() if len(clubs) == 2]
    assert len(in_two) == 2 * 3  # 3 of the 36 players of each club after the first
    assert all(len(set(clubs)) == len(clubs) for clubs in by_person.values())
    club = Club.objects.order_by("pk").first()
    newest = Player.objects.order_by("-pk").first()
    assert Player.objects.create(club=club, display_name="Someone new").pk > newest.pk


def test_the_rankings_job_ran_over_the_federation(generated):
    games = Game.objects.count()
    assert RankedGame.objects.count() == games
    assert f"Rankings rebuilt by their job (rebuild_rankings): {games} games rated" in generated


def test_every_tournament_is_what_its_services_store(generated):
    tournaments = list(Tournament.objects.order_by("pk"))
    assert sorted(tournament.name.rsplit(" ", 1)[0] for tournament in tournaments) == sorted(
        plan.name for plan in PLANS
    )
    assert {tournament.format for tournament in tournaments} == set(Format.values)
    assert {tournament.table_size for tournament in tournaments} == {2, 3, 4, 5}
    for tournament in tournaments:
        _check_tournament(tournament)


def _check_tournament(tournament: Tournament) -> None:
    assert tournament.status == TournamentStatus.CLOSED
    assert datetime.date(YEAR, 1, 1) <= tournament.closed_at.date() <= datetime.date(YEAR, 12, 31)
    policy = policy_for(tournament)
    entrants = set(tournament.entrants.values_list("pk", flat=True))
    rounds = bridge.rounds_with_matches(tournament)
    assert [round_.number for round_ in rounds] == list(
        range(1, policy.round_count(tournament) + 1)
    )
    assert {round_.status for round_ in rounds} == {RoundStatus.COMPLETE}
    for round_ in rounds:
        drawn = [slot.entrant_id for match in round_.matches.all() for slot in match.slots.all()]
        assert len(drawn) == len(set(drawn))  # nobody twice in a round
        if tournament.format != Format.KNOCKOUT:
            assert set(drawn) == entrants  # everyone plays every round (byes included)
            assert all(
                len(match.slots.all()) == tournament.table_size
                for match in round_.matches.all()
                if not match.is_bye
            )
    # Every match decided, consistently with its games: the service's own recomputation from
    # the games stores nothing; each game seated as the service seats the match.
    for match in Match.objects.filter(tournament=tournament).order_by("pk"):
        match = play.load_match(match.pk)
        assert match.status == MatchStatus.DECIDED
        if match.is_bye:
            continue
        reading = progress.read_match(match, tournament)
        games = play.match_games(match)
        assert reading.is_decided and len(reading.counted_games) == len(games) >= 1
        seating = play.seating_of(match, tournament)
        for number, game in enumerate(games):
            seats = sorted(game.seats.all(), key=lambda seat: seat.seat)
            assert [seat.player_id for seat in seats] == seating.seat_player_ids
            assert game.first_dealer == number % len(seats)
            assert game.stake_minor == tournament.stake_minor
        assert progress.refresh_match(match, tournament, None) == progress.MatchRefresh()
    if tournament.format == Format.KNOCKOUT:
        bracket = bridge.bracket_of(tournament)
        results = bridge.knockout_results_of(rounds)
        assert knockout.is_complete(bracket, results)
        assert knockout.champion(bracket, results) in entrants
    if tournament.format == Format.ROUND_ROBIN:  # 9 at tables of 3: everyone meets once
        met = meetings(
            result for played in bridge.played_rounds_of(tournament) for result in played.results
        )
        assert len(met) == 9 * 8 // 2
        assert set(met.values()) == {1}
    # The standings snapshot is the job's: what compute_standings gives now, at the data version.
    snapshot = StandingsSnapshot.objects.get(tournament=tournament)
    body = compute_standings(tournament, with_etag=False)
    del body["computed_at"]
    assert snapshot.body == body
    assert (snapshot.version, snapshot.data_version) == (1, tournament.data_version)
    assert snapshots.refresh_standings(tournament_id=tournament.pk)["stored"] == 0
    assert len(snapshot.body["standings"]) == len(entrants)


@pytest.mark.parametrize("argument", ["--clubs=0", "--tables=0", "--pool-games=0"])
def test_a_size_below_one_is_refused_and_nothing_is_stored(argument):
    with pytest.raises(CommandError, match=r"must be at least 1\."):
        call_command("generate_history", argument, stdout=io.StringIO())
    assert not Club.objects.exists()
    assert not Game.objects.exists()


def test_an_event_the_club_cannot_fill_is_refused_and_nothing_is_stored():
    with pytest.raises(CommandError, match=r"Pairs cup needs 16 players, the club has 12"):
        call_command(
            "generate_history",
            "--clubs=1",
            "--nights-per-club=1",
            "--tables=1",
            "--pool-games=8",
            "--events-per-club=1",
            stdout=io.StringIO(),
        )
    assert not Club.objects.exists()
    assert not Tournament.objects.exists()
