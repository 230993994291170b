"""Django application configuration for rankings (a federation's rankings: docs/rankings.md).

Sits above ``federations`` (import-linter contract in pyproject.toml): it reads the federation's
member clubs and player links, the clubs' games and settle-ups, and nothing below imports it.
"""

from django.apps import AppConfig


class RankingsConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "rankings"
    verbose_name = "Rankings"
