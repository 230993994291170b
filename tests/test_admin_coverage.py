"""The admin site covers every model of Jink's apps, each with search and filters.

What it checks: every model of the project's own apps (every app whose code is under the
project's folder: ``outbox``, ``accounts``, ``clubs``, ``games``, ``tournaments``, ``hall``,
``federations``, ...) is either registered in the admin with ``search_fields`` and
``list_filter``, or shown inside a registered model's page — as an inline (a team's members, a
game's seats) or, for django-simple-history's ``Historical…`` models, through the history view
of a ``SimpleHistoryAdmin``. Every changelist of the project's models then answers a superuser
with a search and no filter error.

What it does not check: Django's and the libraries' own models (their apps decide), or what each
page shows (the apps' admin tests do).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from django.apps import apps
from django.conf import settings
from django.contrib import admin
from django.test import Client
from django.urls import reverse
from simple_history.admin import SimpleHistoryAdmin

from tests.accounts.two_factor_helpers import verify_session

# Every app of this project (its code under the project's folder), found, not listed: a new
# app's models are covered the day it lands. The pages (web) hold no models.
PROJECT_APPS = tuple(
    config.label
    for config in apps.get_app_configs()
    if Path(config.path).resolve().is_relative_to(Path(settings.BASE_DIR).resolve())
    and "site-packages" not in Path(config.path).parts
)


def project_models() -> list:
    return [model for label in PROJECT_APPS for model in apps.get_app_config(label).get_models()]


def inline_models() -> set:
    return {
        inline.model
        for model_admin in admin.site._registry.values()
        for inline in model_admin.inlines
    }


def _history_parent(model):
    """The model a django-simple-history ``Historical…`` model records, or None."""
    return getattr(model, "instance_type", None)


def test_every_project_model_is_in_the_admin_with_search_and_filters():
    inlines = inline_models()
    problems = []
    for model in project_models():
        label = model._meta.label
        model_admin = admin.site._registry.get(model)
        parent = _history_parent(model)
        if model_admin is None:
            if model in inlines:
                continue
            if parent is not None and isinstance(
                admin.site._registry.get(parent), SimpleHistoryAdmin
            ):
                continue
            problems.append(f"{label}: not in the admin")
            continue
        if not model_admin.search_fields:
            problems.append(f"{label}: no search_fields")
        if not model_admin.list_filter:
            problems.append(f"{label}: no list_filter")
    assert problems == [], "; ".join(problems)


def test_the_walk_sees_the_models_of_every_app():
    labels = {model._meta.label for model in project_models()}

    assert {"accounts.DeviceToken", "clubs.Club", "clubs.TeamMember", "games.Game"} <= labels
    assert {"tournaments.Tournament", "games.HistoricalHand"} <= labels


@pytest.mark.django_db
def test_every_project_changelist_answers_a_search(django_user_model):
    client = Client()
    user = django_user_model.objects.create_user(username="admin", is_staff=True, is_superuser=True)
    client.force_login(user)
    verify_session(client, user)  # the admin needs a session signed in with a second factor
    failures = []
    for model in project_models():
        if model not in admin.site._registry:
            continue
        url = reverse(f"admin:{model._meta.app_label}_{model._meta.model_name}_changelist")
        response = client.get(url, {"q": "x"})
        if response.status_code != 200:
            failures.append(f"{url}: {response.status_code}")
    assert failures == [], "; ".join(failures)
