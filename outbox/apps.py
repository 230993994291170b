"""Django application configuration for the outbox app."""

from django.apps import AppConfig


class OutboxConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "outbox"
    verbose_name = "Queued tasks not yet run"

    def ready(self) -> None:
        from outbox import signals  # noqa: F401  (a finished task removes its row)
