"""Test data for federation events: a county of two member clubs with seeded 2025 season tables.

What it does: ``season_game(club, winner, loser, winner_points, loser_points)`` writes a finished
two-player game of 2025 (its row, seats and totals; no engine) so the season table of 2025 is
exactly what a test says; ``county()`` builds the county board ``kk`` with ``north`` and
``south`` (members, organisers ``north-org`` and ``south-org``), ``west`` (a member of the rival
federation ``rival``), and these 2025 tables:

- North: Bob 2 wins; Cat and Ann 1 win 25 points 1 game each — a tie broken by the lower club
  player id: Cat was added first (the season table itself lists Ann first, by name); Dan 0
  wins. Sam of North (another person than South's Sam) has no game.
- South: Uma 2 wins (inactive: passed over); Tia and Sam 1 win 25 points each — Tia from 1
  game, Sam from 2: fewer games first; Vic 0 wins.

What it does not do: go through the games services (their tests do).
"""

from __future__ import annotations

import datetime
from types import SimpleNamespace

from games.models import Game, GameSeat, GameStatus
from tests.clubs.factories import make_club, make_membership, make_player, make_user
from tests.federations.factories import make_federation, make_member

IN_2025 = datetime.datetime(2025, 6, 1, 20, 0, tzinfo=datetime.UTC)


def season_game(club, winner, loser, winner_points=25, loser_points=10):
    game = Game.objects.create(
        club=club,
        variant="25",
        house_rules={},
        first_dealer=0,
        side_of_seat=[0, 1],
        status=GameStatus.FINISHED,
        winner_side=0,
        totals=[winner_points, loser_points],
        next_dealer=0,
        hands_played=1,
    )
    GameSeat.objects.bulk_create(
        [
            GameSeat(game=game, seat=0, player=winner, side=0),
            GameSeat(game=game, seat=1, player=loser, side=1),
        ]
    )
    Game.objects.filter(pk=game.pk).update(created_at=IN_2025)
    return game


def county():
    w = SimpleNamespace()
    w.secretary, w.rival_secretary = make_user("secretary"), make_user("rival-secretary")
    w.north_org, w.south_org, w.west_org = (
        make_user("north-org"),
        make_user("south-org"),
        make_user("west-org"),
    )
    w.federation = make_federation("kk", organiser=w.secretary)
    w.rival = make_federation("rival", organiser=w.rival_secretary)
    w.north, w.south, w.west = make_club("north"), make_club("south"), make_club("west")
    make_membership(w.north, w.north_org, "organiser")
    make_membership(w.south, w.south_org, "organiser")
    make_membership(w.west, w.west_org, "organiser")
    make_member(w.federation, w.north)
    make_member(w.federation, w.south)
    make_member(w.rival, w.west)
    w.cat = make_player(w.north, "Cat")
    w.ann = make_player(w.north, "Ann")
    w.bob = make_player(w.north, "Bob")
    w.dan = make_player(w.north, "Dan")
    w.north_sam = make_player(w.north, "Sam")
    season_game(w.north, w.bob, w.dan)
    season_game(w.north, w.bob, w.dan)
    season_game(w.north, w.ann, w.dan)
    season_game(w.north, w.cat, w.dan)
    w.sam = make_player(w.south, "Sam")
    w.tia = make_player(w.south, "Tia")
    w.uma = make_player(w.south, "Uma", is_active=False)
    w.vic = make_player(w.south, "Vic")
    season_game(w.south, w.uma, w.vic, 25, 0)
    season_game(w.south, w.sam, w.vic, 20, 0)
    season_game(w.south, w.uma, w.sam, 25, 5)
    season_game(w.south, w.tia, w.vic, 25, 0)
    w.west_player = make_player(w.west, "Wes")
    return w
