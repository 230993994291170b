"""``manage.py ensure_superuser --username U --password P``: a superuser with that password.

What it does: creates the user as a superuser, or makes an existing one a superuser and resets
its password; running it twice changes nothing. ``make demo`` uses it for the demo's admin login.

With ``--recovery-codes``, the account also gets a second factor (staff reach the admin only
with one, ``accounts.two_factor_middleware``): an authenticator is kept or made, its
``otpauth://`` address printed (for an authenticator app), and a new set of recovery codes is
made and printed, any of which signs in once. ``make demo`` uses it so a newcomer reaches the
admin without setting up an app first.

What it does not do: check the password against the validators (it is meant for demos and
development; real admins are made with ``createsuperuser`` and set up their second factor on
the two-factor page).
"""

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand


class Command(BaseCommand):
    help = "Create or update a superuser with the given username and password (demo use)."

    def add_arguments(self, parser):
        parser.add_argument("--username", required=True)
        parser.add_argument("--password", required=True)
        parser.add_argument("--email", default="")
        parser.add_argument(
            "--recovery-codes",
            action="store_true",
            help="Also give the account a second factor and print new recovery codes (demo).",
        )

    def handle(
        self, *args, username: str, password: str, email: str, recovery_codes: bool, **options
    ):
        user, created = get_user_model().objects.get_or_create(
            username=username, defaults={"email": email}
        )
        user.is_staff = True
        user.is_superuser = True
        user.set_password(password)
        user.save()
        self.stdout.write(f"{'Created' if created else 'Updated'} superuser {username}.")
        if recovery_codes:
            self._second_factor(user)

    def _second_factor(self, user) -> None:
        from django_otp.plugins.otp_totp.models import TOTPDevice

        from accounts import two_factor

        device = TOTPDevice.objects.filter(user=user, confirmed=True).first()
        if device is None:
            device = TOTPDevice.objects.create(
                user=user, name=two_factor.DEVICE_NAME, confirmed=True
            )
        codes = two_factor.replace_recovery_codes(user)
        self.stdout.write(f"Second factor of {user.username}: authenticator {device.config_url}")
        self.stdout.write(f"  recovery codes (each signs in once): {' '.join(codes)}")
