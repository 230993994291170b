"""Clubs: the clubs that use Jink, their members' roles, their players and their teams."""
