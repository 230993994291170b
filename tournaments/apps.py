"""Django application configuration for the tournaments app.

``ready()`` adds the periodic repair of tournament progress (``repair_tournaments_task``, every
five minutes) to Celery beat's schedule (``CELERY_BEAT_SCHEDULE``, which config/settings.py leaves
for the apps to fill): a progress message lost between a finished game and its match only delays
the advance, never loses it.
"""

from django.apps import AppConfig

REPAIR_SCHEDULE_NAME = "tournaments.repair_tournaments"
REPAIR_EVERY_SECONDS = 5 * 60


class TournamentsConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "tournaments"
    verbose_name = "Tournaments"

    def ready(self) -> None:
        from django.conf import settings

        schedule = getattr(settings, "CELERY_BEAT_SCHEDULE", None)
        if isinstance(schedule, dict):
            schedule.setdefault(
                REPAIR_SCHEDULE_NAME,
                {"task": "tournaments.repair_tournaments_task", "schedule": REPAIR_EVERY_SECONDS},
            )
