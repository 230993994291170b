"""Admin for signed-in browsers (list and end them; no data or key is shown), for device
tokens (list and revoke them; tokens are never shown or made here) and for accounts' mail
settings (language, results messages on or off)."""

from django.contrib import admin
from knox.models import AuthToken

from accounts.models import BrowserSession, DeviceToken, MailSettings

# knox registers its own token model, which is swapped out for DeviceToken and has no table.
if admin.site.is_registered(AuthToken):
    admin.site.unregister(AuthToken)


@admin.register(DeviceToken)
class DeviceTokenAdmin(admin.ModelAdmin):
    list_display = ("user", "device", "created", "expiry", "last_used", "address")
    list_filter = ("device",)
    search_fields = ("user__username", "device")
    # last_used and address: written by the token's use (accounts.token_activity), never by hand.
    readonly_fields = ("user", "device", "created", "expiry", "last_used", "address", "token_key")
    exclude = ("digest",)

    def has_add_permission(self, request):
        # A token created here could never be shown to its owner; they log in instead.
        return False


@admin.register(MailSettings)
class MailSettingsAdmin(admin.ModelAdmin):
    list_display = ("user", "language", "results_mail", "updated_at")
    list_filter = ("language", "results_mail")
    search_fields = ("user__username", "user__email")
    readonly_fields = ("user", "updated_at")


@admin.register(BrowserSession)
class BrowserSessionAdmin(admin.ModelAdmin):
    list_display = ("user", "user_agent", "address", "signed_in_at", "last_seen", "expire_date")
    list_filter = ("signed_in_at",)
    search_fields = ("user__username", "address")
    readonly_fields = ("user", "user_agent", "address", "signed_in_at", "last_seen", "expire_date")
    exclude = ("key_hash", "session_data")

    def has_add_permission(self, request):
        return False
