"""Every write of a federation's records: the one module the API and the pages call.

What it does: creates a federation (its creator becomes its organiser); invites a club, withdraws
an invitation, lets the club accept, decline or leave; creates federation players, links club
players to them (by an organiser, by an invitation the club accepts, or by the same account at
two member clubs), unlinks, merges two federation players and undoes a merge; stores a player's
public choices. Each write locks the federation's row, checks, stores and writes its
``FederationAuditEntry`` in one transaction: a refusal (``config.problems.Problem``) stores
nothing. ``lock_federation``, ``audit`` and ``user_or_none`` are the helpers every federation
write uses (``federations.events`` too).

What it does not do: add or remove organisers (``federations.organisers``, the same way: this
module is at the size limit), decide who may call it (``federations.permissions``; the views
check before calling), read (``federations.selectors``), or touch a club's own records (its
players, nights, events and games are only read, never written).

Terms: *member club*, *current link* — as in ``federations.models``; *source* and *target* of a
merge: the source's links move to the target, the source is kept with ``merged_into`` set.
"""

from __future__ import annotations

from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from clubs.models import Club, Player
from config.problems import Problem
from federations import selectors
from federations.models import (
    Federation,
    FederationAuditEntry,
    FederationAuditKind,
    FederationMembership,
    FederationPlayer,
    FederationRole,
    FederationRoleKind,
    LinkHow,
    PlayerLink,
    PlayerLinkInvitation,
)


def user_or_none(user):
    """The signed-in user, or None (what a row's ``…_by`` stores)."""
    return user if user is not None and user.is_authenticated else None


def audit(federation: Federation, kind: str, user, **details) -> FederationAuditEntry:
    """Write the federation's audit entry (inside the write's transaction)."""
    return FederationAuditEntry.objects.create(
        federation=federation, kind=kind, user=user_or_none(user), details=details
    )


def lock_federation(federation: Federation) -> Federation:
    """Take the federation row's lock: the federation's writes run one at a time."""
    return Federation.objects.select_for_update().get(pk=federation.pk)


@transaction.atomic
def create_federation(
    *, user, name: str, slug: str, currency: str, levy_rate_minor: int = 0
) -> Federation:
    """Create a federation; ``user`` becomes its organiser."""
    if Federation.objects.filter(slug=slug).exists():
        raise Problem(code="unique", detail=_("This slug is already taken."), pointer="/slug")
    if Federation.objects.filter(name__iexact=name).exists():
        raise Problem(code="unique", detail=_("This name is already taken."), pointer="/name")
    try:
        with transaction.atomic():
            federation = Federation.objects.create(
                name=name,
                slug=slug,
                currency=currency,
                levy_rate_minor=levy_rate_minor,
                created_by=user_or_none(user),
            )
    except IntegrityError:  # a race on the slug or the name
        raise Problem(code="unique", detail=_("This name or slug is already taken.")) from None
    FederationRole.objects.create(
        federation=federation, user=user, role=FederationRoleKind.ORGANISER
    )
    audit(federation, FederationAuditKind.FEDERATION_CREATED, user, name=name, slug=slug)
    return federation


@transaction.atomic
def update_federation(*, federation: Federation, user, **changes) -> Federation:
    """Change the name or the levy rate (``name``, ``levy_rate_minor``)."""
    federation = lock_federation(federation)
    name = changes.get("name")
    if name is not None and name.lower() != federation.name.lower():
        if Federation.objects.filter(name__iexact=name).exclude(pk=federation.pk).exists():
            raise Problem(code="unique", detail=_("This name is already taken."), pointer="/name")
    before = {key: getattr(federation, key) for key in changes}
    for key, value in changes.items():
        setattr(federation, key, value)
    federation.save(update_fields=list(changes))
    audit(federation, FederationAuditKind.FEDERATION_CHANGED, user, before=before, after=changes)
    return federation


def _open_membership(federation: Federation, club: Club) -> FederationMembership | None:
    return (
        FederationMembership.objects.select_for_update()
        .filter(federation=federation, club=club, left_at__isnull=True)
        .first()
    )


@transaction.atomic
def invite_club(*, federation: Federation, user, club: Club) -> FederationMembership:
    """Invite ``club``; refused (``already_member``) while it is a member or invited."""
    federation = lock_federation(federation)
    if _open_membership(federation, club) is not None:
        raise Problem(
            code="already_member",
            detail=_("The club is already a member of this federation or invited to it."),
            pointer="/club",
        )
    membership = FederationMembership.objects.create(
        federation=federation, club=club, invited_at=timezone.now(), invited_by=user_or_none(user)
    )
    audit(
        federation, FederationAuditKind.CLUB_INVITED, user, club=club.pk, membership=membership.pk
    )
    return membership


def _pending(federation: Federation, club: Club) -> FederationMembership:
    membership = _open_membership(federation, club)
    if membership is None or membership.accepted_at is not None:
        raise Problem(code="not_invited", detail=_("The club has no pending invitation."))
    return membership


def _end(federation, user, membership, kind) -> FederationMembership:
    membership.left_at, membership.left_by = timezone.now(), user_or_none(user)
    membership.save(update_fields=["left_at", "left_by"])
    audit(federation, kind, user, club=membership.club_id, membership=membership.pk)
    return membership


@transaction.atomic
def withdraw_invitation(*, federation: Federation, user, club: Club) -> FederationMembership:
    """The federation takes back a pending invitation (the row is ended, never accepted)."""
    federation = lock_federation(federation)
    membership = _pending(federation, club)
    return _end(federation, user, membership, FederationAuditKind.INVITATION_WITHDRAWN)


@transaction.atomic
def accept_invitation(*, federation: Federation, user, club: Club) -> FederationMembership:
    """The club's organiser accepts: the club is a member from now; same-account links are made."""
    federation = lock_federation(federation)
    membership = _pending(federation, club)
    membership.accepted_at, membership.accepted_by = timezone.now(), user_or_none(user)
    membership.save(update_fields=["accepted_at", "accepted_by"])
    audit(
        federation, FederationAuditKind.CLUB_ACCEPTED, user, club=club.pk, membership=membership.pk
    )
    for player in Player.objects.filter(club=club, user__isnull=False).order_by("pk"):
        _link_same_account_in(federation, player)
    return membership


@transaction.atomic
def decline_invitation(*, federation: Federation, user, club: Club) -> FederationMembership:
    """The club's organiser declines: the row is ended, never accepted."""
    federation = lock_federation(federation)
    membership = _pending(federation, club)
    return _end(federation, user, membership, FederationAuditKind.CLUB_DECLINED)


@transaction.atomic
def leave_federation(*, federation: Federation, user, club: Club) -> FederationMembership:
    """The club leaves. Its records and its links stay; the levy stops counting from now."""
    federation = lock_federation(federation)
    membership = _open_membership(federation, club)
    if membership is None or membership.accepted_at is None:
        raise Problem(code="not_a_member", detail=_("The club is not a member of this federation."))
    return _end(federation, user, membership, FederationAuditKind.CLUB_LEFT)


@transaction.atomic
def create_player(*, federation: Federation, user, display_name: str) -> FederationPlayer:
    federation = lock_federation(federation)
    player = FederationPlayer.objects.create(federation=federation, display_name=display_name)
    audit(federation, FederationAuditKind.PLAYER_CREATED, user, federation_player=player.pk)
    return player


def _check_linkable(
    federation: Federation, federation_player: FederationPlayer, player: Player
) -> None:
    if federation_player.federation_id != federation.pk:
        raise Problem(
            code="not_found", detail=_("No such federation player."), pointer="/federation_player"
        )
    if federation_player.merged_into_id is not None:
        raise Problem(
            code="player_merged",
            detail=_("This federation player was merged into another."),
            pointer="/federation_player",
        )
    if not selectors.is_member(federation, player.club_id):
        raise Problem(
            code="not_a_member",
            detail=_("The player's club is not a member of this federation."),
            pointer="/player",
        )
    if PlayerLink.objects.current().filter(federation=federation, player=player).exists():
        raise Problem(
            code="player_already_linked",
            detail=_("This club player is already linked to a federation player; unlink first."),
            pointer="/player",
        )


def store_link(federation, federation_player, player, how, user) -> PlayerLink:
    """Store a current link (the federation's lock held, the checks done) and its audit entry;
    a pending proposal for the same club player is dropped."""
    PlayerLinkInvitation.objects.filter(federation=federation, player=player).delete()
    link = PlayerLink.objects.create(
        federation=federation,
        federation_player=federation_player,
        player=player,
        how=how,
        created_by=user_or_none(user),
    )
    audit(
        federation,
        FederationAuditKind.LINKED,
        user,
        link=link.pk,
        player=player.pk,
        club=player.club_id,
        federation_player=federation_player.pk,
        how=how,
    )
    return link


@transaction.atomic
def link_player(
    *, federation: Federation, user, federation_player: FederationPlayer, player: Player
) -> PlayerLink:
    """A federation organiser links a member club's player to a federation player."""
    federation = lock_federation(federation)
    federation_player = FederationPlayer.objects.get(pk=federation_player.pk)
    _check_linkable(federation, federation_player, player)
    return store_link(federation, federation_player, player, LinkHow.ORGANISER, user)


@transaction.atomic
def invite_link(
    *, federation: Federation, user, federation_player: FederationPlayer, player: Player
) -> PlayerLinkInvitation:
    """Propose a link to the player's club; a new proposal replaces a pending one."""
    federation = lock_federation(federation)
    federation_player = FederationPlayer.objects.get(pk=federation_player.pk)
    _check_linkable(federation, federation_player, player)
    PlayerLinkInvitation.objects.filter(federation=federation, player=player).delete()
    invitation = PlayerLinkInvitation.objects.create(
        federation=federation,
        federation_player=federation_player,
        player=player,
        invited_by=user_or_none(user),
    )
    audit(
        federation,
        FederationAuditKind.LINK_INVITED,
        user,
        player=player.pk,
        club=player.club_id,
        federation_player=federation_player.pk,
    )
    return invitation


@transaction.atomic
def accept_link_invitation(*, invitation: PlayerLinkInvitation, user) -> PlayerLink:
    """The club's organiser accepts the proposal: the link is made (``how`` = invitation)."""
    federation = lock_federation(invitation.federation)
    invitation = PlayerLinkInvitation.objects.select_related("federation_player", "player").get(
        pk=invitation.pk
    )
    _check_linkable(federation, invitation.federation_player, invitation.player)
    return store_link(
        federation, invitation.federation_player, invitation.player, LinkHow.INVITATION, user
    )


@transaction.atomic
def decline_link_invitation(*, invitation: PlayerLinkInvitation, user) -> None:
    federation = lock_federation(invitation.federation)
    audit(
        federation,
        FederationAuditKind.LINK_DECLINED,
        user,
        player=invitation.player_id,
        federation_player=invitation.federation_player_id,
    )
    invitation.delete()


@transaction.atomic
def unlink_player(*, link: PlayerLink, user) -> PlayerLink:
    """End a current link (kept, with ``unlinked_at``); audited with what it joined."""
    federation = lock_federation(link.federation)
    link = PlayerLink.objects.select_for_update().get(pk=link.pk)
    if link.unlinked_at is not None:
        raise Problem(code="not_linked", detail=_("This link was already undone."))
    link.unlinked_at, link.unlinked_by = timezone.now(), user_or_none(user)
    link.save(update_fields=["unlinked_at", "unlinked_by"])
    audit(
        federation,
        FederationAuditKind.UNLINKED,
        user,
        link=link.pk,
        player=link.player_id,
        federation_player=link.federation_player_id,
        how=link.how,
    )
    return link


@transaction.atomic
def merge_players(
    *, federation: Federation, user, source: FederationPlayer, target: FederationPlayer
) -> FederationAuditEntry:
    """``source`` and ``target`` are one person: the source's current links and pending
    invitations move to the target; the source is kept, ``merged_into`` the target. The audit
    entry's details (the moved ids) are what ``unmerge`` restores from."""
    federation = lock_federation(federation)
    source, target = (
        FederationPlayer.objects.select_for_update().get(pk=each.pk) for each in (source, target)
    )
    for pointer, each in (("/source", source), ("/target", target)):
        if each.federation_id != federation.pk:
            raise Problem(code="not_found", detail=_("No such federation player."), pointer=pointer)
        if each.merged_into_id is not None:
            raise Problem(
                code="player_merged",
                detail=_("This federation player was merged into another."),
                pointer=pointer,
            )
    if source.pk == target.pk:
        raise Problem(
            code="same_player", detail=_("Two different players are needed."), pointer="/target"
        )
    links = list(
        PlayerLink.objects.current().filter(federation_player=source).values_list("pk", flat=True)
    )
    invitations = list(source.link_invitations.values_list("pk", flat=True))
    PlayerLink.objects.filter(pk__in=links).update(federation_player=target)
    PlayerLinkInvitation.objects.filter(pk__in=invitations).update(federation_player=target)
    FederationPlayer.objects.filter(pk=source.pk).update(merged_into=target)
    return audit(
        federation,
        FederationAuditKind.MERGED,
        user,
        source=source.pk,
        target=target.pk,
        links=links,
        invitations=invitations,
    )


@transaction.atomic
def unmerge(*, entry: FederationAuditEntry, user) -> FederationPlayer:
    """Undo a merge from its audit entry: the moved links go back to the source. Refused
    (``merge_changed``) when a moved link was unlinked or moved again since (undo the later
    merge first), and (``not_merged``) when the merge was already undone."""
    federation = lock_federation(entry.federation)
    if entry.kind != FederationAuditKind.MERGED:
        raise Problem(code="not_merged", detail=_("This audit entry is not a merge."))
    details = entry.details
    source = FederationPlayer.objects.select_for_update().get(pk=details["source"])
    if source.merged_into_id != details["target"]:
        raise Problem(code="not_merged", detail=_("This merge was already undone."))
    moved = PlayerLink.objects.current().filter(
        pk__in=details["links"], federation_player_id=details["target"]
    )
    if moved.count() != len(details["links"]):
        raise Problem(
            code="merge_changed",
            detail=_("A link moved by this merge was undone or moved since; undo that first."),
        )
    moved.update(federation_player=source)
    PlayerLinkInvitation.objects.filter(
        pk__in=details["invitations"], federation_player_id=details["target"]
    ).update(federation_player=source)
    FederationPlayer.objects.filter(pk=source.pk).update(merged_into=None)
    audit(
        federation,
        FederationAuditKind.UNMERGED,
        user,
        merge=entry.pk,
        source=source.pk,
        target=details["target"],
        links=details["links"],
    )
    source.merged_into = None
    return source


@transaction.atomic
def set_public_choices(
    *,
    federation_player: FederationPlayer,
    user,
    name_shown: str | None = None,
    ranking_shown: bool | None = None,
) -> FederationPlayer:
    """The player's own choices: the name shown (whole or initials), the ranking shown or not."""
    federation = lock_federation(federation_player.federation)
    player = FederationPlayer.objects.select_for_update().get(pk=federation_player.pk)
    changes = {}
    if name_shown is not None:
        changes["name_shown"] = name_shown
    if ranking_shown is not None:
        changes["ranking_shown"] = ranking_shown
    for key, value in changes.items():
        setattr(player, key, value)
    if changes:
        player.save(update_fields=list(changes))
        audit(
            federation,
            FederationAuditKind.PRIVACY_CHANGED,
            user,
            federation_player=player.pk,
            **changes,
        )
    return player


def _link_same_account_in(federation: Federation, player: Player) -> PlayerLink | None:
    """Link ``player`` to the federation player of the same account's players at the other
    member clubs (the earliest such link's), or make one and link every such player; nothing
    when the player is already linked or the account plays at no other member club."""
    current = PlayerLink.objects.current().filter(federation=federation)
    if current.filter(player=player).exists():
        return None
    same = list(
        Player.objects.filter(
            user_id=player.user_id,
            club__federation_memberships__federation=federation,
            club__federation_memberships__accepted_at__isnull=False,
            club__federation_memberships__left_at__isnull=True,
        )
        .exclude(pk=player.pk)
        .order_by("pk")
    )
    if not same:
        return None
    existing = (
        current.filter(player__in=same, federation_player__merged_into__isnull=True)
        .select_related("federation_player")
        .order_by("pk")
        .first()
    )
    if existing is not None:
        federation_player = existing.federation_player
    else:
        federation_player = FederationPlayer.objects.create(
            federation=federation, display_name=player.display_name
        )
        audit(
            federation,
            FederationAuditKind.PLAYER_CREATED,
            None,
            federation_player=federation_player.pk,
        )
    link = store_link(federation, federation_player, player, LinkHow.SAME_ACCOUNT, None)
    for other in same:
        if not current.filter(player=other).exists():
            store_link(federation, federation_player, other, LinkHow.SAME_ACCOUNT, None)
    return link


@transaction.atomic
def link_same_account(*, player: Player) -> list[PlayerLink]:
    """For each federation ``player``'s club is a member of: the same-account link (above)."""
    if player.user_id is None:
        return []
    federations = Federation.objects.filter(
        memberships__club_id=player.club_id,
        memberships__accepted_at__isnull=False,
        memberships__left_at__isnull=True,
    ).order_by("pk")
    links = []
    for federation in federations:
        link = _link_same_account_in(lock_federation(federation), player)
        if link is not None:
            links.append(link)
    return links
