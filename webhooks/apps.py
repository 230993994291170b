"""Django application configuration for webhooks (endpoints, events, signed deliveries).

The top of the jobs' apps: it hears of games, tournaments and settlements and nothing below
imports it (import-linter contract in pyproject.toml).
"""

from django.apps import AppConfig


class WebhooksConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "webhooks"
    verbose_name = "Webhooks"
