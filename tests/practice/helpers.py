"""Helpers of the practice tests: play a practice game through the services to its end, set a
hand's shuffle so a test knows the cards, and seed every shuffle of a game so a test knows how
it ends."""

from __future__ import annotations

import random

from computer_players import ClubPlayer
from computer_players.hand import BID, EXCHANGE, PLAY, ROB
from practice.models import PracticeGame
from practice.services import advance_practice_game, load_table, play_practice_move
from rules_engine import FULL_PACK, parse_card

# A three-handed deal of the page tests (set_deal, dealer 2): seat 0 leads.
DEAL = "7D 8H 9H 10H JH | KD 2C 3C 6C 7C | QD 3D 2H 4H 8C"


def human_move(table, player=None):
    """The move a club player would make in the person's seat (a legal one)."""
    player = player or ClubPlayer(5)
    hand = table.hand
    phase, seat = hand.turn()
    view = hand.view(seat)
    if phase == PLAY:
        return {"kind": "play", "card": str(player.choose_card(view))}
    if phase == ROB:
        discard = player.choose_rob(view)
        return {"kind": "rob", "discard": None if discard is None else str(discard)}
    if phase == BID:
        return {"kind": "call", "call": player.choose_call(view)}
    if phase == EXCHANGE:
        from dataclasses import replace

        trump, discards = player.choose_exchange(
            replace(view, hand=view.hand + hand.kitty), len(hand.kitty)
        )
        return {"kind": "exchange", "trump": trump, "discard": [str(card) for card in discards]}
    raise AssertionError(phase)


def play_to_the_end(game: PracticeGame, limit: int = 5000) -> int:
    """Play ``game`` through the services until it is over; the number of moves made."""
    moves = 0
    table = load_table(game)
    while table.hand is not None:
        phase, seat = table.hand.turn()
        if seat == game.human_seat:
            table = play_practice_move(practice_game=game, move=human_move(table))
        else:
            table = advance_practice_game(practice_game=game)
        moves += 1
        assert moves < limit
    return moves


def set_deal(game: PracticeGame, hands_text: str, rest_first: str, dealer: int) -> None:
    """Deal the current hand from a deck giving ``hands_text`` (seat dealer+1 first, "|"
    between seats) then ``rest_first`` (the turn-up), the rest after."""
    chosen = [parse_card(text) for part in hands_text.split("|") for text in part.split()]
    chosen += [parse_card(text) for text in rest_first.split()]
    deck = chosen + [card for card in FULL_PACK if card not in chosen]
    PracticeGame.objects.filter(pk=game.pk).update(
        deck=[str(card) for card in deck], dealer=dealer, first_dealer=dealer, moves=[]
    )
    game.refresh_from_db()


class SeededSecrets:
    """Stands in for the ``secrets`` module of ``practice.services`` (``monkeypatch.setattr``):
    the first dealer, the computer players' seed and every shuffle come from
    ``random.Random(seed)``, so a game started with it is the same game on every run."""

    def __init__(self, seed: int) -> None:
        self._random = random.Random(seed)

    def SystemRandom(self) -> random.Random:  # the name of the function it replaces
        return self._random

    def randbelow(self, exclusive_upper_bound: int) -> int:
        return self._random.randrange(exclusive_upper_bound)

    def randbits(self, bits: int) -> int:
        return self._random.getrandbits(bits)
