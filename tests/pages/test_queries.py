"""The number of database queries each page costs, pinned, and the proof that it does not grow.

Each page is opened twice: on the seeded data, then after adding more of what it lists (games,
hands, players with stakes, rounds); the count must be the same exact number both times, so a
page never makes one query per row (N+1).

A logged-in request costs two queries before the page's own (the session and the user); the
comment on each count says what the rest are.
"""

from __future__ import annotations

import pytest

from tests.helpers import count_queries
from tests.pages.seed import draw, play_hands, start_game

pytestmark = pytest.mark.django_db

SESSION_AND_USER = 2


def more_games(seed, count: int) -> None:
    """``count`` more games in Kilkenny, each with a hand, half of them finished."""
    club = seed.clubs["kilkenny"]
    players = seed.players
    for index in range(count):
        game = start_game(
            club,
            seed.users["sean"],
            "25",
            [players["Pat"], players["Eve"], players["Gus"]],
            stake_minor=5,
        )
        winner = index % 2
        tricks = [winner] * 5 if index % 4 < 2 else [0, 1, 2, 0, 1]
        play_hands(game, seed.users["sean"], [{"dealer": 0, "trump": "S", "trick_winners": tricks}])


# Club, its players (the "this is me" picker and the links to their pages: +1 since the player
# pages), then the games in progress, the finished games (each: games, seats with players, sides
# with teams), then the tournaments with their counts, then the season table (its snapshot, the
# stamp saying whether it is stale, the ratings).
OVERVIEW = 1 + 1 + 3 + 3 + 1 + 3


def test_club_overview(seed, client_for):
    client = client_for("pat")
    assert count_queries(client.get, "/clubs/kilkenny/").count == SESSION_AND_USER + OVERVIEW
    more_games(seed, 8)
    assert count_queries(client.get, "/clubs/kilkenny/").count == SESSION_AND_USER + OVERVIEW


def test_club_overview_for_a_visitor_needs_no_session(seed, client_for):
    # Callan has no game in progress: an empty list needs no seats or sides (2 fewer).
    visitor = client_for(None)
    assert count_queries(visitor.get, "/clubs/callan/").count == OVERVIEW - 2


# The live state (the entity tag: the game's version, the reader's role and player), club, the
# game with its match, round and tournament, its seats with players, its sides with teams, its
# hands, the corrected and undone hands (simple-history). Two more than before the live pages:
# the tag, the corrections and undos.
GAME = 1 + 1 + 1 + 1 + 1 + 1 + 1


def failed_bids(count: int) -> list[dict]:
    """Auction 45 hands in which the bidding side fails, sides taking turns: the totals swing
    between -20/+20 and 0/0, so the game goes on for as many hands as a test wants."""
    hands = []
    for number in range(count):
        bidder = number % 2  # seat 0 (side 0), then seat 1 (side 1)
        other = 1 - bidder
        hands.append(
            {
                "dealer": number % 4,
                "trump": "S",
                "trick_winners": [other, other, other, bidder, bidder],
                "best_trump": {"seat": other, "trick": 0},
                "bid": {"seat": bidder, "amount": 20},
            }
        )
    return hands


def test_game_page(seed, client_for):
    client = client_for("pat")
    players = seed.players
    seats = [players["Pat"], players["Eve"], players["Gus"], players["Finn"]]
    game = start_game(
        seed.clubs["kilkenny"], seed.users["sean"], "auction45", seats, teams=[[0, 2], [1, 3]]
    )
    hands = failed_bids(7)
    play_hands(game, seed.users["sean"], hands[:1])
    url = f"/clubs/kilkenny/games/{game.pk}/"
    assert count_queries(client.get, url).count == SESSION_AND_USER + GAME
    play_hands(game, seed.users["sean"], hands[1:])
    assert (game.hands_played, game.status) == (7, "in_progress")
    assert count_queries(client.get, url).count == SESSION_AND_USER + GAME


def test_game_page_of_a_tournament_game(seed, client_for):
    url = f"/clubs/kilkenny/games/{seed.games['final'].pk}/"
    client = client_for("pat")
    assert count_queries(client.get, url).count == SESSION_AND_USER + GAME


# The live state (the entity tag: versions and counts, the stored standings' version, the
# reader's role and player: +1 since the live pages), club, tournament (with its counts), the
# stored standings (tournaments.snapshots: 1 for every format), the bracket (rounds, matches,
# slots with entrants, games: 4). The "tonight" panel and the explained standings reuse these
# rows: no query of their own.
TOURNAMENT_PAGE = 1 + 1 + 1 + 1 + 4
# A poll that finds nothing new: the live state alone, which also decides who may read.
NOT_MODIFIED = 1


def test_tournament_page(seed, client_for):
    client = client_for("pat")
    cup = seed.tournaments["cup"]
    url = f"/clubs/kilkenny/tournaments/{cup.pk}/"
    assert count_queries(client.get, url).count == SESSION_AND_USER + TOURNAMENT_PAGE
    play_hands(
        seed.games["final"],
        seed.users["sean"],
        [
            {"dealer": 1, "trump": "S", "trick_winners": [0, 0, 0]},
        ],
    )
    assert count_queries(client.get, url).count == SESSION_AND_USER + TOURNAMENT_PAGE


def test_tournament_page_of_a_round_robin_with_rounds_played(seed, client_for):
    from games.models import Game, GameStatus

    tournament = seed.tournaments["open_drive"]
    url = f"/clubs/callan/tournaments/{tournament.pk}/"
    client = client_for(None)

    draw(tournament, None)
    assert count_queries(client.get, url).count == TOURNAMENT_PAGE
    # Play every round: the next one is drawn by itself when a round completes.
    for _ in range(3):
        for game in Game.objects.filter(
            match_link__match__tournament=tournament, status=GameStatus.IN_PROGRESS
        ):
            play_hands(game, None, [{"dealer": 0, "trump": "S", "trick_winners": [0, 0, 0, 0, 0]}])
    tournament.refresh_from_db()
    assert (tournament.rounds.count(), tournament.status) == (3, "finished")
    assert count_queries(client.get, url).count == TOURNAMENT_PAGE


# Club, then the nets per player and the players (games.selectors.club_balances), the season's
# settle-up versions (settlements.selectors.season_balances; their transfers and players are read
# once there are versions: none in this seed, see tests/console/test_money_story.py).
BALANCES = 1 + 2 + 1


def test_balances_page(seed, client_for):
    client = client_for("pat")
    counted = count_queries(client.get, "/clubs/kilkenny/balances/")
    assert counted.count == SESSION_AND_USER + BALANCES
    more_games(seed, 4)
    counted = count_queries(client.get, "/clubs/kilkenny/balances/")
    assert counted.count == SESSION_AND_USER + BALANCES


# Memberships with clubs, linked players with clubs, then the recent games (games, seats with
# players, sides with teams).
MY_CLUBS = 1 + 1 + 3


def test_my_clubs_page(seed, client_for):
    from clubs.models import Membership, Role

    client = client_for("pat")
    assert count_queries(client.get, "/me/").count == SESSION_AND_USER + MY_CLUBS
    # A second club (Callan: a member now, and playing as Eoin) and more games in the first.
    Membership.objects.create(club=seed.clubs["callan"], user=seed.users["pat"], role=Role.PLAYER)
    type(seed.players["Eoin"]).objects.filter(pk=seed.players["Eoin"].pk).update(
        user=seed.users["pat"]
    )
    more_games(seed, 6)
    assert count_queries(client.get, "/me/").count == SESSION_AND_USER + MY_CLUBS
    html = client.get("/me/").content.decode()
    assert 'id="club-callan"' in html and 'id="club-kilkenny"' in html


def test_a_poll_that_finds_nothing_new_costs_one_query(seed, client_for):
    from tournaments.models import Tournament

    cup = seed.tournaments["cup"]
    Tournament.objects.filter(pk=cup.pk).update(is_public=True)
    url = f"/clubs/kilkenny/tournaments/{cup.pk}/"
    for client, before in ((client_for(None), 0), (client_for("pat"), SESSION_AND_USER)):
        etag = client.get(url)["ETag"]
        counted = count_queries(client.get, url, HTTP_IF_NONE_MATCH=etag, status=304)
        assert (counted.count, counted.response["ETag"]) == (before + NOT_MODIFIED, etag)
    game_url = f"/clubs/kilkenny/games/{seed.games['final'].pk}/"
    client = client_for("pat")
    etag = client.get(game_url)["ETag"]
    counted = count_queries(client.get, game_url, HTTP_IF_NONE_MATCH=etag, status=304)
    assert counted.count == SESSION_AND_USER + NOT_MODIFIED


# Club, the player, their games (games, seats with players, sides with teams), their results
# (one count), their entries (one query with counts), their balance steps (members only), their
# rating and its history (seasons.selectors.rating_for_page: 2, since the merge of the jobs), the
# season's settle-up versions (their transfers once there are versions).
PLAYER_PAGE = 1 + 1 + 3 + 1 + 1 + 1 + 2 + 1


def test_player_page(seed, client_for):
    client = client_for("pat")
    url = f"/clubs/kilkenny/players/{seed.players['Pat'].pk}/"
    assert count_queries(client.get, url).count == SESSION_AND_USER + PLAYER_PAGE
    more_games(seed, 6)
    assert count_queries(client.get, url).count == SESSION_AND_USER + PLAYER_PAGE
