"""Reads of a federation's records, each scoped to one federation (nothing crosses federations).

What it does: fetches a federation by slug, and inside it a club with a membership, a federation
player, a link, a link invitation or a merge's audit entry — an id of another federation is a 404
(``Http404``), never someone else's row; lists the memberships, players (with their current
links), links and audit entries; reads a member club's results for the federation's organisers
(its nights and events with their game counts: read only); the federation events, their
nominations and selected entrants, and the events open to a club's nominations.

What it does not do: check who asks (``federations.permissions``) or write
(``federations.services``).

Terms: as in ``federations.models``.
"""

from __future__ import annotations

from django.db.models import Count, Prefetch, QuerySet
from django.http import Http404

from clubs.models import Club, Player
from federations.models import (
    EventStatus,
    Federation,
    FederationAuditEntry,
    FederationAuditKind,
    FederationEvent,
    FederationEventEntrant,
    FederationMembership,
    FederationNomination,
    FederationPlayer,
    FederationRole,
    PlayerLink,
    PlayerLinkInvitation,
    SelectionRule,
)
from games.models import Game, GameSeat
from settlements.models import Night
from tournaments.models import Tournament


def _one(queryset, what: str):
    found = queryset.first()
    if found is None:
        raise Http404(f"No such {what}.")
    return found


def get_federation(*, slug: str) -> Federation:
    return _one(Federation.objects.filter(slug=slug), "federation")


def list_organisers(*, federation: Federation) -> QuerySet[FederationRole]:
    """The federation's organisers, by the date they became one."""
    return (
        FederationRole.objects.filter(federation=federation)
        .select_related("user")
        .order_by("created_at", "id")
    )


def get_organiser(*, federation: Federation, user_id: int) -> FederationRole:
    """The organiser role of the account ``user_id`` in this federation (else 404)."""
    return _one(
        FederationRole.objects.filter(federation=federation, user_id=user_id).select_related(
            "user"
        ),
        "organiser",
    )


def list_federations() -> QuerySet[Federation]:
    return Federation.objects.order_by("name", "id")


def find_club(*, slug: str) -> Club | None:
    """The club with this slug, or None (a federation invites a club by its slug)."""
    return Club.objects.filter(slug=slug).first()


def get_club_of_federation(*, federation: Federation, slug: str) -> Club:
    """A club with any membership row (invited, member, ended) in this federation."""
    return _one(
        Club.objects.filter(slug=slug, federation_memberships__federation=federation).distinct(),
        "club",
    )


def is_member(federation: Federation, club_id: int) -> bool:
    """The club is a member now (accepted, not left)."""
    return FederationMembership.objects.filter(
        federation=federation, club_id=club_id, accepted_at__isnull=False, left_at__isnull=True
    ).exists()


def list_memberships(*, federation: Federation) -> QuerySet[FederationMembership]:
    return (
        FederationMembership.objects.filter(federation=federation)
        .select_related("club")
        .order_by("club__name", "invited_at", "id")
    )


def list_member_clubs(*, federation: Federation) -> QuerySet[Club]:
    return Club.objects.filter(
        federation_memberships__federation=federation,
        federation_memberships__accepted_at__isnull=False,
        federation_memberships__left_at__isnull=True,
    ).order_by("name", "id")


def list_club_memberships(*, club: Club) -> QuerySet[FederationMembership]:
    """A club's memberships in every federation (its console's federation box)."""
    return (
        FederationMembership.objects.filter(club=club)
        .select_related("federation")
        .order_by("federation__name", "-invited_at", "-id")
    )


def list_club_link_invitations(*, club: Club) -> QuerySet[PlayerLinkInvitation]:
    return (
        PlayerLinkInvitation.objects.filter(player__club=club)
        .select_related("federation", "federation_player", "player")
        .order_by("created_at", "id")
    )


def get_federation_player(*, federation: Federation, player_id: int) -> FederationPlayer:
    return _one(
        FederationPlayer.objects.filter(federation=federation, pk=player_id),
        "federation player",
    )


def list_players(*, federation: Federation) -> QuerySet[FederationPlayer]:
    """The federation's players not merged away, with their current links and clubs."""
    links = PlayerLink.objects.current().select_related("player__club").order_by("pk")
    return (
        FederationPlayer.objects.active()
        .filter(federation=federation)
        .prefetch_related(Prefetch("links", queryset=links, to_attr="current_links"))
        .order_by("display_name", "id")
    )


def get_club_player(*, federation: Federation, player_id: int) -> Player:
    """A club player of a club with a membership row in this federation (else 404)."""
    return _one(
        Player.objects.filter(
            pk=player_id, club__federation_memberships__federation=federation
        ).distinct(),
        "club player",
    )


def get_link(*, federation: Federation, link_id: int) -> PlayerLink:
    return _one(PlayerLink.objects.filter(federation=federation, pk=link_id), "link")


def list_links(*, federation: Federation) -> QuerySet[PlayerLink]:
    return (
        PlayerLink.objects.current()
        .filter(federation=federation)
        .select_related("player__club", "federation_player")
        .order_by("federation_player__display_name", "pk")
    )


def get_link_invitation(*, federation: Federation, invitation_id: int) -> PlayerLinkInvitation:
    return _one(
        PlayerLinkInvitation.objects.filter(federation=federation, pk=invitation_id).select_related(
            "player__club", "federation_player"
        ),
        "link invitation",
    )


def get_merge(*, federation: Federation, entry_id: int) -> FederationAuditEntry:
    return _one(
        FederationAuditEntry.objects.filter(
            federation=federation, pk=entry_id, kind=FederationAuditKind.MERGED
        ),
        "merge",
    )


def list_audit(*, federation: Federation) -> QuerySet[FederationAuditEntry]:
    return (
        FederationAuditEntry.objects.filter(federation=federation)
        .select_related("user")
        .order_by("-created_at", "-id")
    )


def member_club_results(*, club: Club) -> dict:
    """A member club's nights and events, newest first, with how many games each holds, and its
    last 100 games with their players (four queries)."""
    nights = Night.objects.filter(club=club).annotate(game_count=Count("night_games"))
    events = Tournament.objects.filter(club=club).annotate(game_count=Count("matches__match_games"))
    return {
        "nights": list(nights.order_by("-opened_at", "-id")[:100]),
        "events": list(events.order_by("-created_at", "-id")[:100]),
        "games": list(
            Game.objects.filter(club=club)
            .prefetch_related(Prefetch("seats", queryset=GameSeat.objects.select_related("player")))
            .order_by("-created_at", "-id")[:100]
        ),
    }


# Federation events ------------------------------------------------------------------------------


def list_events(*, federation: Federation) -> QuerySet[FederationEvent]:
    """The federation's events, newest first, with their selected entrants and nominations
    (three queries however many events)."""
    entrants = FederationEventEntrant.objects.select_related("club", "player").order_by("seed")
    nominations = FederationNomination.objects.select_related("club", "player").order_by(
        "club__name", "club_id", "order"
    )
    return (
        FederationEvent.objects.filter(federation=federation)
        .select_related("host_club")
        .prefetch_related(
            Prefetch("entrants", queryset=entrants),
            Prefetch("nominations", queryset=nominations),
        )
        .order_by("-date", "-id")
    )


def get_event(*, federation: Federation, event_id: int) -> FederationEvent:
    return _one(list_events(federation=federation).filter(pk=event_id), "federation event")


def list_nominations(*, event: FederationEvent, club: Club | None = None):
    nominations = event.nominations.select_related("club", "player", "federation_player")
    if club is not None:
        nominations = nominations.filter(club=club)
    return nominations.order_by("club__name", "club_id", "order")


def get_nomination(
    *, event: FederationEvent, club: Club, nomination_id: int
) -> FederationNomination:
    return _one(event.nominations.filter(club=club, pk=nomination_id), "nomination")


def list_event_entrants(*, event: FederationEvent) -> QuerySet[FederationEventEntrant]:
    return event.entrants.select_related("club", "player", "host_player").order_by("seed")


def list_open_events_for_club(*, club: Club) -> list[FederationEvent]:
    """The draft events taking nominations of the federations ``club`` is a member of now, each
    with ``club_nominations`` (the club's own, in order)."""
    mine = FederationNomination.objects.filter(club=club).select_related("player")
    return list(
        FederationEvent.objects.filter(
            rule=SelectionRule.NOMINATIONS,
            status=EventStatus.DRAFT,
            federation__memberships__club=club,
            federation__memberships__accepted_at__isnull=False,
            federation__memberships__left_at__isnull=True,
        )
        .select_related("federation", "host_club")
        .prefetch_related(
            Prefetch("nominations", queryset=mine.order_by("order"), to_attr="club_nominations")
        )
        .order_by("date", "id")
    )
