"""Computer players for the Spoil Five family, beside the rules engine (pure Python, no Django).

What it does: ``HandInProgress`` plays one hand move by move with every move checked by the
engine; ``SeatView`` is all a seat may see; ``EasyPlayer`` and ``ClubPlayer`` choose moves from a
view; ``play_game`` plays whole games and returns the engine's records. Used by the practice
table (``practice``), the demo data and ``simulate_night``.

What it does not do: decide what is legal (``rules_engine`` does), store or serve anything.
"""

from computer_players.driver import PlayedGame, play_game, play_hand, trick_winner_entry
from computer_players.hand import HandInProgress, MoveError
from computer_players.players import LEVELS, ClubPlayer, EasyPlayer, make_player
from computer_players.view import PlayedTrick, SeatView

__all__ = [
    "LEVELS",
    "ClubPlayer",
    "EasyPlayer",
    "HandInProgress",
    "MoveError",
    "PlayedGame",
    "PlayedTrick",
    "SeatView",
    "make_player",
    "play_game",
    "play_hand",
    "trick_winner_entry",
]
