"""Every write of a federation event: create and change it, nominate, select the entrants, create
the host club's tournament.

What it does:
- ``create_event`` / ``update_event`` (the federation's organisers): the host club must be a
  member now; the settings are those ``tournaments.services.create_tournament`` takes
  (``EVENT_SETTINGS``: not the name, game or format, which are the event's own fields, nor the
  stake, the entry fee or the lots' seed, which are the host club's to set on its tournament),
  checked by the tournaments' own ``configuration.check_settings`` with pointers under
  ``/settings``; the entrants are players (``entrant_kind`` may only be ``player``). A change of
  a selected event drops its selection (back to ``draft``): the entrants no longer follow from it.
- ``nominate`` / ``withdraw_nomination`` (a member club's organisers, for their own club): only
  while the event is a ``draft`` with the ``nominations`` rule; the player must be an active
  player of that club, not nominated already (by player, or by the federation player it is
  linked to), and the club within its ``quota``.
- ``select_entrants`` (the organisers): computes the entrants from the rule (``compute_entrants``)
  and stores them (replacing an earlier selection); the event becomes ``selected``.
- ``create_event_tournament`` (the organisers): the host club's tournament, through
  ``tournaments.services.create_tournament``, with the selected entrants seeded in order.

How entrants are computed: ``federations.event_selection`` (deterministic; its docstring says
how ties are broken and who is passed over).

The host club's entrant for a player of another club is the host club's record of the same
person: the host club player currently linked to the same federation player, or else a new host
club player (``clubs.services.add_player``, no account) named as the player is, or "Name (Their
Club)" when the name is taken, linked to that federation player (``how`` = ``event``). A player
of another club not linked yet gets a federation player of their name and a link first. Each of
these is audited. The host club's own players enter as themselves.

Every write takes the federation's lock (``services.lock_federation``), checks, stores and writes
its audit entry (``services.audit``) in one transaction: a refusal stores nothing.

What it does not do: decide who may call it (``federations.permissions``; the views check), run
the tournament (the host club's organisers do, in its console: the federation's organisers
never change a club's own events), or read (``federations.selectors``).
"""

from __future__ import annotations

import datetime

from django.db import transaction
from django.db.models import Max
from django.utils import timezone
from django.utils.translation import gettext as _

from clubs import services as club_services
from clubs.models import Club, Player
from config.problems import Problem
from federations import selectors
from federations.event_selection import compute_entrants, links_of
from federations.models import (
    EventStatus,
    Federation,
    FederationAuditKind,
    FederationEvent,
    FederationEventEntrant,
    FederationNomination,
    FederationPlayer,
    LinkHow,
    PlayerLink,
    SelectionRule,
)
from federations.services import audit, lock_federation, store_link, user_or_none
from tournaments import configuration
from tournaments import services as tournament_services
from tournaments.models import EntrantKind

EVENT_SETTINGS = tuple(
    name
    for name in configuration.SETTINGS
    if name not in ("name", "game", "format", "lots_seed", "stake_minor", "entry_fee_minor")
)
EVENT_FIELDS = ("name", "game", "format", "date", "rule", "quota", "season_year", "settings")


def check_settings(*, name: str, game: str, tournament_format: str, settings: dict) -> dict:
    """The event's tournament settings as the tournaments check them; the given ones, normalised."""
    unknown = sorted(set(settings) - set(EVENT_SETTINGS))
    if unknown:
        raise Problem(
            code="unknown_field",
            detail=_("A federation event does not take the setting %(name)s.")
            % {"name": unknown[0]},
            pointer=f"/settings/{unknown[0]}",
        )
    if settings.get("entrant_kind", EntrantKind.PLAYER) != EntrantKind.PLAYER:
        raise Problem(
            code="option_not_applicable",
            detail=_("A federation event is played by individual players."),
            pointer="/settings/entrant_kind",
        )
    values = {**tournament_services.DEFAULTS, **settings}
    values.update(name=name, game=game, format=tournament_format)
    checked = configuration.check_settings(
        values, given=set(settings) | {"game", "format"}, pointer="/settings"
    )
    return {key: checked[key] for key in settings}


def _check_host(federation: Federation, host_club: Club) -> None:
    if not selectors.is_member(federation, host_club.pk):
        raise Problem(
            code="not_a_member",
            detail=_("The host club is not a member of this federation."),
            pointer="/host_club",
        )


def _locked_event(event: FederationEvent) -> tuple[Federation, FederationEvent]:
    federation = lock_federation(event.federation)
    return federation, FederationEvent.objects.select_for_update().get(pk=event.pk)


def _refuse_created(event: FederationEvent) -> None:
    if event.status == EventStatus.CREATED:
        raise Problem(
            code="event_created",
            detail=_("The event's tournament is created; the event no longer changes."),
        )


@transaction.atomic
def create_event(
    *,
    federation: Federation,
    user,
    name: str,
    host_club: Club,
    game: str,
    format: str,  # noqa: A002  (the tournaments' word)
    date: datetime.date,
    rule: str,
    quota: int,
    season_year: int | None = None,
    settings: dict | None = None,
) -> FederationEvent:
    """A new event (``draft``) of ``federation``, hosted by a member club."""
    federation = lock_federation(federation)
    _check_host(federation, host_club)
    settings = check_settings(
        name=name, game=game, tournament_format=format, settings=dict(settings or {})
    )
    event = FederationEvent.objects.create(
        federation=federation,
        name=name,
        host_club=host_club,
        game=game,
        format=format,
        settings=settings,
        date=date,
        rule=rule,
        quota=quota,
        season_year=season_year if rule == SelectionRule.TOP_N else None,
        created_by=user_or_none(user),
    )
    audit(
        federation,
        FederationAuditKind.EVENT_CREATED,
        user,
        event=event.pk,
        name=name,
        host_club=host_club.pk,
    )
    return event


@transaction.atomic
def update_event(
    *, event: FederationEvent, user, host_club: Club | None = None, **changes
) -> FederationEvent:
    """Change an event not yet created (``EVENT_FIELDS``, ``host_club``); a selected event goes
    back to ``draft`` (its entrants are dropped)."""
    federation, event = _locked_event(event)
    _refuse_created(event)
    unknown = sorted(set(changes) - set(EVENT_FIELDS))
    if unknown:
        raise Problem(code="unknown_field", detail=_("Unknown field."), pointer=f"/{unknown[0]}")
    if host_club is not None:
        _check_host(federation, host_club)
        event.host_club = host_club
    for key, value in changes.items():
        setattr(event, key, value)
    event.settings = check_settings(
        name=event.name, game=event.game, tournament_format=event.format, settings=event.settings
    )
    if event.rule != SelectionRule.TOP_N:
        event.season_year = None
    dropped = event.status == EventStatus.SELECTED
    if dropped:
        event.entrants.all().delete()
        event.status, event.selected_at, event.selected_season_year = EventStatus.DRAFT, None, None
    event.save()
    changed = sorted(changes) + (["host_club"] if host_club is not None else [])
    audit(
        federation,
        FederationAuditKind.EVENT_CHANGED,
        user,
        event=event.pk,
        changed=changed,
        selection_dropped=dropped,
    )
    return event


@transaction.atomic
def nominate(*, event: FederationEvent, user, club: Club, player: Player) -> FederationNomination:
    """A member club's organiser nominates one of the club's active players (within the quota)."""
    federation, event = _locked_event(event)
    if event.rule != SelectionRule.NOMINATIONS or event.status != EventStatus.DRAFT:
        raise Problem(
            code="nominations_closed",
            detail=_(
                "This event takes no nominations (its entrants come another way, or are "
                "selected already)."
            ),
        )
    if not selectors.is_member(federation, club.pk):
        raise Problem(code="not_a_member", detail=_("The club is not a member of this federation."))
    if player.club_id != club.pk:
        raise Problem(
            code="other_club",
            detail=_("The player is not a player of this club."),
            pointer="/player",
        )
    if not player.is_active:
        raise Problem(
            code="inactive_player", detail=_("The player is no longer active."), pointer="/player"
        )
    federation_player_id = links_of(federation, [player.pk]).get(player.pk)
    taken = event.nominations.filter(player=player)
    if federation_player_id is not None:
        taken = taken | event.nominations.filter(federation_player_id=federation_player_id)
    if taken.exists():
        raise Problem(
            code="duplicate_player",
            detail=_("This player is nominated already."),
            pointer="/player",
        )
    mine = event.nominations.filter(club=club)
    if mine.count() >= event.quota:
        raise Problem(
            code="quota_full",
            detail=_("The club has nominated %(quota)s players, its quota.")
            % {"quota": event.quota},
        )
    order = (mine.aggregate(last=Max("order"))["last"] or 0) + 1
    nomination = FederationNomination.objects.create(
        event=event,
        club=club,
        player=player,
        federation_player_id=federation_player_id,
        order=order,
        nominated_by=user_or_none(user),
    )
    audit(
        federation,
        FederationAuditKind.NOMINATED,
        user,
        event=event.pk,
        club=club.pk,
        player=player.pk,
        order=order,
    )
    return nomination


@transaction.atomic
def withdraw_nomination(*, nomination: FederationNomination, user) -> None:
    """The club takes a nomination back while the event is a draft; its later ones move up."""
    federation, event = _locked_event(nomination.event)
    if event.status != EventStatus.DRAFT:
        raise Problem(
            code="nominations_closed",
            detail=_("The entrants are selected; nominations no longer change."),
        )
    club_id, order = nomination.club_id, nomination.order
    nomination.delete()
    for later in event.nominations.filter(club_id=club_id, order__gt=order).order_by("order"):
        later.order -= 1
        later.save(update_fields=["order"])
    audit(
        federation,
        FederationAuditKind.NOMINATION_WITHDRAWN,
        user,
        event=event.pk,
        club=club_id,
        player=nomination.player_id,
    )


@transaction.atomic
def select_entrants(*, event: FederationEvent, user) -> FederationEvent:
    """Compute and store the entrants (replacing an earlier selection): ``selected``."""
    federation, event = _locked_event(event)
    _refuse_created(event)
    year = event.season_year or timezone.localdate().year
    candidates = compute_entrants(event, year if event.rule == SelectionRule.TOP_N else None)
    if len(candidates) < 2:
        raise Problem(
            code="too_few_entrants",
            detail=_("The rule gives %(count)s entrants; an event needs at least two.")
            % {"count": len(candidates)},
        )
    event.entrants.all().delete()
    FederationEventEntrant.objects.bulk_create(
        FederationEventEntrant(
            event=event,
            club=each.club,
            player_id=each.player_id,
            federation_player_id=each.federation_player_id,
            place=each.place,
            seed=each.seed,
        )
        for each in candidates
    )
    event.status, event.selected_at = EventStatus.SELECTED, timezone.now()
    event.selected_season_year = year if event.rule == SelectionRule.TOP_N else None
    event.save(update_fields=["status", "selected_at", "selected_season_year"])
    audit(
        federation,
        FederationAuditKind.ENTRANTS_SELECTED,
        user,
        event=event.pk,
        rule=event.rule,
        season_year=event.selected_season_year,
        players=[each.player_id for each in candidates],
    )
    return event


def _free_name(host: Club, name: str, club_name: str) -> str:
    candidates = [name, f"{name} ({club_name})"]
    candidates += [f"{name} ({club_name}) {number}" for number in range(2, 100)]
    for candidate in candidates:
        candidate = candidate[:80]
        if not Player.objects.filter(club=host, display_name__iexact=candidate).exists():
            return candidate
    raise Problem(code="unique", detail=_("No free name for the player at the host club."))


def _host_player(federation: Federation, host: Club, entrant: FederationEventEntrant, user):
    """The host club's player for ``entrant`` (module docstring), made and linked if need be."""
    source = entrant.player
    if source.club_id == host.pk:
        return source, entrant.federation_player_id
    link = PlayerLink.objects.current().filter(federation=federation, player=source).first()
    if link is not None:
        person_id = link.federation_player_id
    else:
        person = FederationPlayer.objects.create(
            federation=federation, display_name=source.display_name
        )
        audit(federation, FederationAuditKind.PLAYER_CREATED, user, federation_player=person.pk)
        store_link(federation, person, source, LinkHow.EVENT, user)
        person_id = person.pk
    at_host = (
        PlayerLink.objects.current()
        .filter(federation=federation, federation_player_id=person_id, player__club=host)
        .select_related("player")
        .order_by("pk")
        .first()
    )
    if at_host is not None:
        return at_host.player, person_id
    guest = club_services.add_player(
        club=host, display_name=_free_name(host, source.display_name, entrant.club.name)
    )
    store_link(federation, FederationPlayer.objects.get(pk=person_id), guest, LinkHow.EVENT, user)
    return guest, person_id


@transaction.atomic
def create_event_tournament(*, event: FederationEvent, user):
    """The host club's tournament with the selected entrants (seeded in order): ``created``."""
    federation, event = _locked_event(event)
    _refuse_created(event)
    if event.status != EventStatus.SELECTED:
        raise Problem(code="not_selected", detail=_("Select the entrants first."))
    host = event.host_club
    _check_host(federation, host)
    entrants = list(event.entrants.select_related("player", "club").order_by("seed"))
    items = []
    for entrant in entrants:
        host_player, person_id = _host_player(federation, host, entrant, user)
        entrant.host_player, entrant.federation_player_id = host_player, person_id
        entrant.save(update_fields=["host_player", "federation_player"])
        items.append({"player": host_player.pk, "seed": entrant.seed})
    values = {
        "name": event.name,
        "game": event.game,
        "format": event.format,
        "entrant_kind": EntrantKind.PLAYER,
        **event.settings,
    }
    tournament = tournament_services.create_tournament(
        club=host, user=user, values=values, entrants=items
    )
    event.status, event.tournament = EventStatus.CREATED, tournament
    event.save(update_fields=["status", "tournament"])
    audit(
        federation,
        FederationAuditKind.EVENT_TOURNAMENT_CREATED,
        user,
        event=event.pk,
        club=host.pk,
        tournament=tournament.pk,
        players=[item["player"] for item in items],
    )
    return tournament
