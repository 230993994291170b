"""A federation's organisers, added and removed by its organisers: the writes the API and the
organisers' page call (``federations.services``' habits: the federation's lock, the audit, a
refusal stores nothing; a module of its own because services.py is at the module size limit).

What it does: ``add_organiser`` makes an existing account, named by its username or e-mail address
(``clubs.roster.account_for_invite``: case-insensitive, an e-mail several accounts share names
none), an organiser; ``remove_organiser`` takes a role away, the remover's own included, but
never the last.

What it does not do: create accounts or tell anyone by e-mail, or decide who may call it
(``federations.permissions``).
"""

from __future__ import annotations

from django.db import transaction
from django.utils.translation import gettext as _

from clubs.roster import account_for_invite
from config.problems import Problem
from federations.models import (
    Federation,
    FederationAuditKind,
    FederationRole,
    FederationRoleKind,
)
from federations.services import audit, lock_federation


@transaction.atomic
def add_organiser(*, federation: Federation, user, identifier: str) -> FederationRole:
    """Make the account whose username or e-mail address is ``identifier`` an organiser.

    An unknown account and an e-mail nobody or several use get the same answer
    (``no_such_account``, as a club's invitation); an organiser already is ``unique``.
    """
    federation = lock_federation(federation)
    account = account_for_invite(identifier)
    if account is None:
        raise Problem(
            code="no_such_account",
            detail=_(
                "No account can be added with that username or e-mail. Ask the person for the "
                "username they log in with."
            ),
            pointer="/identifier",
        )
    if FederationRole.objects.filter(federation=federation, user=account).exists():
        raise Problem(
            code="unique",
            detail=_("This account is already an organiser of this federation."),
            pointer="/identifier",
        )
    role = FederationRole.objects.create(
        federation=federation, user=account, role=FederationRoleKind.ORGANISER
    )
    audit(federation, FederationAuditKind.ORGANISER_ADDED, user, organiser=account.pk)
    return role


@transaction.atomic
def remove_organiser(*, federation: Federation, user, role: FederationRole) -> None:
    """Take an organiser's role away (their own included); refused for the last one."""
    federation = lock_federation(federation)
    if FederationRole.objects.filter(federation=federation).count() <= 1:
        raise Problem(
            code="last_organiser",
            detail=_("A federation must keep at least one organiser."),
        )
    organiser = role.user_id
    FederationRole.objects.filter(pk=role.pk).delete()
    audit(federation, FederationAuditKind.ORGANISER_REMOVED, user, organiser=organiser)
