"""The federations' models: their constraints, the public name, and the admin covering each one.

What it checks: one open membership per club and federation (a re-join is a new row once the
old one ended), one current link per club player and federation, initials as the public name, and
every federations model registered in the admin with search and filters, each changelist
answering a superuser.
"""

from __future__ import annotations

import pytest
from django.apps import apps
from django.contrib import admin
from django.db import IntegrityError, transaction
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from federations.models import FederationMembership, NameShown
from tests.accounts.two_factor_helpers import verify_session
from tests.clubs.factories import make_club, make_player, make_user
from tests.federations.factories import (
    make_federation,
    make_federation_player,
    make_link,
    make_member,
)

pytestmark = pytest.mark.django_db


def test_one_open_membership_per_club_and_a_rejoin_is_a_new_row():
    federation, club = make_federation(), make_club()
    first = make_member(federation, club)
    with pytest.raises(IntegrityError), transaction.atomic():
        make_member(federation, club)
    first.left_at = timezone.now()
    first.save()
    second = make_member(federation, club)
    assert [m.state for m in FederationMembership.objects.order_by("pk")] == ["ended", "member"]
    assert second.pk != first.pk


def test_one_current_link_per_club_player():
    federation, club = make_federation(), make_club()
    player = make_player(club, "Mary Byrne")
    make_link(make_federation_player(federation, "Mary Byrne"), player)
    with pytest.raises(IntegrityError), transaction.atomic():
        make_link(make_federation_player(federation, "M. Byrne"), player)


def test_public_name_is_the_name_or_its_initials():
    federation = make_federation()
    player = make_federation_player(federation, "mary  ann byrne")
    assert player.public_name == "mary  ann byrne"
    player.name_shown = NameShown.INITIALS
    assert player.public_name == "M. A. B."


def test_every_federations_model_is_in_the_admin_with_search_and_filters():
    superuser = make_user("root", is_staff=True, is_superuser=True)
    client = Client()
    client.force_login(superuser)
    verify_session(client, superuser)  # the admin needs a session signed in with a second factor
    for model in apps.get_app_config("federations").get_models():
        model_admin = admin.site._registry.get(model)
        assert model_admin is not None, model
        assert model_admin.search_fields and model_admin.list_filter, model
        url = reverse(f"admin:federations_{model._meta.model_name}_changelist")
        assert client.get(url, {"q": "x"}).status_code == 200, model
