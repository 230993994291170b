"""Whole games of 25, 45, 110 and Auction 45 through the API, entered both ways.

Each game is one list of hand plans (tests/games/records.py); the test sends every hand either as
a trick-winner entry or as a card-by-card entry and checks, hand by hand, the points and totals
worked out by hand from rules.md, then the winner, the stored hands and the stake ledger. Both
entries of one plan must give the same numbers: the card-by-card records make the planned seats
win by this test module's own card order, so they also check the engine's.
"""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from games.models import Game, Hand, LedgerEntry
from tests.games.records import HandPlan, card_record, trick_winner_record


@dataclass
class WholeGame:
    game: str
    seats: int
    teams: list[list[int]] | None
    first_dealer: int
    plans: list[HandPlan]
    # Per hand: points per side, totals per side after it.
    points: list[list[int]]
    totals: list[list[int]]
    winner: int
    double_stake: bool = False
    kitty: int = 0
    first_lead: str = "left_of_dealer"


WHOLE_GAMES = {
    # 2 v 2: the second hand stops in its fourth trick, when side 0 reaches 25.
    "25": WholeGame(
        game="25",
        seats=4,
        teams=[[0, 2], [1, 3]],
        first_dealer=3,
        plans=[HandPlan(3, [0, 1, 1, 2, 2]), HandPlan(0, [1, 3, 0, 2])],
        points=[[15, 10], [10, 10]],
        totals=[[15, 10], [25, 20]],
        winner=0,
    ),
    # Three players for themselves: seat 2 takes all five tricks from zero, double stakes.
    "25-jink": WholeGame(
        game="25",
        seats=3,
        teams=None,
        first_dealer=0,
        plans=[HandPlan(0, [0, 1, 1, 0, 1]), HandPlan(1, [2, 2, 2, 2, 2])],
        points=[[10, 15, 0], [0, 0, 25]],
        totals=[[10, 15, 0], [10, 15, 25]],
        winner=2,
        double_stake=True,
    ),
    # 2 v 2: the trick with the best trump is worth 10; side 0 passes 45 in the third hand.
    "45": WholeGame(
        game="45",
        seats=4,
        teams=[[0, 2], [1, 3]],
        first_dealer=0,
        plans=[
            HandPlan(0, [1, 1, 0, 2, 1], {2}),
            HandPlan(1, [2, 2, 3, 3, 2], {2, 4}),
            HandPlan(2, [0, 0, 2, 2, 1], {0, 4}),
        ],
        points=[[15, 15], [15, 15], [25, 5]],
        totals=[[15, 15], [30, 30], [55, 35]],
        winner=0,
    ),
    # Three players: a made bid, a failed bid (minus the bid), a held bid raised to a jink, and
    # two more jinks (+60 each).
    "110": WholeGame(
        game="110",
        seats=3,
        teams=None,
        first_dealer=0,
        plans=[
            HandPlan(
                0, [2, 1, 1, 1, 0], {1}, bid=(1, 20), bidding=[(1, "20"), (2, "pass"), (0, "pass")]
            ),
            HandPlan(
                1, [2, 0, 2, 1, 2], {1}, bid=(2, 25), bidding=[(2, "25"), (0, "pass"), (1, "pass")]
            ),
            HandPlan(
                2,
                [0, 0, 0, 0, 0],
                set(),
                bid=(0, 60),
                bidding=[(0, "15"), (1, "pass"), (2, "hold"), (0, "60"), (2, "pass")],
            ),
            HandPlan(
                0,
                [1, 1, 1, 1, 1],
                set(),
                bid=(1, 60),
                bidding=[(1, "60"), (2, "pass"), (0, "pass")],
            ),
            HandPlan(
                1, [0, 0, 0, 0, 0], {0}, bid=(0, 60), bidding=[(2, "pass"), (0, "60"), (1, "pass")]
            ),
        ],
        points=[[5, 20, 5], [10, 5, -25], [60, 0, 0], [0, 60, 0], [60, 0, 0]],
        totals=[[5, 20, 5], [15, 25, -20], [75, 25, -20], [75, 85, -20], [135, 85, -20]],
        winner=0,
        kitty=5,
    ),
    # 2 v 2: a made 30 scores 60; the dealer holds 25 and is outbid with 30.
    "auction45": WholeGame(
        game="auction45",
        seats=4,
        teams=[[0, 2], [1, 3]],
        first_dealer=0,
        plans=[
            HandPlan(
                0,
                [1, 3, 3, 1, 1],
                {0},
                bid=(1, 30),
                bidding=[(1, "30"), (2, "pass"), (3, "pass"), (0, "pass")],
            ),
            HandPlan(
                1,
                [0, 2, 2, 1, 0],
                {0},
                bid=(2, 20),
                bidding=[(2, "20"), (3, "pass"), (0, "pass"), (1, "pass")],
            ),
            HandPlan(
                2,
                [1, 3, 3, 1, 3],
                {0},
                bid=(3, 30),
                bidding=[(3, "25"), (0, "pass"), (1, "pass"), (2, "hold"), (3, "30"), (2, "pass")],
            ),
        ],
        points=[[0, 60], [25, 5], [0, 60]],
        totals=[[0, 60], [25, 65], [25, 125]],
        winner=1,
        kitty=3,
        first_lead="left_of_bidder",
    ),
}


def record_for(whole: WholeGame, plan: HandPlan, entry: str) -> dict:
    is_bidding = whole.game in ("55", "110", "220", "auction45")
    if entry == "trick_winners":
        return trick_winner_record(plan, has_best_trump=whole.game != "25", is_bidding=is_bidding)
    return card_record(
        plan,
        seat_count=whole.seats,
        is_bidding=is_bidding,
        kitty=whole.kitty,
        first_lead=whole.first_lead,
    )


def by_side(values: list[int]) -> dict[str, int]:
    return {str(side): value for side, value in enumerate(values)}


@pytest.mark.django_db
@pytest.mark.parametrize("entry", ["trick_winners", "cards"])
@pytest.mark.parametrize("name", list(WHOLE_GAMES))
def test_whole_game(table, name, entry):
    whole = WHOLE_GAMES[name]
    body = {"first_dealer": whole.first_dealer, "stake": "0.30"}
    if whole.teams is not None:
        body["teams"] = whole.teams
    game = table.new_game(whole.game, whole.seats, **body)
    assert game["status"] == "in_progress"
    assert game["totals"] == by_side([0] * len(whole.points[0]))
    assert game["next_dealer"] == whole.first_dealer

    etag = None
    for index, plan in enumerate(whole.plans):
        number = index + 1
        record = record_for(whole, plan, entry)
        response = table.post_hand(game["id"], {"number": number, **record})
        assert response.status_code == 201, response.json()
        hand = response.json()
        assert hand["number"] == number
        assert hand["dealer"] == plan.dealer
        assert hand["trick_winners"] == plan.winners
        assert hand["points"] == by_side(whole.points[index])
        assert hand["totals"] == by_side(whole.totals[index])
        assert hand["record"] == record
        if plan.trump_tricks:
            best = hand["best_trump"]
            assert (best["seat"], best["trick"]) == (
                plan.winners[min(plan.trump_tricks)],
                min(plan.trump_tricks),
            )
            # Card by card, the engine names the card: the highest trump of these plans.
            assert best["card"] == ("5S" if entry == "cards" else None)
        if plan.bid is not None:
            assert (hand["bid"]["seat"], hand["bid"]["amount"]) == plan.bid
        last = index == len(whole.plans) - 1
        assert hand["game"]["status"] == ("finished" if last else "in_progress")
        assert hand["game"]["winner"] == (whole.winner if last else None)
        assert response["ETag"] != etag
        etag = response["ETag"]

    stored = table.client().get(f"/api/games/{game['id']}/").json()
    assert stored["status"] == "finished"
    assert stored["winner"] == whole.winner
    assert stored["double_stake"] is whole.double_stake
    assert stored["totals"] == by_side(whole.totals[-1])
    assert stored["hands_played"] == len(whole.plans)

    hands = table.client().get(f"/api/games/{game['id']}/hands/").json()
    assert [hand["totals"] for hand in hands["results"]] == [by_side(t) for t in whole.totals]

    # The stake: every loser pays 0.30 (0.60 with double stakes), the winners share it.
    ledger = table.client().get(f"/api/games/{game['id']}/ledger/").json()
    seats = stored["seats"]
    winners = [seat["player"]["id"] for seat in seats if seat["side"] == whole.winner]
    losers = [seat["player"]["id"] for seat in seats if seat["side"] != whole.winner]
    stake = 60 if whole.double_stake else 30
    share = stake * len(losers) // len(winners)
    expected = {str(player): -stake for player in losers}
    expected.update({str(player): share for player in winners})
    assert {player: round(float(amount) * 100) for player, amount in ledger["net"].items()} == (
        expected
    )
    assert (
        sum(LedgerEntry.objects.filter(game_id=game["id"]).values_list("amount_minor", flat=True))
        == 0
    )

    # A finished game takes no more hands.
    extra = table.post_hand(game["id"], {"dealer": 0, "misdeal": True})
    assert extra.status_code == 409
    assert extra.json()["code"] == "game_over"
    assert Hand.objects.filter(game_id=game["id"]).count() == len(whole.plans)
    assert Game.objects.get(pk=game["id"]).version == len(whole.plans) + 1
