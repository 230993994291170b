"""Test data for rankings: a two-club federation and finished games written as rows.

What it does: ``finished_game(club, sides, winner, at)`` writes a finished game (its seats, sides
by index, one hand entered at ``at``: the game's finish) without the engine, so tests place games
exactly in time around membership spells; ``settled_night(club, places, at)`` writes a closed
night with a settle-up version storing ``places``; ``two_clubs()`` a federation of two member
clubs with six linked players and one unlinked. Used by tests/rankings and bench/bench_rankings.py.

What it does not do: go through the games or settlements services (their tests do).
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass, field

from games.models import Game, GameSeat, GameStatus, Hand
from settlements.models import Night, NightStatus, Settlement
from tests.clubs.factories import make_club, make_player
from tests.federations.factories import (
    make_federation,
    make_federation_player,
    make_link,
    make_member,
)

T0 = datetime.datetime(2026, 1, 5, 20, 0, tzinfo=datetime.UTC)


def at(day: float) -> datetime.datetime:
    return T0 + datetime.timedelta(days=day)


def finished_game(club, sides: list[list], winner: int, when: datetime.datetime, variant="25"):
    seats = [player for side in sides for player in side]
    side_of_seat = [index for index, side in enumerate(sides) for _ in side]
    totals = [25 if index == winner else 10 + index for index in range(len(sides))]
    game = Game.objects.create(
        club=club,
        variant=variant,
        house_rules={},
        first_dealer=0,
        side_of_seat=side_of_seat,
        status=GameStatus.FINISHED,
        winner_side=winner,
        totals=totals,
        next_dealer=0,
        hands_played=1,
    )
    GameSeat.objects.bulk_create(
        GameSeat(game=game, seat=seat, player=player, side=side_of_seat[seat])
        for seat, player in enumerate(seats)
    )
    hand = Hand.objects.create(
        game=game, number=1, dealer=0, record={}, result={}, totals_after=totals
    )
    Hand.objects.filter(pk=hand.pk).update(entered_at=when)
    return game


def settled_night(club, places: dict, when: datetime.datetime, name="Friday drive"):
    night = Night.objects.create(
        club=club, name=name, status=NightStatus.CLOSED, opened_at=when, closed_at=when
    )
    settlement = Settlement.objects.create(
        club=club,
        night=night,
        version=1,
        lines=[],
        details={"places": {str(player.pk): place for player, place in places.items()}},
        fingerprint="x",
    )
    Settlement.objects.filter(pk=settlement.pk).update(created_at=when)
    return night


@dataclass
class Federation2:
    federation: object
    clubs: list
    members: list
    club_players: dict = field(default_factory=dict)  # name -> club player
    people: dict = field(default_factory=dict)  # name -> federation player


def two_clubs(slug="county-board") -> Federation2:
    """Clubs A (Ann, Bob, Cat, Dan at A) and B (Ann, Bob again, Eve, Fay); Gus at B unlinked."""
    federation = make_federation(slug)
    club_a, club_b = make_club(f"{slug}-a"), make_club(f"{slug}-b")
    members = [make_member(federation, club, accepted_at=at(0)) for club in (club_a, club_b)]
    world = Federation2(federation, [club_a, club_b], members)
    for name in ("Ann", "Bob", "Cat", "Dan", "Eve", "Fay"):
        world.people[name] = make_federation_player(federation, f"{name} Byrne")
    for club, names in ((club_a, "Ann Bob Cat Dan"), (club_b, "Ann Bob Eve Fay Gus")):
        for name in names.split():
            player = make_player(club, f"{name} Byrne")
            world.club_players[f"{name}@{club.slug[-1]}"] = player
            if name in world.people:
                make_link(world.people[name], player)
    return world
