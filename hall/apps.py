"""The hall app: the big screen of an event's room (docs/hall.md)."""

from django.apps import AppConfig


class HallConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "hall"
    verbose_name = "Hall screen"
