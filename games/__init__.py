"""Games: games of the Spoil Five family as played at a club table, hand by hand.

A *game* is played to a target score by seats (players, clockwise) grouped in *sides*; a *hand*
is one deal played out (or a misdeal / renege recorded instead). Every hand is checked by
``rules_engine`` before it is stored; the points are the engine's, never the client's. When a
game finishes, its stake is booked in a ledger. See ``docs/games.md`` for the HTTP API.
"""
