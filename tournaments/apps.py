"""Django application configuration for the tournaments app.

The periodic repair of tournament progress (``repair_tournaments_task``, every five minutes) is
in ``CELERY_BEAT_SCHEDULE`` in config/settings_celery.py, with the project's other periodic tasks.
"""

from django.apps import AppConfig


class TournamentsConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "tournaments"
    verbose_name = "Tournaments"
