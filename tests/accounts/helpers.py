"""Helpers shared by the accounts tests: clients and a user with a known password."""

from __future__ import annotations

from django.contrib.auth import get_user_model
from rest_framework.test import APIClient

PASSWORD = "correct horse battery staple"


def make_user(username: str = "mary", password: str = PASSWORD, **fields):
    return get_user_model().objects.create_user(username=username, password=password, **fields)


def login(client: APIClient, username: str = "mary", password: str = PASSWORD, **extra):
    return client.post("/api/auth/token/", {"username": username, "password": password, **extra})


def client_with_token(token: str) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {token}")
    return client


def with_verified_address(user):
    """``user`` with their e-mail address verified (results and settle-up mail reach it)."""
    from django.utils import timezone

    from accounts.models import MailSettings

    MailSettings.objects.update_or_create(
        user=user, defaults={"verified_email": user.email, "email_verified_at": timezone.now()}
    )
    return user
