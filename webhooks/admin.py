"""Admin for webhooks: endpoints (the secret hidden), the delivery log and the resends
(view-only)."""

from django.contrib import admin

from webhooks.models import WebhookDelivery, WebhookEndpoint, WebhookResend


@admin.register(WebhookEndpoint)
class WebhookEndpointAdmin(admin.ModelAdmin):
    list_display = ["url", "club", "is_active", "created_at"]
    list_filter = ["is_active", "club"]
    search_fields = ["url", "club__name"]
    exclude = ["secret"]

    def has_add_permission(self, request) -> bool:
        return False  # registered through the API, which shows the secret once


@admin.register(WebhookDelivery)
class WebhookDeliveryAdmin(admin.ModelAdmin):
    list_display = [
        "event_type",
        "endpoint",
        "status",
        "attempts",
        "last_status_code",
        "created_at",
        "delivered_at",
    ]
    list_filter = ["status", "event_type"]
    search_fields = ["event_id", "endpoint__url"]

    def has_add_permission(self, request) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False


@admin.register(WebhookResend)
class WebhookResendAdmin(admin.ModelAdmin):
    list_display = ["delivery", "user", "attempts_before", "last_error", "created_at"]
    list_filter = ["created_at"]
    search_fields = ["delivery__event_id"]

    def has_add_permission(self, request) -> bool:
        return False  # the console's resend button writes them

    def has_change_permission(self, request, obj=None) -> bool:
        return False
