"""Ratings rated game by game (``seasons.ratings.rate_game``): the same as from scratch, at a cost
that does not grow with the club's history.

Games are played through the games services with their on-commit callbacks run, so
``games.changes`` announces each change and ``rate_game_task`` runs in process, as in the
embedded setup. A "lost" message is a change whose callbacks are not run; it is delivered late
(``rate_game_task`` for that game, out of order) or left to the sweep (``update_ratings``).
"""

from __future__ import annotations

import random

import pytest
from django.db import connection
from django.test import TestCase
from django.test.utils import CaptureQueriesContext

from games.models import Game, GameStatus
from games.services import correct_hand, create_game, record_hand, undo_last_hand
from seasons import ratings
from seasons.models import ClubRatingState, PlayerRating, RatedGame, RatingChange
from tests.tournaments.play_helpers import build_event

pytestmark = pytest.mark.django_db

# The queries of rating one finished game after the last one rated: the game's club, the
# advisory lock, the game with its finished time, its seats, the club's rating state, the game's
# rated row, its players' ratings, and the writes (ratings, history, rated game, state), inside
# a savepoint.
RATE_ONE_GAME_QUERIES = 13


def deciding_record(game: Game, winner_seat: int) -> dict:
    """One hand of 25 that ends the game: ``winner_seat`` takes every trick."""
    return {"dealer": game.next_dealer, "trump": "S", "trick_winners": [winner_seat] * 5}


def start(event, seats: list[int], teams=None) -> Game:
    with TestCase.captureOnCommitCallbacks(execute=True):
        return create_game(
            club=event.club,
            user=event.world.users["scorekeeper"],
            game="25",
            seat_player_ids=seats,
            teams=teams,
        )


def finish(event, game: Game, winner_seat: int, *, delivered: bool = True) -> None:
    """The deciding hand; ``delivered=False`` loses its on-commit work (the ratings message)."""
    with TestCase.captureOnCommitCallbacks(execute=delivered):
        record_hand(
            game_id=game.pk,
            user=event.world.users["scorekeeper"],
            record=deciding_record(game, winner_seat),
        )


def correct(event, game_id: int, winner_seat: int) -> None:
    game = Game.objects.get(pk=game_id)
    with TestCase.captureOnCommitCallbacks(execute=True):
        correct_hand(
            game_id=game_id,
            number=1,
            user=event.world.users["scorekeeper"],
            record={"dealer": game.first_dealer, "trump": "S", "trick_winners": [winner_seat] * 5},
            if_match=None,
        )


def reopen(event, game_id: int) -> None:
    with TestCase.captureOnCommitCallbacks(execute=True):
        undo_last_hand(
            game_id=game_id, number=1, user=event.world.users["scorekeeper"], if_match=None
        )


def deliver_late(game_id: int) -> dict:
    """The game's lost ratings message, delivered now (and what it queues, run in process)."""
    with TestCase.captureOnCommitCallbacks(execute=True):
        return ratings.rate_game(game_id=game_id)


def stored_ratings(club_id: int) -> tuple:
    """Everything the ratings store for a club, comparable exactly."""
    return (
        sorted(
            PlayerRating.objects.filter(club_id=club_id).values_list(
                "player_id", "mu", "sigma", "ordinal", "games"
            )
        ),
        sorted(
            RatingChange.objects.filter(player__club_id=club_id).values_list(
                "player_id", "game_id", "sequence", "mu", "sigma", "ordinal"
            )
        ),
        sorted(
            RatedGame.objects.filter(club_id=club_id).values_list(
                "game_id", "sequence", "game_version", "finished_at"
            )
        ),
    )


def play_games(event, count: int, *, delivered: bool = True) -> list[Game]:
    players = [player.pk for player in event.players]
    games = []
    for index in range(count):
        seats = [players[index % len(players)], players[(index + 1) % len(players)]]
        game = start(event, seats)
        finish(event, game, index % 2, delivered=delivered)
        games.append(game)
    return games


def rating_one_game_queries(event, history: int) -> tuple[int, int]:
    """Bring the club's history to ``history`` rated games, then rate one more (its message
    delivered by hand); returns (queries, games rated)."""
    already = RatedGame.objects.filter(club_id=event.club.pk).count()
    play_games(event, history - already, delivered=False)
    assert ratings.update_ratings(club_id=event.club.pk)["rated"] == history - already
    (game,) = play_games(event, 1, delivered=False)
    with CaptureQueriesContext(connection) as queries:
        result = ratings.rate_game(game_id=game.pk)
    assert result == {"rated": 1, "from_sequence": None, "catching_up": False}
    return len(queries.captured_queries), RatedGame.objects.filter(club_id=event.club.pk).count()


def test_rating_one_finished_game_costs_the_same_queries_after_4_or_64_games():
    event = build_event(players=6)
    assert rating_one_game_queries(event, 4) == (RATE_ONE_GAME_QUERIES, 5)
    assert rating_one_game_queries(event, 64) == (RATE_ONE_GAME_QUERIES, 65)
    # What it stored is what a rating from scratch stores.
    incremental = stored_ratings(event.club.pk)
    ratings.recompute_ratings(club_id=event.club.pk)
    assert stored_ratings(event.club.pk) == incremental


def test_a_game_rated_twice_stores_nothing_the_second_time():
    event = build_event(players=2)
    (game,) = play_games(event, 1)
    before = stored_ratings(event.club.pk)
    assert ratings.rate_game(game_id=game.pk) == {
        "rated": 0,
        "from_sequence": None,
        "catching_up": False,
    }
    assert stored_ratings(event.club.pk) == before


def test_a_correction_re_rates_from_that_game_on_and_a_late_game_takes_its_place(monkeypatch):
    monkeypatch.setattr(ratings, "CATCH_UP_BATCH", 2)
    event = build_event(players=4)
    games = play_games(event, 6)
    assert list(
        RatedGame.objects.filter(club_id=event.club.pk)
        .order_by("sequence")
        .values_list("game_id", flat=True)
    ) == [game.pk for game in games]
    changes_before = dict(RatingChange.objects.filter(game__in=games[:3]).values_list("pk", "mu"))
    # The fourth game is corrected (its other seat wins): the first three keep their rows;
    # the fourth to sixth are re-rated, two per task (the catch-up queued itself once).
    seats = list(games[3].seats.order_by("seat").values_list("player_id", flat=True))
    correct(event, games[3].pk, 1)
    assert Game.objects.get(pk=games[3].pk).winner_side == 1
    assert (
        dict(RatingChange.objects.filter(game__in=games[:3]).values_list("pk", "mu"))
        == changes_before
    )
    assert RatedGame.objects.filter(club_id=event.club.pk).count() == 6
    assert ClubRatingState.objects.get(club=event.club).catching_up is False
    incremental = stored_ratings(event.club.pk)
    ratings.recompute_ratings(club_id=event.club.pk)
    assert stored_ratings(event.club.pk) == incremental
    assert PlayerRating.objects.get(player_id=seats[1]).games == len(
        [game for game in games if seats[1] in game.seats.values_list("player_id", flat=True)]
    )

    # A game whose message was lost finishes before another one is rated: when its message
    # comes, the later game is re-rated after it.
    others = [player.pk for player in event.players if player.pk not in seats]
    late, later = start(event, seats), start(event, others)
    finish(event, late, 0, delivered=False)
    finish(event, later, 1)
    result = deliver_late(late.pk)
    assert (result["rated"], result["from_sequence"]) == (2, 7)
    assert list(
        RatedGame.objects.filter(club_id=event.club.pk, sequence__gte=7)
        .order_by("sequence")
        .values_list("game_id", flat=True)
    ) == [late.pk, later.pk]
    incremental = stored_ratings(event.club.pk)
    ratings.recompute_ratings(club_id=event.club.pk)
    assert stored_ratings(event.club.pk) == incremental

    # A rated game reopened leaves the ratings (its players' steps after it re-rated).
    reopen(event, games[0].pk)
    assert not RatedGame.objects.filter(game_id=games[0].pk).exists()
    assert not RatingChange.objects.filter(game_id=games[0].pk).exists()
    incremental = stored_ratings(event.club.pk)
    ratings.recompute_ratings(club_id=event.club.pk)
    assert stored_ratings(event.club.pk) == incremental


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_incremental_ratings_equal_a_recomputation_over_random_histories(seed, monkeypatch):
    """Random games (two to four seats, free-for-all or pairs), some of their messages lost and
    delivered late, corrections of rated games, games reopened and finished again; after every
    step whose messages all arrived, the stored ratings equal a rating from scratch."""
    monkeypatch.setattr(ratings, "CATCH_UP_BATCH", 3)
    chance = random.Random(seed)
    event = build_event(players=7)
    players = [player.pk for player in event.players]
    finished: list[int] = []
    open_games: list[int] = []
    lost: list[int] = []
    checked = 0
    for _ in range(36):
        step = chance.random()
        if step < 0.45 or len(finished) < 3:
            size = chance.choice([2, 3, 4])
            seats = chance.sample(players, size)
            teams = [[0, 2], [1, 3]] if size == 4 and chance.random() < 0.5 else None
            game = start(event, seats, teams)
            delivered = chance.random() > 0.2
            finish(event, game, chance.randrange(size), delivered=delivered)
            finished.append(game.pk)
            if not delivered:
                lost.append(game.pk)
        elif step < 0.6 and lost:
            deliver_late(lost.pop(chance.randrange(len(lost))))
        elif step < 0.8:
            game = Game.objects.get(pk=chance.choice(finished))
            correct(event, game.pk, chance.randrange(len(game.side_of_seat)))
            lost = [game_id for game_id in lost if game_id != game.pk]  # announced now
        elif step < 0.9:
            game_id = chance.choice(finished)
            reopen(event, game_id)
            finished.remove(game_id)
            open_games.append(game_id)
            lost = [lost_id for lost_id in lost if lost_id != game_id]
        elif open_games:
            game = Game.objects.get(pk=open_games.pop())
            finish(event, game, chance.randrange(len(game.side_of_seat)))
            finished.append(game.pk)
        if not lost:
            incremental = stored_ratings(event.club.pk)
            ratings.recompute_ratings(club_id=event.club.pk)
            assert stored_ratings(event.club.pk) == incremental
            checked += 1
    # The sweep delivers what is still lost.
    ratings.update_ratings(club_id=event.club.pk)
    incremental = stored_ratings(event.club.pk)
    ratings.recompute_ratings(club_id=event.club.pk)
    assert stored_ratings(event.club.pk) == incremental
    assert {game_id for game_id, *_ in incremental[2]} == set(
        Game.objects.filter(club=event.club, status=GameStatus.FINISHED).values_list(
            "pk", flat=True
        )
    )
    assert checked > 5
