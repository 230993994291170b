from django.apps import AppConfig


class WebConfig(AppConfig):
    """The site's pages (see the package docstring)."""

    name = "web"
    verbose_name = "Pages"
