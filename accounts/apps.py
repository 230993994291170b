"""Django application configuration for the accounts app."""

from django.apps import AppConfig


class AccountsConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "accounts"
    verbose_name = "Accounts and device tokens"

    def ready(self) -> None:
        from accounts import (
            schema,  # noqa: F401  (registers the OpenAPI token scheme)
            sessions,  # noqa: F401  (connects the sign-in receiver)
            signals,  # noqa: F401  (connects the password-change receiver)
        )
