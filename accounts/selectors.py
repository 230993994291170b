"""Reads of the accounts app: a user's devices and club memberships.

What it does: ``list_device_tokens`` gives the unexpired tokens of a user, newest first;
``list_memberships`` gives a user's club memberships with their clubs, by club name.

What it does not do: permission checks (a user only ever reads their own).
"""

from __future__ import annotations

from django.db.models import Q, QuerySet
from django.utils import timezone

from accounts.models import DeviceToken
from clubs.models import Membership


def list_device_tokens(*, user) -> QuerySet[DeviceToken]:
    now = timezone.now()
    return DeviceToken.objects.filter(user=user).filter(Q(expiry__isnull=True) | Q(expiry__gt=now))


def list_memberships(*, user) -> list[Membership]:
    return list(Membership.objects.filter(user=user).select_related("club").order_by("club__name"))
