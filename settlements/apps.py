"""Django application configuration for settlements (club nights, prize splits, settle-ups).

The app sits above ``tournaments`` (it reads tournaments' standings and games' ledger; nothing
below imports it, an import-linter contract in pyproject.toml). Its periodic sweep is in
``CELERY_BEAT_SCHEDULE`` in config/settings_celery.py.
"""

from django.apps import AppConfig


class SettlementsConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "settlements"
    verbose_name = "Nights and settle-ups"
