"""Django app configuration for ``games``.

The daily purge of old ``Idempotency-Key`` records (``purge_idempotency_records_task``) is in
``CELERY_BEAT_SCHEDULE`` in config/settings_celery.py, with the project's other periodic tasks.
``ready`` makes a test's override of ``JINK_GAME_MATCH_LINKS`` forget the provider imported
before (the subscribers and checks are listed through ``config.announce``, which forgets its
imports itself).
"""

from django.apps import AppConfig


class GamesConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "games"
    verbose_name = "Games"

    def ready(self) -> None:
        from django.test.signals import setting_changed

        from games import match_links

        def forget_hooks(*, setting, **kwargs) -> None:
            if setting == "JINK_GAME_MATCH_LINKS":
                match_links.provider.cache_clear()

        setting_changed.connect(forget_hooks, weak=False, dispatch_uid="games.forget_hooks")
