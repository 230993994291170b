"""Django application configuration for leagues (inter-club leagues: docs/leagues.md).

Sits beside ``rankings``, above ``federations`` (import-linter contract in pyproject.toml): it
reads the federation's member clubs and organisers, the clubs' players and games, and nothing
below imports it.
"""

from django.apps import AppConfig


class LeaguesConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "leagues"
    verbose_name = "Leagues"
