"""The practice table: games of 45, 25 and 110 against computer players, with their history.

What it does: keeps each practice game (its house rules, the current hand's shuffle and moves)
and each finished hand's card-by-card record, checked by the rules engine; plays the computer
seats' moves; counts a player's games and wins. Pages: ``web/practice``.

What it does not do: serve HTML (``web.practice``), know the club games of ``games`` or the
tournaments (it sits beside ``games`` and imports only ``rules_engine``, ``computer_players``,
``clubs`` and Django).
"""
