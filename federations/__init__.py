"""Federations above the clubs: member clubs, one player across clubs, the levy.

See docs/federations.md.
"""
