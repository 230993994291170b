"""Django application configuration for seasons (season tables and ratings of a club).

Sits above ``tournaments`` with the other jobs' apps (import-linter contract in pyproject.toml).
"""

from django.apps import AppConfig


class SeasonsConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "seasons"
    verbose_name = "Season tables and ratings"
