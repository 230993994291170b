"""A player is linked to an account only when that account accepts, and usernames cannot be
probed.

What it proves: an organiser naming an existing account, a missing one, or one already linked to
another player gets the same answer (the player, unlinked, with the name it typed as
``invited_username``); the invited account sees the invitation and, on accepting, becomes the
player; any other account gets 404 for it; an account already another player of the club gets
409 ``already_linked``; declining drops it; unlinking (``username: null``) needs no consent.
"""

from __future__ import annotations

import pytest

from clubs.models import Player, PlayerInvitation
from tests.clubs.factories import build_world, make_user
from tests.helpers import token_client


@pytest.fixture
def world(db):
    return build_world()


def _invite(organiser, world, name: str, username: str) -> dict:
    response = organiser.post(
        f"/api/clubs/{world.club.slug}/players/",
        {"display_name": name, "username": username},
        format="json",
    )
    assert response.status_code == 201, response.json()
    return response.json()


def test_invitations_link_only_with_consent(world):
    organiser = token_client(world.users["organiser"])
    mary = make_user("mary")
    linked_elsewhere = world.users["player"]
    Player.objects.filter(pk=world.players[0].pk).update(user=linked_elsewhere)
    answers = [
        _invite(organiser, world, "Mary Byrne", "mary"),
        _invite(organiser, world, "Ghost", "nobody-is-called-this"),
        _invite(organiser, world, "Again", linked_elsewhere.username),
    ]
    shapes = [
        {
            key: value
            for key, value in answer.items()
            if key not in ("id", "display_name", "created_at", "invited_username")
        }
        for answer in answers
    ]
    assert shapes == [{"user": None, "username": None, "is_active": True}] * 3
    assert [a["invited_username"] for a in answers] == [
        "mary",
        "nobody-is-called-this",
        linked_elsewhere.username,
    ]

    as_mary = token_client(mary)
    offered = as_mary.get("/api/invitations/").json()["results"]
    assert [(i["club"], i["display_name"]) for i in offered] == [(world.club.slug, "Mary Byrne")]
    invitation_id = offered[0]["id"]
    stranger = token_client(make_user("stranger"))
    assert stranger.post(f"/api/invitations/{invitation_id}/accept/").status_code == 404
    assert stranger.delete(f"/api/invitations/{invitation_id}/").status_code == 404
    accepted = as_mary.post(f"/api/invitations/{invitation_id}/accept/")
    assert accepted.status_code == 200, accepted.json()
    assert (accepted.json()["user"], accepted.json()["username"]) == (mary.pk, "mary")
    assert not PlayerInvitation.objects.filter(pk=invitation_id).exists()

    # Already another player of this club: refused, and the invitation kept.
    again = PlayerInvitation.objects.get(username=linked_elsewhere.username)
    as_player = token_client(linked_elsewhere)
    refused = as_player.post(f"/api/invitations/{again.pk}/accept/")
    assert (refused.status_code, refused.json()["code"]) == (409, "already_linked")
    assert as_player.delete(f"/api/invitations/{again.pk}/").status_code == 204
    assert not PlayerInvitation.objects.filter(pk=again.pk).exists()

    # Unlinking needs no consent.
    player_id = accepted.json()["id"]
    unlinked = organiser.patch(
        f"/api/clubs/{world.club.slug}/players/{player_id}/", {"username": None}, format="json"
    )
    assert (unlinked.status_code, unlinked.json()["user"]) == (200, None)
