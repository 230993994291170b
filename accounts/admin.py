"""Admin for device tokens: list and revoke (delete) them; tokens are never shown or made here."""

from django.contrib import admin
from knox.models import AuthToken

from accounts.models import DeviceToken

# knox registers its own token model, which is swapped out for DeviceToken and has no table.
if admin.site.is_registered(AuthToken):
    admin.site.unregister(AuthToken)


@admin.register(DeviceToken)
class DeviceTokenAdmin(admin.ModelAdmin):
    list_display = ("user", "device", "created", "expiry")
    list_filter = ("device",)
    search_fields = ("user__username", "device")
    readonly_fields = ("user", "device", "created", "expiry", "token_key")
    exclude = ("digest",)

    def has_add_permission(self, request):
        # A token created here could never be shown to its owner; they log in instead.
        return False
