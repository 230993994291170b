"""``GET /api/tournaments/{id}/settlement/``: the stakes of a tournament's games per player, the
fewest transfers that clear them, and the entry fees owed to the club, played through the API.

Every game here is won in one hand from nothing (``win_game`` gives the winning side every trick
it needs), which is 25's "25 from zero": the stake is doubled, so a game at a stake of 0.20
moves 0.40 from each loser.
"""

from __future__ import annotations

import pytest

from tests.clubs.factories import make_club, make_membership, make_user
from tests.helpers import count_queries, token_client
from tests.tournaments.play_helpers import build_event, win_game, win_match

pytestmark = pytest.mark.django_db


def settlement_url(tournament_id: int) -> str:
    return f"/api/tournaments/{tournament_id}/settlement/"


def read_settlement(event, tournament_id: int, *, role: str = "player") -> dict:
    body = event.ok("get", settlement_url(tournament_id), role=role)
    assert body.pop("computed_at")
    return body


def player(event, index: int) -> dict:
    """``{"id", "name"}`` of ``event.players[index]``."""
    chosen = event.players[index]
    return {"id": chosen.pk, "name": chosen.display_name}


def knockout(event, **settings) -> int:
    tournament = event.create_tournament(
        name="Cup",
        game="25",
        format="knockout",
        entrants=[
            {"player": entered.pk, "seed": index + 1} for index, entered in enumerate(event.players)
        ],
        **settings,
    )
    return tournament["id"]


def test_a_knockout_settles_the_stakes_of_every_game_and_reports_entry_fees_apart():
    event = build_event(players=4)
    tournament_id = knockout(
        event, match_rule="best_of", match_games=3, stake="0.20", entry_fee="5.00"
    )
    semis = event.draw(tournament_id)["matches"]
    win_match(event, tournament_id, semis[0]["id"], 0, losses_first=1)  # 1 beats 4, 2-1
    win_match(event, tournament_id, semis[1]["id"], 0)  # 2 beats 3, 2-0
    (final,) = event.rounds(tournament_id)[1]["matches"]
    assert [slot["entrant"] for slot in final["entrants"]] == [
        semis[0]["entrants"][0]["entrant"],
        semis[1]["entrants"][0]["entrant"],
    ]
    win_match(event, tournament_id, final["id"], 1, losses_first=1)  # 2 beats 1, 2-1

    # Player 1: +0.40 +0.40 -0.40, then +0.40 -0.40 -0.40 = 0; player 2: +0.80, then +0.40;
    # player 3: -0.80; player 4: -0.40. Player 1 is out of it: 3 and 4 pay 2 directly.
    assert read_settlement(event, tournament_id) == {
        "tournament": tournament_id,
        "currency": "EUR",
        "stake": "0.20",
        "balances": [
            {"player": player(event, 0), "stakes": "0.00", "entry_fee_due": "5.00"},
            {"player": player(event, 1), "stakes": "1.20", "entry_fee_due": "5.00"},
            {"player": player(event, 2), "stakes": "-0.80", "entry_fee_due": "5.00"},
            {"player": player(event, 3), "stakes": "-0.40", "entry_fee_due": "5.00"},
        ],
        "transfers": [
            {"payer": player(event, 2), "payee": player(event, 1), "amount": "0.80"},
            {"payer": player(event, 3), "payee": player(event, 1), "amount": "0.40"},
        ],
        "entry_fees": {"fee": "5.00", "players": 4, "pot": "20.00"},
    }


def test_only_the_tournaments_games_count_not_the_clubs_other_games():
    event = build_event(players=2)
    tournament_id = knockout(event, stake="0.20")
    (final,) = event.draw(tournament_id)["matches"]
    win_match(event, tournament_id, final["id"], 0)
    # A friendly between the same two players, outside the tournament, at a stake of 1.00.
    friendly = event.ok(
        "post",
        f"/api/clubs/{event.club.slug}/games/",
        {
            "game": "25",
            "seats": [event.players[0].pk, event.players[1].pk],
            "first_dealer": 0,
            "stake": "1.00",
        },
        status=201,
        role="scorekeeper",
    )
    win_game(event, friendly["id"], 1)

    settlement = read_settlement(event, tournament_id)
    assert settlement["transfers"] == [
        {"payer": player(event, 1), "payee": player(event, 0), "amount": "0.40"},
    ]
    club_balances = event.ok("get", f"/api/clubs/{event.club.slug}/balances/")
    assert club_balances["transfers"] == [
        {"payer": player(event, 0), "payee": player(event, 1), "amount": "1.60"},
    ]


def test_every_member_of_a_team_entrant_owes_the_entry_fee():
    event = build_event(players=0, teams=2)
    tournament = event.create_tournament(
        name="Pairs",
        game="25",
        format="knockout",
        entrant_kind="team",
        stake="1.00",
        entry_fee="2.50",
        entrants=[{"team": team.pk, "seed": index + 1} for index, team in enumerate(event.teams)],
    )
    tournament_id = tournament["id"]
    (final,) = event.draw(tournament_id)["matches"]
    assert [slot["name"] for slot in final["entrants"]] == ["Team 01", "Team 02"]
    win_match(event, tournament_id, final["id"], 0)  # team 1 beats team 2

    def member(team_index: int, position: int) -> dict:
        chosen = event.teams[team_index].team_members.get(position=position).player
        return {"id": chosen.pk, "name": chosen.display_name}

    settlement = read_settlement(event, tournament_id)
    # Names "Team 01 member 0" ... sort team by team.
    assert settlement["balances"] == [
        {"player": member(0, 0), "stakes": "2.00", "entry_fee_due": "2.50"},
        {"player": member(0, 1), "stakes": "2.00", "entry_fee_due": "2.50"},
        {"player": member(1, 0), "stakes": "-2.00", "entry_fee_due": "2.50"},
        {"player": member(1, 1), "stakes": "-2.00", "entry_fee_due": "2.50"},
    ]
    assert settlement["transfers"] == [
        {"payer": member(1, 0), "payee": member(0, 0), "amount": "2.00"},
        {"payer": member(1, 1), "payee": member(0, 1), "amount": "2.00"},
    ]
    assert settlement["entry_fees"] == {"fee": "2.50", "players": 4, "pot": "10.00"}


def test_a_tournament_without_stakes_or_fee_owes_nothing():
    event = build_event(players=3)
    tournament_id = knockout(event)

    assert read_settlement(event, tournament_id) == {
        "tournament": tournament_id,
        "currency": "EUR",
        "stake": None,
        "balances": [
            {"player": player(event, index), "stakes": "0.00", "entry_fee_due": "0.00"}
            for index in range(3)
        ],
        "transfers": [],
        "entry_fees": {"fee": None, "players": 3, "pot": "0.00"},
    }


def test_amounts_are_in_the_clubs_currency():
    event = build_event(players=2)
    type(event.club).objects.filter(pk=event.club.pk).update(currency="JPY")
    tournament_id = knockout(event, stake="100", entry_fee="1500")
    (final,) = event.draw(tournament_id)["matches"]
    win_match(event, tournament_id, final["id"], 1)

    settlement = read_settlement(event, tournament_id)
    assert (settlement["currency"], settlement["stake"]) == ("JPY", "100")
    assert settlement["transfers"] == [
        {"payer": player(event, 0), "payee": player(event, 1), "amount": "200"},
    ]
    assert settlement["entry_fees"] == {"fee": "1500", "players": 2, "pot": "3000"}


def change_first_hand(event, game_id: int, winners: list[int]):
    etag = event.call("get", f"/api/games/{game_id}/", role="scorekeeper").headers["ETag"]
    hand = event.ok("get", f"/api/games/{game_id}/hands/1/", role="scorekeeper")
    record = {"dealer": hand["dealer"], "trump": "S", "trick_winners": winners}
    return event.call(
        "put", f"/api/games/{game_id}/hands/1/", record, role="scorekeeper", **{"If-Match": etag}
    )


def test_a_correction_that_changes_a_games_winner_changes_the_settlement():
    event = build_event(players=2)
    tournament_id = knockout(event, stake="0.20")
    (final,) = event.draw(tournament_id)["matches"]
    decided = win_match(event, tournament_id, final["id"], 0)
    game_id = decided["games"][0]["id"]
    url = settlement_url(tournament_id)
    before = event.call("get", url, role="player")
    assert before.json()["transfers"] == [
        {"payer": player(event, 1), "payee": player(event, 0), "amount": "0.40"},
    ]
    old_etag = before.headers["ETag"]
    again = event.call("get", url, role="player", **{"If-None-Match": old_etag})
    assert (again.status_code, again.content, again.headers["ETag"]) == (304, b"", old_etag)

    corrected = change_first_hand(event, game_id, [1, 1, 1, 1, 1])
    assert corrected.status_code == 200, corrected.content
    assert corrected.json()["outcome"]["winner_changed"] is True

    after = event.call("get", url, role="player", **{"If-None-Match": old_etag})
    assert after.status_code == 200
    assert after.headers["ETag"] != old_etag
    assert after.json()["balances"] == [
        {"player": player(event, 0), "stakes": "-0.40", "entry_fee_due": "0.00"},
        {"player": player(event, 1), "stakes": "0.40", "entry_fee_due": "0.00"},
    ]
    assert after.json()["transfers"] == [
        {"payer": player(event, 0), "payee": player(event, 1), "amount": "0.40"},
    ]
    # A correction that leaves the game unfinished takes its stakes back out.
    assert change_first_hand(event, game_id, [1, 1, 1, 0, 0]).status_code == 200
    assert read_settlement(event, tournament_id)["transfers"] == []


def test_money_is_for_members_of_the_club_only():
    event = build_event(players=2)
    private = knockout(event)
    public = event.create_tournament(
        name="Open",
        game="25",
        format="knockout",
        is_public=True,
        entrants=[{"player": entered.pk} for entered in event.players],
    )["id"]
    other_club = make_club("elsewhere")
    stranger = make_user("elsewhere-organiser")
    make_membership(other_club, stranger, "organiser")

    def status(tournament_id: int, role: str) -> int:
        return event.call("get", settlement_url(tournament_id), role=role).status_code

    for role in ("player", "scorekeeper", "organiser"):
        assert (status(private, role), status(public, role)) == (200, 200)
    # The public tournament is readable by anybody, its money is not.
    standings = event.call("get", f"/api/tournaments/{public}/standings/", role="outsider")
    assert standings.status_code == 200
    assert (status(private, "anonymous"), status(public, "anonymous")) == (404, 401)
    assert (status(private, "outsider"), status(public, "outsider")) == (404, 403)
    client = token_client(stranger)
    assert client.get(settlement_url(private)).status_code == 404
    assert client.get(settlement_url(public)).status_code == 403
    # A read-only resource: a member's write is refused as a method not allowed.
    refused = event.call("post", settlement_url(private), {}, role="organiser")
    assert (refused.status_code, refused.json()["code"]) == (405, "method_not_allowed")
    assert event.call("get", settlement_url(999999), role="organiser").status_code == 404


# The device token and its user (2), the tournament with its club, the reader's role, the
# stakes summed per player, the entered players, their names.
EXPECTED_QUERIES = 7


# The larger bracket plays 21 games (~20 s): slow; the smaller one pins the same count.
@pytest.mark.parametrize(
    ("size", "games_per_match"),
    [
        (4, 1),
        pytest.param(8, 3, marks=pytest.mark.slow),
    ],
)
def test_the_settlement_costs_a_fixed_number_of_queries(size, games_per_match):
    event = build_event(players=size)
    tournament_id = knockout(
        event,
        match_rule="best_of",
        match_games=games_per_match,
        stake="0.20",
        entry_fee="1.00",
    )
    for match in event.draw(tournament_id)["matches"]:
        win_match(event, tournament_id, match["id"], 0, losses_first=games_per_match // 2)
    client = event.client("player")

    counted = count_queries(client.get, settlement_url(tournament_id))

    assert len(counted.response.json()["transfers"]) == size // 2
    assert counted.count == EXPECTED_QUERIES
