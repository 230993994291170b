"""Django app configuration for ``games``.

The daily purge of old ``Idempotency-Key`` records (``purge_idempotency_records_task``) is in
``CELERY_BEAT_SCHEDULE`` in config/settings.py, with the project's other periodic tasks.
"""

from django.apps import AppConfig


class GamesConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "games"
    verbose_name = "Games"
