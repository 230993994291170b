"""The player pages (and the home page): views over every app's selectors; routes in ``urls.py``.

Modules: ``clubs`` (my clubs, shared helpers), ``club_home`` (a club's page), ``event`` (the live
event page), ``tables`` and ``explain`` (its rounds and standings in display form), ``tonight``
("my table tonight"), ``hands`` (the live game page), ``games`` (balances), ``players`` (a
player's page), ``cards`` (a game as lists show it), ``labels`` (translated names and
locale-aware figures), ``live`` (entity tags and the poll's 304), ``home``.
"""
