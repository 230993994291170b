"""Input and output serializers of the accounts API.

What it does: shapes of ``/api/auth/`` requests (``RegisterInput``, ``TokenInput``,
``PasswordChangeInput``) and responses
(``UserOutput``, ``TokenOutput``, ``DeviceOutput``, ``MeOutput``). Inputs refuse unknown keys.

What it does not do: validate passwords or create anything (``accounts.services``).
"""

from __future__ import annotations

from django.contrib.auth.validators import UnicodeUsernameValidator
from rest_framework import serializers

from accounts.models import DEFAULT_DEVICE_NAME, DeviceToken
from config.serializers import StrictFieldsMixin


class RegisterInput(StrictFieldsMixin, serializers.Serializer):
    username = serializers.CharField(max_length=150, validators=[UnicodeUsernameValidator()])
    password = serializers.CharField(max_length=128, write_only=True, trim_whitespace=False)
    email = serializers.EmailField(required=False, allow_blank=True)


class TokenInput(StrictFieldsMixin, serializers.Serializer):
    username = serializers.CharField(max_length=150)
    password = serializers.CharField(max_length=128, write_only=True, trim_whitespace=False)
    device = serializers.CharField(
        max_length=100,
        required=False,
        default=DEFAULT_DEVICE_NAME,
        help_text="Name of this device; a new login from the same device replaces its token.",
    )


class PasswordChangeInput(StrictFieldsMixin, serializers.Serializer):
    current_password = serializers.CharField(max_length=128, write_only=True, trim_whitespace=False)
    new_password = serializers.CharField(max_length=128, write_only=True, trim_whitespace=False)


class UserOutput(serializers.Serializer):
    id = serializers.IntegerField()
    username = serializers.CharField()
    # Not EmailField: an account without an address answers "", which is no email format.
    email = serializers.CharField(help_text='The account\'s email address, or "" when none.')


class DeviceOutput(serializers.ModelSerializer):
    name = serializers.CharField(source="device")
    current = serializers.SerializerMethodField(
        help_text="Whether this is the token the request was made with."
    )

    class Meta:
        model = DeviceToken
        # last_used and address: written by the server (accounts.token_activity), at most once a
        # minute per token; null when the token was never used.
        fields = ["id", "name", "created", "expiry", "last_used", "address", "current"]
        read_only_fields = ["last_used", "address"]

    def get_current(self, device_token: DeviceToken) -> bool:
        request = self.context.get("request")
        auth = getattr(request, "auth", None)
        return isinstance(auth, DeviceToken) and auth.pk == device_token.pk


class TokenOutput(serializers.Serializer):
    token = serializers.CharField(help_text="Send as `Authorization: Token <token>`.")
    expiry = serializers.DateTimeField()
    device = DeviceOutput()
    user = UserOutput()


class MyClubOutput(serializers.Serializer):
    slug = serializers.SlugField()
    name = serializers.CharField()


class MyMembershipOutput(serializers.Serializer):
    club = MyClubOutput()
    role = serializers.CharField()


class MeOutput(UserOutput):
    memberships = MyMembershipOutput(many=True)
