from django.apps import AppConfig


class ScaleConfig(AppConfig):
    name = "scale"
    verbose_name = "History generator"
