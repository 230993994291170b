"""Django app configuration of the practice table."""

from django.apps import AppConfig


class PracticeConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "practice"
    verbose_name = "Practice table"
