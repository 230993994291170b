"""Django application configuration for federations (bodies above the clubs: docs/federations.md).

Sits above ``settlements`` and ``seasons`` beside ``webhooks`` and ``hall`` (import-linter
contract in pyproject.toml): it reads the clubs' nights, events and games, and nothing below
imports it. ``ready`` connects the same-account link (``federations.signals``).
"""

from django.apps import AppConfig


class FederationsConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "federations"
    verbose_name = "Federations"

    def ready(self) -> None:
        from federations import signals  # noqa: F401
