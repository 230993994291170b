"""The tables app: table links that let a tablet score one table without an account."""

from django.apps import AppConfig


class TablesConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "tables"
    verbose_name = "Table links"

    def ready(self) -> None:
        from tables import schema  # noqa: F401 - registers the OpenAPI authentication scheme
