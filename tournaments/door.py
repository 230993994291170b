"""Check-in at the door: one player at a time, by the door's tablet or by the player's own phone.

What it does:
- ``check_in_player``: the player is here — their entrant (their own entry, or in a pairs event
  the pair they play in) is marked present; a club player not yet entered is entered and present
  at once, where the event still takes entrants. Idempotent: the same player twice, two phones at
  once, a double tap or a retry under the tournament row's lock (``progress.lock_tournament``)
  find the entrant the first made, and the unique constraint on (tournament, player) backs it.
  Returns ``CheckedIn`` (what changed: nothing, present, or entered and present). Keeps an audit
  entry (``check_in``, with ``at``: ``door`` or ``phone``) and moves the tournament's version
  only when something changed.
- ``entrant_of``: a player's entrant (their own, or their pair's), read.
- ``search_players``: the players a door search shows (two letters or more), each with their
  entrant and whether they are here already; ``rank_by_name`` is the search itself (a club
  night's door uses it too, ``settlements.attendance``).
- The door code, of an event or a club night (``DoorCode.night``): ``create_door_code`` makes
  the event's live code (revoking any other: one live code an event) with a life of
  ``DOOR_CODE_HOURS`` — ``store_door_code`` is the making itself, under the caller's lock, which
  a night's door uses (``settlements.attendance.create_night_door_code``); ``revoke_door_codes``
  ends them; ``reveal_door_code`` derives a code's token again (the console shows the QR code);
  ``get_live_door_code`` finds the live code of a token (None for an unknown, revoked or expired
  one, or once its event or night closed).

What it does not do: take the entry fee (``settlements.services.mark_entry_fee``), add a club
player (``clubs.services.add_player``), decide who may call it (the pages do: organisers at the
door, a live door code on a phone), or count guesses (``web``).

Terms: *door code* — ``tournaments.door_models.DoorCode`` (a tournament's or a night's); *at* —
where the check-in was made: ``door`` (the organiser's tablet) or ``phone`` (the player's own, with
the door code).
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import secrets
from dataclasses import dataclass
from datetime import timedelta

from django.conf import settings
from django.db import transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext

from clubs.models import Player
from config.problems import Problem
from tournaments import progress
from tournaments.door_models import DoorCode
from tournaments.models import AuditEntry, AuditKind, Entrant, EntrantKind, TournamentStatus
from tournaments.services import bump_version, register_entrants, user_or_none

DOOR_CODE_HOURS = 12
SEARCH_LIMIT = 12
SEARCH_MIN_LETTERS = 2
AT_DOOR, AT_PHONE = "door", "phone"
CLOSED = "closed"  # a closed tournament's status, and a closed night's


@dataclass(frozen=True)
class CheckedIn:
    player: Player
    entrant: Entrant
    was_present: bool  # already checked in: nothing changed
    was_entered: bool  # entered before (else entered now)


def entrant_of(tournament, player_id: int) -> Entrant | None:
    """The player's entrant: their own entry, or in a pairs event their pair's (None: neither)."""
    if tournament.entrant_kind == EntrantKind.TEAM:
        return (
            tournament.entrants.filter(team__team_members__player_id=player_id)
            .select_related("team")
            .first()
        )
    return tournament.entrants.filter(player_id=player_id).first()


def active_club_player(club_id: int, player_id) -> Player:
    """The club's active player ``player_id`` (a whole number), who checks in at its door; else
    400 ``unknown_player`` at ``/player``. An event's door and a night's both ask it."""
    player = None
    if isinstance(player_id, int) and not isinstance(player_id, bool):
        player = Player.objects.filter(pk=player_id, club_id=club_id, is_active=True).first()
    if player is None:
        raise Problem(
            code="unknown_player",
            pointer="/player",
            detail=gettext("No active player %(player)s in this club.") % {"player": player_id},
        )
    return player


def check_in_player(*, tournament_id: int, player_id, user, at: str = AT_DOOR) -> CheckedIn:
    """Check one club player in (entering them first where needed): see the module's docstring.

    Refused: a closed event (409 ``tournament_closed``), a player not of the club or inactive
    (400 ``unknown_player`` at ``/player``), in a pairs event a player in no pair entered (400
    ``not_entered`` at ``/player``), an event that takes no more entrants (409
    ``tournament_started``)."""
    with transaction.atomic():
        tournament = progress.lock_tournament(tournament_id)
        if tournament.status == TournamentStatus.CLOSED:
            raise Problem(code="tournament_closed", detail=gettext("The tournament is closed."))
        player = active_club_player(tournament.club_id, player_id)
        entrant = entrant_of(tournament, player.pk)
        was_entered, was_present = entrant is not None, bool(entrant and entrant.is_present)
        if entrant is None:
            if tournament.entrant_kind == EntrantKind.TEAM:
                raise Problem(
                    code="not_entered",
                    pointer="/player",
                    detail=gettext(
                        "%(name)s is in no pair entered here: enter the pair on the event page."
                    )
                    % {"name": player.display_name},
                )
            (entrant,) = register_entrants(
                tournament_id=tournament.pk, user=user, entrants=[{"player": player.pk}]
            )
        elif not entrant.is_present:
            entrant.is_present = True
            entrant.save(update_fields=["is_present"])
        if not was_present:
            AuditEntry.objects.create(
                tournament=tournament,
                kind=AuditKind.CHECK_IN,
                user=user_or_none(user),
                details={"present": [entrant.pk], "absent": [], "at": at},
            )
            bump_version(tournament, [])
    return CheckedIn(
        player=player, entrant=entrant, was_present=was_present, was_entered=was_entered
    )


def rank_by_name(players, query: str) -> list[Player]:
    """Of the players queryset ``players``, those whose name holds ``query`` (at least two
    letters; none else), the names starting with it first, then those with a word starting with
    it, at most ``SEARCH_LIMIT`` (one query). The door's one search, for an event and a night."""
    query = query.strip()
    if len(query) < SEARCH_MIN_LETTERS:
        return []
    rows = list(
        players.filter(display_name__icontains=query)
        .distinct()
        .order_by("display_name", "pk")[: SEARCH_LIMIT * 4]
    )
    lowered = query.lower()

    def rank(player) -> int:
        name = player.display_name.lower()
        if name.startswith(lowered):
            return 0
        return 1 if any(word.startswith(lowered) for word in name.split()) else 2

    rows.sort(key=rank)
    return rows[:SEARCH_LIMIT]


def search_players(tournament, query: str) -> list[dict]:
    """The club's active players ``rank_by_name`` finds for ``query``:
    ``{"player", "entrant_id", "is_present"}`` (two queries; none under two letters). In a
    pairs event only the players of the pairs entered."""
    players = Player.objects.filter(club_id=tournament.club_id, is_active=True)
    if tournament.entrant_kind == EntrantKind.TEAM:
        players = players.filter(team_memberships__team__tournament_entries__tournament=tournament)
    rows = rank_by_name(players, query)
    if not rows:
        return []
    entries = Entrant.objects.filter(tournament=tournament).filter(
        Q(player__in=rows) | Q(team__team_members__player__in=rows)
    )
    by_player: dict[int, Entrant] = {}
    for entrant in entries.values("pk", "player_id", "team__team_members__player_id", "is_present"):
        for key in (entrant["player_id"], entrant["team__team_members__player_id"]):
            if key is not None:
                by_player[key] = entrant
    return [
        {
            "player": player,
            "entrant_id": by_player[player.pk]["pk"] if player.pk in by_player else None,
            "is_present": bool(by_player.get(player.pk, {}).get("is_present")),
        }
        for player in rows
    ]


# ---------------------------------------------------------------------------------------------
# The door code


def _derive_token(salt: str) -> str:
    key = settings.SECRET_KEY.encode()
    mac = hmac.new(key, f"jink-door-token:{salt}".encode(), hashlib.sha256).digest()
    return base64.urlsafe_b64encode(mac).rstrip(b"=").decode()


def _digest(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def reveal_door_code(code: DoorCode) -> str:
    """The token of ``code`` (its QR code's URL carries it)."""
    return _derive_token(code.salt)


def store_door_code(*, user, hours: int = DOOR_CODE_HOURS, **event) -> tuple[DoorCode, str]:
    """Make the live door code of ``event`` (``tournament=`` or ``night=``, the row its caller
    holds locked and has found open), revoking its others: ``(code, token)``."""
    now = timezone.now()
    DoorCode.objects.filter(revoked_at__isnull=True, **event).update(revoked_at=now)
    salt = secrets.token_hex(16)
    token = _derive_token(salt)
    code = DoorCode.objects.create(
        token_hash=_digest(token),
        salt=salt,
        expires_at=now + timedelta(hours=hours),
        created_by=user_or_none(user),
        **event,
    )
    return code, token


def create_door_code(*, tournament_id: int, user, hours: int = DOOR_CODE_HOURS):
    """Make the event's live door code, revoking the others: ``(code, token)``. Refused for a
    closed event (409 ``tournament_closed``). A night's: ``settlements.attendance``."""
    with transaction.atomic():
        tournament = progress.lock_tournament(tournament_id)
        if tournament.status == TournamentStatus.CLOSED:
            raise Problem(code="tournament_closed", detail=gettext("The tournament is closed."))
        return store_door_code(user=user, hours=hours, tournament=tournament)


def revoke_door_codes(*, user, tournament_id: int | None = None, night_id: int | None = None):
    """End every live door code of the event or the night (phones holding one can no longer
    check in): how many."""
    event = {"tournament_id": tournament_id} if tournament_id else {"night_id": night_id}
    return DoorCode.objects.filter(revoked_at__isnull=True, **event).update(
        revoked_at=timezone.now()
    )


def live_door_code(event) -> DoorCode | None:
    """The live door code of ``event`` (a tournament or a night: both say ``closed``), or None."""
    if event.status == CLOSED:
        return None
    return event.door_codes.filter(revoked_at__isnull=True, expires_at__gt=timezone.now()).first()


def get_live_door_code(token: str) -> DoorCode | None:
    """The live door code of ``token`` with its event (tournament or night) and club (one
    query), or None."""
    if not token or len(token) > 64:
        return None
    return (
        DoorCode.objects.select_related("tournament__club", "night__club")
        .filter(
            token_hash=_digest(token),
            revoked_at__isnull=True,
            expires_at__gt=timezone.now(),
        )
        .exclude(tournament__status=CLOSED)
        .exclude(night__status=CLOSED)
        .first()
    )
