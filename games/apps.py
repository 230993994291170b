"""Django app configuration for ``games``.

The daily purge of old ``Idempotency-Key`` records (``purge_idempotency_records_task``) is in
``CELERY_BEAT_SCHEDULE`` in config/settings.py, with the project's other periodic tasks.
``ready`` makes a test's override of the hook settings (``JINK_GAME_CHANGE_SUBSCRIBERS``,
``JINK_GAME_CHANGE_CHECKS``, ``JINK_GAME_MATCH_LINKS``) forget the hooks imported before.
"""

from django.apps import AppConfig


class GamesConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "games"
    verbose_name = "Games"

    def ready(self) -> None:
        from django.test.signals import setting_changed

        from games import changes, match_links

        def forget_hooks(*, setting, **kwargs) -> None:
            if setting in ("JINK_GAME_CHANGE_SUBSCRIBERS", "JINK_GAME_CHANGE_CHECKS"):
                changes.subscribers.cache_clear()
                changes.checks.cache_clear()
            if setting == "JINK_GAME_MATCH_LINKS":
                match_links.provider.cache_clear()

        setting_changed.connect(forget_hooks, weak=False, dispatch_uid="games.forget_hooks")
