"""The history generator's rows pass the services' own checks (issue 27), at a small size.

What it checks, on one run of ``manage.py generate_history`` (3 clubs, 2 nights each, 3 tables,
2 games a table): the counts follow the arguments; the engine accepts every hand, re-scored from
the game's start exactly as ``games.bridge`` records it (the same result, totals and fields), and
each game holds what its last hand left; the ledger is what ``games.ledger`` would book
(``sync_ledger`` books nothing); each night's settle-up version is the one ``settle_event``
stores (recomputed after removing it: the same lines, details, fingerprint and transfers) and
balances; each season snapshot equals ``compute_season_rows`` and its stamp; the ratings are the
ones ``seasons.ratings`` computes (no disagreement, and the same figures from scratch); people
in two clubs are linked; the id sequences moved past the loaded rows.
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
from seasons.league_table import compute_season_rows, data_stamp
from seasons.models import PlayerRating, RatedGame, RatingChange, SeasonSnapshot
from seasons.ratings import recompute_ratings, update_ratings
from settlements.models import Night, NightGame, Settlement, SettlementTransfer
from settlements.settle_up import settle_event

pytestmark = pytest.mark.django_db

SIZE = {"clubs": 3, "nights_per_club": 2, "tables": 3, "games_per_table": 2, "pool_games": 8}
YEAR = 2025
GAMES = 3 * 2 * 3 * 2


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
    assert Game.objects.count() == GAMES
    assert NightGame.objects.count() == GAMES
    assert Settlement.objects.count() == 3 * 2
    assert SeasonSnapshot.objects.count() == 3
    assert RatedGame.objects.count() == GAMES
    hands = sum(Game.objects.values_list("hands_played", flat=True))
    assert Hand.objects.count() == hands
    assert set(Game.objects.values_list("status", flat=True)) == {"finished"}
    assert list(
        NightGame.objects.values_list("table_number", flat=True).distinct().order_by("table_number")
    ) == [1, 2, 3]
    printed = {line.split()[0]: line.split()[1:3] for line in generated.splitlines()[1:]}
    assert printed["games_game"] == [str(GAMES), str(GAMES)]  # loaded, and in the table
    assert printed["games_hand"] == [f"{hands:,}", f"{hands:,}"]
    assert printed["settlements_night"] == ["6", "6"]
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
        assert settle_event(night_id=settlement.night_id) is None  # nothing has changed
    for settlement in Settlement.objects.all():
        transfers = sorted(
            settlement.transfers.values_list("payer_id", "payee_id", "amount_minor", "kind")
        )
        Settlement.objects.filter(pk=settlement.pk).delete()
        again = settle_event(night_id=settlement.night_id)
        assert again.version == 1
        assert again.lines == settlement.lines
        assert again.details == settlement.details
        assert again.fingerprint == settlement.fingerprint
        assert (
            sorted(again.transfers.values_list("payer_id", "payee_id", "amount_minor", "kind"))
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
    assert RankedGame.objects.count() == GAMES
    assert "Rankings rebuilt by their job (rebuild_rankings): 36 games rated" in generated


@pytest.mark.parametrize("argument", ["--clubs=0", "--tables=0", "--pool-games=0"])
def test_a_size_below_one_is_refused_and_nothing_is_stored(argument):
    with pytest.raises(CommandError, match=r"must be at least 1\."):
        call_command("generate_history", argument, stdout=io.StringIO())
    assert not Club.objects.exists()
    assert not Game.objects.exists()
