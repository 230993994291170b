"""The same-account link: a club player given an account is linked across member clubs.

What it does: when a ``clubs.Player`` is saved with a ``user`` (the "this is me" link of
``clubs.invitations``, or an organiser's edit), ``federations.services.link_same_account`` links
that player, in every federation its club is a member of, to the federation player of the same
account's players at the other member clubs (or makes one), in the same transaction as the save.

What it does not do: unlink anything when an account is taken off a player (an organiser unlinks,
audited), or look at a player without an account (nothing to match).

Terms: a Django ``post_save`` receiver, the one place federations listens to clubs: clubs knows
nothing of federations (import-linter), and the clubs app announces no change of its own.
"""

from __future__ import annotations

from django.db.models.signals import post_save
from django.dispatch import receiver

from clubs.models import Player
from federations import services


@receiver(post_save, sender=Player, dispatch_uid="federations.same_account_link")
def player_saved(sender, instance: Player, raw: bool = False, **kwargs) -> None:
    if raw or instance.user_id is None:
        return
    services.link_same_account(player=instance)
