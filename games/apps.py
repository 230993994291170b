"""Django app configuration for ``games``.

``ready()`` adds the daily purge of old ``Idempotency-Key`` records to Celery beat's schedule
(``CELERY_BEAT_SCHEDULE``, which config/settings.py leaves for the apps to fill), so that running
``celery -A config beat`` is all it takes.
"""

from django.apps import AppConfig


class GamesConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "games"
    verbose_name = "Games"

    def ready(self) -> None:
        from django.conf import settings

        from games.tasks import PURGE_EVERY_SECONDS, PURGE_SCHEDULE_NAME

        schedule = getattr(settings, "CELERY_BEAT_SCHEDULE", None)
        if isinstance(schedule, dict):
            schedule.setdefault(
                PURGE_SCHEDULE_NAME,
                {
                    "task": "games.tasks.purge_idempotency_records_task",
                    "schedule": PURGE_EVERY_SECONDS,
                },
            )
