"""The season table and the ratings: stored by the jobs the game-change subscribers queue, read by
the API from their snapshot (ETag, 304, stale); the ratings re-rated from a corrected game on.

Games are played through the games API with every on-commit callback run, so games announces
each change (``games.changes``) and the subscribers' tasks run in process, as in the embedded
setup; a "lost" message is a write whose on-commit work is not run.
"""

from __future__ import annotations

import io

import pytest
from django.core.management import call_command
from django.test import TestCase
from openskill.models import PlackettLuce

from games.changes import GameChange, GameChangeKind, deliver
from games.services import correct_hand
from seasons import league_table, ratings
from seasons.models import PlayerRating, RatingChange, SeasonSnapshot
from seasons.tasks import sweep_seasons_task
from tests.helpers import logged_in_client
from tests.tournaments.play_helpers import build_event, start_game, win_game

pytestmark = pytest.mark.django_db


def announce(event, game_id, *kinds):
    with TestCase.captureOnCommitCallbacks(execute=True):
        deliver(GameChange(game_id=game_id, club_id=event.club.pk, kinds=frozenset(kinds)))


def season(event, role="player", **headers):
    return event.call("get", f"/api/clubs/{event.club.slug}/season/", role=role, **headers)


def test_the_season_table_is_stored_by_the_job_and_read_with_etag_and_304():
    event = build_event(players=3)
    ann, bill, cait = event.players
    first = start_game(event, [ann, bill])
    win_game(event, first, 0)
    response = season(event)
    assert response.status_code == 200
    body = response.json()
    assert (body["version"], body["stale"]) == (1, False)
    assert [
        (
            row["rank"],
            row["player"]["name"],
            row["games"],
            row["wins"],
            row["points"],
            row["net_stakes"],
        )
        for row in body["rows"]
    ] == [
        (1, "Player 01", 1, 1, 25, "0.40"),
        (2, "Player 02", 1, 0, 0, "-0.40"),
    ]
    etag = response.headers["ETag"]
    assert season(event, **{"If-None-Match": etag}).status_code == 304

    second = start_game(event, [cait, ann])
    # The deciding hand is stored but its after-commit work never runs (the message is "lost"):
    # the stored table is stale, and says so; the sweep repairs it.
    response = event.client("scorekeeper").post(
        f"/api/games/{second}/hands/",
        {"dealer": 0, "trump": "S", "trick_winners": [0] * 5},
        format="json",
    )
    assert response.status_code == 201
    stale = season(event).json()
    assert (stale["version"], stale["stale"]) == (1, True)
    assert sweep_seasons_task.apply().get()["seasons"] == 1
    fresh = season(event, **{"If-None-Match": etag})
    assert fresh.status_code == 200
    assert (fresh.json()["version"], fresh.json()["stale"]) == (2, False)
    assert [(row["player"]["name"], row["games"], row["wins"]) for row in fresh.json()["rows"]] == [
        ("Player 01", 2, 1),
        ("Player 03", 1, 1),
        ("Player 02", 1, 0),
    ]
    # A duplicate (or late) message recomputes nothing: the stamp has not moved.
    announce(event, second, GameChangeKind.FINISHED)
    assert SeasonSnapshot.objects.get(club=event.club).version == 2


def test_a_public_club_shows_its_table_without_money_to_strangers():
    event = build_event(players=2, public=True)
    win_game(event, start_game(event, event.players), 1)
    rows = season(event, role="outsider").json()["rows"]
    assert [(row["player"]["name"], row["net_stakes"]) for row in rows] == [
        ("Player 02", None),
        ("Player 01", None),
    ]


@pytest.mark.parametrize(
    "query, code",
    [
        ("?from=2026-13-01&to=2026-12-31", "invalid_date"),
        ("?from=2026-01-01", "invalid_range"),
        ("?from=2026-02-01&to=2026-01-01", "invalid_range"),
    ],
)
def test_a_bad_range_is_a_problem(query, code):
    event = build_event(players=2)
    response = event.call("get", f"/api/clubs/{event.club.slug}/season/{query}", role="player")
    assert (response.status_code, response.json()["errors"][0]["code"]) == (400, code)


def test_ratings_follow_the_games_in_order_and_a_correction_re_rates_them():
    event = build_event(players=4)
    ann, bill, cait, dan = event.players
    # The games' announcements (games.changes) queue the ratings job after each commit.
    pairs = start_game(event, [ann, bill, cait, dan], teams=[[0, 2], [1, 3]])
    win_game(event, pairs, 0)  # Ann and Cait beat Bill and Dan
    three = start_game(event, [ann, bill, dan])
    win_game(event, three, 1)  # Bill wins a free-for-all of three

    # The same two games rated by OpenSkill directly: partners as teams, the loser of the
    # free-for-all tied on points (0 and 0) share second place.
    model = PlackettLuce()
    a, b, c, d = (model.rating() for _ in range(4))
    [[a, c], [b, d]] = model.rate([[a, c], [b, d]], ranks=[1, 2])
    [[a], [b], [d]] = model.rate([[a], [b], [d]], ranks=[2, 1, 2])
    expected = sorted(
        [("Player 01", a, 2), ("Player 02", b, 2), ("Player 03", c, 1), ("Player 04", d, 2)],
        key=lambda item: -item[1].ordinal(),
    )
    listed = event.ok("get", f"/api/clubs/{event.club.slug}/ratings/", role="player")
    assert [(row["player"]["name"], row["games"]) for row in listed] == [
        (name, games) for name, _, games in expected
    ]
    assert [value for row in listed for value in (row["mu"], row["sigma"])] == pytest.approx(
        [value for _, rating, _ in expected for value in (rating.mu, rating.sigma)]
    )
    for row in listed:
        assert row["ordinal"] == pytest.approx(row["mu"] - 3 * row["sigma"])
    mine = event.ok("get", f"/api/clubs/{event.club.slug}/players/{bill.pk}/rating/", role="player")
    assert [step["game"] for step in mine["history"]] == [pairs, three]
    assert mine["rating"]["ordinal"] == mine["history"][-1]["ordinal"]
    incremental = sorted(PlayerRating.objects.values_list("player_id", "mu", "sigma"))

    # The same from scratch (the command) gives the same ratings.
    call_command("recompute_ratings", event.club.slug, stdout=io.StringIO())
    assert sorted(PlayerRating.objects.values_list("player_id", "mu", "sigma")) == incremental

    # The first game is corrected: Bill's side took every trick. The job (queued by the
    # correction's announcement) notices the changed version and re-rates from that game on, in
    # the same order: the same as a recomputation from scratch.
    with TestCase.captureOnCommitCallbacks(execute=True):
        correct_hand(
            game_id=pairs,
            number=1,
            user=event.world.users["scorekeeper"],
            record={"dealer": 0, "trump": "S", "trick_winners": [1] * 5},
            if_match=None,
        )
    assert ratings.update_ratings(club_id=event.club.pk) == {"rated": 0, "from_scratch": False}
    corrected = sorted(PlayerRating.objects.values_list("player_id", "mu", "sigma"))
    assert corrected != incremental
    ratings.recompute_ratings(club_id=event.club.pk)
    assert sorted(PlayerRating.objects.values_list("player_id", "mu", "sigma")) == corrected
    assert RatingChange.objects.filter(player=bill).count() == 2
    assert (
        PlayerRating.objects.get(player=bill).ordinal > PlayerRating.objects.get(player=ann).ordinal
    )


def test_sides_and_ranks_rank_losers_by_points_and_tie_equal_points():
    event = build_event(players=3)
    game_id = start_game(event, event.players)
    win_game(event, game_id, 2)
    from games.models import Game

    game = Game.objects.prefetch_related("seats").get(pk=game_id)
    game.totals = [10, 10, 25]
    sides, ranks = ratings.sides_and_ranks(game)
    assert sides == [[player.pk] for player in event.players]
    assert ranks == [2, 2, 1]
    game.totals = [15, 10, 25]
    assert ratings.sides_and_ranks(game)[1] == [2, 3, 1]


def test_the_season_snapshot_equals_a_full_recomputation():
    event = build_event(players=3)
    for seats, winner in (([0, 1], 0), ([1, 2], 1), ([0, 2], 0)):
        win_game(event, start_game(event, [event.players[index] for index in seats]), winner)
    date_from, date_to = league_table.season_range()
    league_table.refresh_season(club_id=event.club.pk, date_from=date_from, date_to=date_to)
    stored = SeasonSnapshot.objects.get(club=event.club)
    assert stored.rows == league_table.compute_season_rows(event.club.pk, date_from, date_to)


def test_the_club_page_shows_the_season_table_with_ratings():
    event = build_event(players=2)
    win_game(event, start_game(event, event.players), 0)
    client = logged_in_client(event.world.users["player"])
    page = client.get(f"/clubs/{event.club.slug}/").content.decode()
    section = page[
        page.index('<section id="season"') : page.index("</section>", page.index('id="season"'))
    ]
    ordinal = PlayerRating.objects.get(player=event.players[0]).ordinal
    # Ordered by wins then points; the money in the club's currency; on a phone games, stakes and
    # rating go to the detail row under the player (the "wide" cells show on a wide screen).
    assert (
        f'<tr class="player-row"><td class="num">1</td><th scope="row">Player 01</th>'
        f'<td class="num">1</td><td class="num">25</td><td class="num wide">1</td>'
        f'<td class="num wide">+€0.40</td><td class="num wide">{ordinal:.1f}</td></tr>'
    ) in section
    assert '<th scope="row">Player 02</th>' in section
