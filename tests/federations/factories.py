"""Test data builders for federations: a federation with an organiser and member clubs.

What it does: writes rows directly (no services) so tests of the services, the levy, the API and
the pages start from a known state: ``make_federation`` (with its organiser), ``make_member``
(an accepted membership, ``accepted_at`` given or now), ``make_federation_player``, ``make_link``.

What it does not do: test anything, or go through the services (the services' tests do).
"""

from __future__ import annotations

from django.utils import timezone

from federations.models import (
    Federation,
    FederationMembership,
    FederationPlayer,
    FederationRole,
    PlayerLink,
)


def make_federation(slug: str = "county-board", *, organiser=None, **fields) -> Federation:
    values = {"name": slug.replace("-", " ").title(), "currency": "EUR", **fields}
    federation = Federation.objects.create(slug=slug, **values)
    if organiser is not None:
        FederationRole.objects.create(federation=federation, user=organiser)
    return federation


def make_member(federation, club, *, accepted_at=None, invited_at=None) -> FederationMembership:
    accepted_at = accepted_at or timezone.now()
    return FederationMembership.objects.create(
        federation=federation,
        club=club,
        invited_at=invited_at or accepted_at,
        accepted_at=accepted_at,
    )


def make_invited(federation, club) -> FederationMembership:
    return FederationMembership.objects.create(
        federation=federation, club=club, invited_at=timezone.now()
    )


def make_federation_player(federation, display_name: str, **fields) -> FederationPlayer:
    return FederationPlayer.objects.create(
        federation=federation, display_name=display_name, **fields
    )


def make_link(federation_player, player, how: str = "organiser") -> PlayerLink:
    return PlayerLink.objects.create(
        federation=federation_player.federation,
        federation_player=federation_player,
        player=player,
        how=how,
    )
