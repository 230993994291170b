"""Games for the levy's tests, written as rows: a game of a club's night or event, begun at a
given moment, with its players seated and a number of hands recorded.

What it does: ``night_game`` and ``event_game`` store a ``games.Game`` (no engine, no services:
the levy only reads who sat, when the game began and how many hands it has), its seats, and its
link to a night (``NightGame``) or to a match of an event (``MatchGame``); ``lone_game`` stores a
game of neither.

What it does not do: play hands (``hands_played`` is set, not earned).
"""

from __future__ import annotations

from django.utils import timezone

from games.models import Game, GameSeat
from settlements.models import Night, NightGame
from tournaments.models import Match, MatchGame, Round, Tournament


def lone_game(club, players, at, *, hands: int = 1) -> Game:
    game = Game.objects.create(
        club=club,
        variant="25",
        house_rules={},
        first_dealer=0,
        next_dealer=0,
        hands_played=hands,
        side_of_seat=list(range(len(players))),
    )
    for seat, player in enumerate(players):
        GameSeat.objects.create(game=game, seat=seat, player=player, side=seat)
    Game.objects.filter(pk=game.pk).update(created_at=at)
    return game


def night_game(club, players, at, *, hands: int = 1) -> Game:
    game = lone_game(club, players, at, hands=hands)
    night = Night.objects.filter(club=club).first() or Night.objects.create(
        club=club, name="Tuesday drive", opened_at=at, status="closed", closed_at=at
    )
    NightGame.objects.create(night=night, game=game)
    return game


def event_game(club, players, at, *, hands: int = 1) -> Game:
    game = lone_game(club, players, at, hands=hands)
    tournament = Tournament.objects.filter(club=club).first() or Tournament.objects.create(
        club=club, name="Winter drive", game="25", format="knockout", house_rules={}, lots_seed=7
    )
    round_ = Round.objects.filter(tournament=tournament).first() or Round.objects.create(
        tournament=tournament, number=1, released_at=timezone.now()
    )
    match = Match.objects.create(
        tournament=tournament, round=round_, table=Match.objects.filter(round=round_).count() + 1
    )
    MatchGame.objects.create(match=match, game=game)
    return game
