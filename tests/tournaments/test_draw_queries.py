"""Query counts of drawing a round and of deciding a knockout match: fixed, however many tables.

What it checks: ``POST /api/tournaments/{id}/rounds/`` costs the same number of queries for a
swiss of 16 and of 63 entrants (round 1, and round 2 drawn on stored results) and for a knockout of
16 and of 64 entrants (round 1); the hand that decides a knockout match and fills the next table
costs the same in a bracket of 8 and of 16. It also pins what the batched writes store: the
rows and the django-simple-history trail of a drawn round are those that saving each match and
game one by one writes, and ``games.services.create_games`` refuses a batch with the problem
``create_game`` would have raised first, storing nothing.

What it does not check: the draws themselves (``test_api_swiss_and_round_robin``,
``test_api_knockout`` and the ``test_draw_*`` modules do) or speed (``bench/bench_tournaments.py``
prints figures).
"""

from __future__ import annotations

import pytest

from clubs.models import Player
from config.problems import Problem
from games import services as game_services
from games.models import Game, GameSeat, GameSide, GameStatus
from games.new_games import NewGame
from tests.helpers import count_queries
from tests.tournaments.play_helpers import build_event, win_game
from tournaments.models import Match, MatchStatus

pytestmark = pytest.mark.django_db

# POST /rounds/ by an organiser with a device token, without Idempotency-Key; nothing here
# depends on the number of tables (0 queries per table):
#   4 before the service: the token and its user, the user's other tokens (knox), the
#     tournament (view), the caller's role;
#   the service's transaction (SAVEPOINT/RELEASE here, BEGIN/COMMIT in production: 2);
#   lock the tournament (1); the draw's input (bridge.swiss_history_of): the rounds, each
#   flagged when a match is undecided (1), then once there are some the match points and byes
#   summed per entrant and the pairs who met (2); round 1 only: its entrants and the UPDATE
#   fixing the draw order (2); INSERT the round + history (2); INSERT every match, byes
#   included, + history, and every slot (3); load the matches to start: matches, slots with
#   entrants, games (3);
#   create_games (8): the players, SAVEPOINT, INSERT the games + history, the seats, the sides,
#   the match links (tournaments.MatchGame; tournaments passes each match's terms, so none is
#   read), RELEASE; UPDATE the matches to in progress + history (2); the round statuses: the
#   rounds, the new one asked for an undecided match (1); INSERT the audit entry (1);
#   5 for the response: the tournament again, the round, its matches, slots and games.
#   + the standings' data version (1 UPDATE) and, after the commit, the standings refresh with
#     the subscribers' look-ups (STANDINGS_REFRESH: in these tests tasks run in process, so it is
#     counted here; in production a worker runs it). The standings read a swiss's (or round
#     robin's) released matches and slots as plain rows, 2 queries; a knockout reads its rounds
#     with their matches and slots, 3 (KNOCKOUT_STANDINGS_REFRESH). Once stored, the refresh
#     reads the data version once more after its commit (1), not a second round under the lock.
STANDINGS_REFRESH = 12
KNOCKOUT_STANDINGS_REFRESH = STANDINGS_REFRESH + 1
SWISS_ROUND_ONE = 4 + 2 + 1 + 1 + 2 + 2 + 3 + 3 + 8 + 2 + 1 + 1 + 5 + 1 + STANDINGS_REFRESH
# Round 2 reads round 1's sums per entrant and the pairs who met to draw (+2), fixes no draw
# order (-2) and reads the entrants to draw only those checked in, late arrivals included (+1).
SWISS_ROUND_TWO = SWISS_ROUND_ONE + 1
# A knockout reads its rounds a second time to advance the bracket (+1), keeps them in memory
# for the round statuses (-1), reads back round 1 for the service's answer (+1), and its
# standings read its rounds (+1: KNOCKOUT_STANDINGS_REFRESH).
KNOCKOUT_ROUND_ONE = SWISS_ROUND_ONE + 1 - 1 + 1 + 1

# The hand that decides a knockout match whose neighbour is decided, opening round 2:
#   13 for the hand (tests/games/test_queries.py's 11, + the seats and the ledger sums of the
#     finished game);
#   1 after the commit: the subscriber finds the game's match (tournaments.game_hooks);
#   36 for the match's progress: its own transaction (2), the match's tournament found and
#     locked, the match with slots, games, seats and hands (4), its 2 slots and
#     itself + history (4), its unplayed games (1), the rounds with matches and slots (3), the
#     sources of the next table (1), INSERT round 2 + history (2), INSERT the match + history +
#     slots (3), load it to start (3), create_games (8, as in the draw: the match link is inserted
#     where the matches were read), mark it in progress +
#     history (2), the match's status for the task's answer (1).
# However many matches the bracket holds.
#   + 1 for the standings' data version and the standings refresh (KNOCKOUT_STANDINGS_REFRESH),
#   run in process here. (Nothing is counted to find out what the progress changed: the format's
#   policy says what it stored, so the 4 queries that counted rounds and matches before and
#   after are gone.)
#   + the jobs the finished game queues through games.changes, run in process here (a worker's
#   in production): the subscribers' look-ups (a closed night's game? the game's day and the
#   stored season ranges, any webhook endpoint), the season table's refresh and the game's
#   rating (seasons.ratings.rate_game, 13: the same however long the club's history):
#   JOBS_OF_A_FINISHED_GAME, the same however big the bracket.
JOBS_OF_A_FINISHED_GAME = 31
#   + the finished game's outbox row (config.announce): its INSERT in the hand's transaction and
#   its DELETE once the subscribers ran, after the commit (2). The match decided and the round
#   drawn write none: only webhooks would hear of them, and the club has no endpoint.
OUTBOX_ROW = 2
DECIDING_HAND_FILLING_A_TABLE = (
    50 + 1 + KNOCKOUT_STANDINGS_REFRESH + JOBS_OF_A_FINISHED_GAME + OUTBOX_ROW
)


def play_round(event, matches: list[dict]) -> None:
    """Side 0 wins every game of every match that is not a bye."""
    for match in matches:
        if not match["is_bye"]:
            win_game(event, match["games"][0]["id"], 0)


# 63 entrants play a whole round first (~30 s): slow; 16 pins the same counts.
@pytest.mark.parametrize("entrant_count", [16, pytest.param(63, marks=pytest.mark.slow)])
def test_drawing_a_swiss_round_costs_the_same_however_many_tables(entrant_count):
    event = build_event(players=entrant_count)
    tournament = event.create_tournament(
        name="Swiss",
        game="25",
        format="swiss",
        round_count=3,
        auto_advance=False,
        entrants=[
            {"player": player.pk, "seed": index + 1} for index, player in enumerate(event.players)
        ],
    )
    url = f"/api/tournaments/{tournament['id']}/rounds/"
    event.client("organiser")  # the token is issued before counting
    counted = count_queries(event.call, "post", url, status=201)
    assert counted.count == SWISS_ROUND_ONE
    round_one = counted.response.json()
    assert len(round_one["matches"]) == (entrant_count + 1) // 2
    assert [match["is_bye"] for match in round_one["matches"]].count(True) == entrant_count % 2
    play_round(event, round_one["matches"])
    counted = count_queries(event.call, "post", url, status=201)
    assert counted.count == SWISS_ROUND_TWO
    round_two = counted.response.json()
    assert round_two["number"] == 2


@pytest.mark.parametrize("entrant_count", [16, 64])
def test_drawing_knockout_round_one_costs_the_same_however_many_tables(entrant_count):
    event = build_event(players=entrant_count)
    tournament = event.create_tournament(
        name="Cup",
        game="25",
        format="knockout",
        entrants=[
            {"player": player.pk, "seed": index + 1} for index, player in enumerate(event.players)
        ],
    )
    event.client("organiser")
    url = f"/api/tournaments/{tournament['id']}/rounds/"
    counted = count_queries(event.call, "post", url, status=201)
    assert counted.count == KNOCKOUT_ROUND_ONE
    round_one = counted.response.json()
    assert len(round_one["matches"]) == entrant_count // 2
    assert {match["status"] for match in round_one["matches"]} == {"in_progress"}


@pytest.mark.parametrize("entrant_count", [8, 16])
def test_the_hand_that_fills_the_next_table_costs_the_same_however_big_the_bracket(entrant_count):
    event = build_event(players=entrant_count)
    tournament = event.create_tournament(
        name="Cup",
        game="25",
        format="knockout",
        entrants=[
            {"player": player.pk, "seed": index + 1} for index, player in enumerate(event.players)
        ],
    )
    round_one = event.draw(tournament["id"])
    first, second = round_one["matches"][:2]
    win_game(event, first["games"][0]["id"], 0)
    game_id = second["games"][0]["id"]
    event.client("scorekeeper")
    # 25 at trick 5: side 0 takes every trick of one hand and reaches 25.
    counted = count_queries(
        event.call,
        "post",
        f"/api/games/{game_id}/hands/",
        {"dealer": 0, "trump": "S", "trick_winners": [0] * 5},
        role="scorekeeper",
        status=201,
    )
    assert counted.count == DECIDING_HAND_FILLING_A_TABLE
    round_two = event.rounds(tournament["id"])[1]
    assert [match["table"] for match in round_two["matches"]] == [1]
    assert round_two["matches"][0]["status"] == "in_progress"


def test_a_drawn_round_stores_the_rows_and_history_of_saving_one_by_one():
    event = build_event(players=5)
    organiser = event.world.users["organiser"]
    tournament = event.create_tournament(
        name="Swiss",
        game="25",
        format="swiss",
        round_count=2,
        auto_advance=False,
        stake="0.50",
        house_rules={"target": 45},
        entrants=[
            {"player": player.pk, "seed": index + 1} for index, player in enumerate(event.players)
        ],
    )
    drawn = event.draw(tournament["id"])
    matches = list(Match.objects.filter(tournament_id=tournament["id"]).order_by("table"))
    assert [(match.table, match.is_bye, match.status) for match in matches] == [
        (1, False, MatchStatus.IN_PROGRESS),
        (2, False, MatchStatus.IN_PROGRESS),
        (3, True, MatchStatus.DECIDED),
    ]
    assert [match["id"] for match in drawn["matches"]] == [match.pk for match in matches]
    # Each played match: created pending, then marked in progress when its game started; the
    # bye: created decided. Every row by the organiser, with no change reason.
    for match in matches:
        trail = [
            (
                record.history_type,
                record.status,
                record.history_user_id,
                record.history_change_reason,
            )
            for record in match.history.order_by("history_date", "history_id")
        ]
        if match.is_bye:
            assert trail == [("+", MatchStatus.DECIDED, organiser.pk, None)]
        else:
            assert trail == [
                ("+", MatchStatus.PENDING, organiser.pk, None),
                ("~", MatchStatus.IN_PROGRESS, organiser.pk, None),
            ]
            assert match.history.order_by("history_id").last().updated_at == match.updated_at
    games = list(
        Game.objects.filter(match_link__match__tournament_id=tournament["id"]).order_by("pk")
    )
    # One game per played table, in table order, seated in the match's seat order.
    assert [game.match_link.match_id for game in games] == [match.pk for match in matches[:2]]
    seeds = {player.pk: index + 1 for index, player in enumerate(event.players)}
    for game, match in zip(games, matches, strict=False):
        slots = list(match.slots.order_by("position").select_related("entrant"))
        seats = list(GameSeat.objects.filter(game=game).order_by("seat"))
        assert [(seat.seat, seat.player_id, seat.side) for seat in seats] == [
            (0, slots[0].entrant.player_id, 0),
            (1, slots[1].entrant.player_id, 1),
        ]
        assert sorted(seeds[seat.player_id] for seat in seats) in ([1, 3], [2, 4])
        assert list(
            GameSide.objects.filter(game=game).order_by("index").values_list("index", "team_id")
        ) == [(0, None), (1, None)]
        assert (
            game.status,
            game.first_dealer,
            game.stake_minor,
            game.house_rules["target"],
            game.created_by_id,
        ) == (GameStatus.IN_PROGRESS, 0, 50, 45, organiser.pk)
        assert [
            (record.history_type, record.history_user_id, record.history_change_reason)
            for record in game.history.all()
        ] == [("+", organiser.pk, "game created")]


def test_create_games_refuses_with_the_first_problem_create_game_would_raise():
    event = build_event(players=6)
    club = event.club
    organiser = event.world.users["organiser"]
    first, second, third, fourth, fifth, sixth = event.players
    Player.objects.filter(pk=fourth.pk).update(is_active=False)
    before = Game.objects.count()
    batch = [
        NewGame(seat_player_ids=[first.pk, second.pk]),
        # Game 2 seats an inactive player; game 3 names a match of no tournament of the club.
        NewGame(seat_player_ids=[third.pk, fourth.pk], first_dealer=1),
        NewGame(seat_player_ids=[fifth.pk, sixth.pk], tournament_match=999999),
    ]
    with pytest.raises(Problem) as refused:
        game_services.create_games(club=club, user=organiser, game="25", new_games=batch)
    assert (refused.value.code, refused.value.errors) == (
        "inactive_player",
        [
            {
                "code": "inactive_player",
                "detail": f"Player {fourth.pk} ({fourth.display_name}) is no longer active.",
                "pointer": "/seats/1",
            }
        ],
    )
    with pytest.raises(Problem) as refused:
        game_services.create_games(club=club, user=organiser, game="25", new_games=batch[2:])
    assert (refused.value.code, refused.value.errors[0]["pointer"]) == (
        "invalid_tournament_match",
        "/tournament_match",
    )
    assert Game.objects.count() == before
    created = game_services.create_games(club=club, user=organiser, game="25", new_games=[batch[0]])
    assert [[seat.player_id for seat in game.seats.order_by("seat")] for game in created] == [
        [first.pk, second.pk]
    ]
