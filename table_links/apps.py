"""The tables app: table links that let a tablet score one table without an account."""

from django.apps import AppConfig


class TableLinksConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "table_links"
    label = "tables"  # the tables, migrations, contenttypes keep it
    verbose_name = "Table links"

    def ready(self) -> None:
        from table_links import schema  # noqa: F401 - registers the OpenAPI authentication scheme
