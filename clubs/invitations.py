"""Linking a player to an account by invitation: the organiser offers, the person accepts.

What it does: ``invite_account`` records (or replaces) the pending invitation of a player for
the account called ``username``, whether or not such an account exists — the organiser's answer
is the same either way, so usernames cannot be probed. ``list_my_invitations`` is what an
account is offered; ``accept_invitation`` links the player to the accepting account (409
``already_linked`` when that account already is another player of the club) and
``decline_invitation`` drops it. Someone else's invitation, or none, is 404 either way.

What it does not do: unlink (``clubs.services.update_player`` with ``username=None`` does, at
once) or link without consent (``clubs.services.add_player`` with a username is for trusted
callers only: the demo loader).
"""

from __future__ import annotations

from django.db import transaction

from clubs.models import Player, PlayerInvitation
from config.problems import Problem


def invite_account(*, player: Player, username: str, invited_by) -> PlayerInvitation:
    PlayerInvitation.objects.filter(player=player).delete()
    return PlayerInvitation.objects.create(
        player=player, username=username.strip(), invited_by=invited_by
    )


def list_my_invitations(*, user):
    return PlayerInvitation.objects.filter(
        username__iexact=user.username, player__is_active=True
    ).select_related("player__club")


def _mine(invitation_id: int, user) -> PlayerInvitation:
    invitation = (
        list_my_invitations(user=user).select_for_update(of=("self",)).filter(pk=invitation_id)
    ).first()
    if invitation is None:
        raise Problem(code="not_found", detail="No such invitation.")
    return invitation


def accept_invitation(*, invitation_id: int, user) -> Player:
    with transaction.atomic():
        invitation = _mine(invitation_id, user)
        player = Player.objects.select_for_update().get(pk=invitation.player_id)
        if Player.objects.filter(club_id=player.club_id, user=user).exclude(pk=player.pk).exists():
            raise Problem(
                code="already_linked",
                detail="Your account is already another player of this club.",
            )
        player.user = user
        player.save(update_fields=["user"])
        invitation.delete()
        return player


def decline_invitation(*, invitation_id: int, user) -> None:
    with transaction.atomic():
        _mine(invitation_id, user).delete()
