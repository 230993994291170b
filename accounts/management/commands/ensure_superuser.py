"""``manage.py ensure_superuser --username U --password P``: a superuser with that password.

What it does: creates the user as a superuser, or makes an existing one a superuser and resets
its password; running it twice changes nothing. ``make demo`` uses it for the demo's admin login.

What it does not do: check the password against the validators (it is meant for demos and
development; real admins are made with ``createsuperuser``).
"""

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand


class Command(BaseCommand):
    help = "Create or update a superuser with the given username and password (demo use)."

    def add_arguments(self, parser):
        parser.add_argument("--username", required=True)
        parser.add_argument("--password", required=True)
        parser.add_argument("--email", default="")

    def handle(self, *args, username: str, password: str, email: str, **options):
        user, created = get_user_model().objects.get_or_create(
            username=username, defaults={"email": email}
        )
        user.is_staff = True
        user.is_superuser = True
        user.set_password(password)
        user.save()
        self.stdout.write(f"{'Created' if created else 'Updated'} superuser {username}.")
