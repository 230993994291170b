"""The exchange app: export a night or an event as a "jink-exchange" document, import one into a
club (docs/exchange.md). It sits beside the hall and webhooks, above settlements and tournaments;
only the pages (web) import it."""

from django.apps import AppConfig


class ExchangeConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "exchange"
    verbose_name = "Exchange (imports and exports)"
