"""The player pages (namespace ``pages``): a club, a game, a tournament, a player, balances.

The page views of clubs, games and tournaments are being moved here from the apps' ``pages.py``
(issue 8); the modules written here for the live pages are ``live`` (conditional requests and
the entity tags a poll compares), ``labels`` (translated names and locale-aware figures),
``tonight`` ("my table tonight"), ``bracket`` (a knockout drawn as a bracket), ``explain``
(standings that say why) and ``players`` (a player's own page).
"""
