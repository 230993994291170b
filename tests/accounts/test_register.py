"""POST /api/auth/register/: new accounts, Django's password validators, problem documents."""

import pytest
from django.contrib.auth import get_user_model
from rest_framework.test import APIClient

from tests.accounts.helpers import PASSWORD, make_user

pytestmark = pytest.mark.django_db

URL = "/api/auth/register/"


def register(**body):
    return APIClient().post(URL, body, format="json")


def test_register_creates_the_account_and_returns_it():
    response = register(username="mary", password=PASSWORD, email="mary@example.org")

    assert response.status_code == 201
    user = get_user_model().objects.get(username="mary")
    assert response.json() == {"id": user.pk, "username": "mary", "email": "mary@example.org"}
    assert user.check_password(PASSWORD)
    assert user.password != PASSWORD  # stored hashed


def test_email_is_optional():
    response = register(username="sean", password=PASSWORD)

    assert response.status_code == 201
    assert response.json()["email"] == ""


def test_too_short_password_is_a_problem_pointing_at_password():
    response = register(username="mary", password="Zq9!x")

    assert response.status_code == 400
    assert response["Content-Type"] == "application/problem+json"
    assert response.json() == {
        "type": "urn:jink:problem:invalid",
        "title": "Invalid input.",
        "status": 400,
        "detail": "This password is too short. It must contain at least 8 characters.",
        "code": "invalid",
        "errors": [
            {
                "code": "password_too_short",
                "detail": "This password is too short. It must contain at least 8 characters.",
                "pointer": "/password",
            }
        ],
    }
    assert not get_user_model().objects.exists()


def test_common_password_is_refused():
    response = register(username="mary", password="qwertyuiop")

    assert response.status_code == 400
    assert response.json()["errors"] == [
        {
            "code": "password_too_common",
            "detail": "This password is too common.",
            "pointer": "/password",
        }
    ]


def test_entirely_numeric_password_is_refused():
    response = register(username="mary", password="83920174652")

    assert response.status_code == 400
    assert [error["code"] for error in response.json()["errors"]] == ["password_entirely_numeric"]


def test_password_like_the_username_is_refused():
    response = register(username="mauricewalsh", password="mauricewalsh1")

    assert response.status_code == 400
    assert [error["code"] for error in response.json()["errors"]] == ["password_too_similar"]


def test_taken_username_is_refused_whatever_its_case():
    make_user("Mary")

    response = register(username="mary", password=PASSWORD)

    assert response.status_code == 400
    assert response.json()["errors"] == [
        {"code": "username_taken", "detail": "That username is taken.", "pointer": "/username"}
    ]
    assert get_user_model().objects.count() == 1


def test_missing_fields_and_bad_email_are_each_reported():
    response = register(email="not an address")

    assert response.status_code == 400
    errors = sorted(response.json()["errors"], key=lambda error: error["pointer"])
    assert [(error["pointer"], error["code"]) for error in errors] == [
        ("/email", "invalid"),
        ("/password", "required"),
        ("/username", "required"),
    ]


def test_unknown_field_is_refused():
    response = register(username="mary", password=PASSWORD, nickname="M")

    assert response.status_code == 400
    assert response.json()["errors"] == [
        {"code": "unknown_field", "detail": "Unknown field.", "pointer": "/nickname"}
    ]
    assert not get_user_model().objects.exists()


def test_username_with_spaces_is_refused():
    response = register(username="mary walsh", password=PASSWORD)

    assert response.status_code == 400
    assert [(error["pointer"], error["code"]) for error in response.json()["errors"]] == [
        ("/username", "invalid")
    ]
