"""Check-in at a club night's door: who is here tonight, by the door's tablet or their own phone.

What it does:
- ``check_in_night_player``: the player is here — one ``NightAttendance`` row (``at`` ``door``
  or ``phone``, when, by whom). Idempotent: the same player twice, two phones at once, a double
  tap or a retry wait on the night's row lock and find the row the first made; the unique
  constraint on (night, player) backs it. Returns ``NightCheckedIn`` (``was_present``: nothing
  changed). Refused: no such night (404 ``not_found``), a closed night (409 ``night_closed``),
  a player not of the club or inactive (400 ``unknown_player`` at ``/player``:
  ``tournaments.door.active_club_player``, the door's one check). The row is the
  check-in's record (who and when), as a night's other changes are: nights have no audit trail.
- ``search_night_players``: the club's active players a door search shows (two letters or
  more, ``tournaments.door.rank_by_name``), each with whether they are here already.
- ``list_attendance``, ``present_names``, ``is_checked_in``: reads of who is here.
- The night's door code (``tournaments.door_models.DoorCode.night``): ``create_night_door_code``
  makes the night's live code under the night's lock (``tournaments.door.store_door_code``, the
  one way a code is made; 409 ``night_closed`` once closed); ``tournaments.door``'s
  ``revoke_door_codes``, ``live_door_code`` and ``get_live_door_code`` serve a night as they
  serve an event (a code dies when its night closes).

What it does not do: take the entry fee (``settlements.services.mark_entry_fee``), add a club
player (``clubs.services.add_player``), decide who may call it (the pages: organisers at the
door, a live door code on a phone) or count guesses (``web``).

Terms: *at* — ``door`` (the organiser's tablet) or ``phone`` (the player's own, with the door
code): ``settlements.models.CheckInAt``.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext

from clubs.models import Player
from config.problems import Problem
from settlements.models import CheckInAt, Night, NightAttendance, NightStatus
from tournaments import door


@dataclass(frozen=True)
class NightCheckedIn:
    player: Player
    attendance: NightAttendance
    was_present: bool  # already checked in: nothing changed
    was_entered: bool = True  # a night enters nobody: every club player may play


def _lock_open_night(night_id: int) -> Night:
    night = Night.objects.select_for_update().filter(pk=night_id).first()
    if night is None:
        raise Problem(code="not_found", detail=gettext("No night %(night)s.") % {"night": night_id})
    if night.status == NightStatus.CLOSED:
        raise Problem(
            code="night_closed",
            detail=gettext("%(name)s is closed: nobody checks in any more.") % {"name": night.name},
        )
    return night


def check_in_night_player(
    *, night_id: int, player_id, user, at: str = CheckInAt.DOOR
) -> NightCheckedIn:
    """Check one club player in at the night (see the module's docstring)."""
    with transaction.atomic():
        night = _lock_open_night(night_id)
        player = door.active_club_player(night.club_id, player_id)
        attendance, made = NightAttendance.objects.get_or_create(
            night=night,
            player=player,
            defaults={
                "at": CheckInAt(at),
                "checked_in_at": timezone.now(),
                "by": user if getattr(user, "is_authenticated", False) else None,
            },
        )
    return NightCheckedIn(player=player, attendance=attendance, was_present=not made)


def is_checked_in(night: Night, player_id: int) -> bool:
    return NightAttendance.objects.filter(night=night, player_id=player_id).exists()


def search_night_players(night: Night, query: str) -> list[dict]:
    """The club's active players matching ``query``: ``{"player", "entrant_id", "is_present"}``
    (two queries; none under two letters). ``entrant_id`` is always None: a night enters nobody
    (the door's rows are an event's shape)."""
    rows = rank_by_club(night, query)
    if not rows:
        return []
    here = set(
        NightAttendance.objects.filter(night=night, player__in=rows).values_list(
            "player_id", flat=True
        )
    )
    return [
        {"player": player, "entrant_id": None, "is_present": player.pk in here} for player in rows
    ]


def rank_by_club(night: Night, query: str) -> list[Player]:
    players = Player.objects.filter(club_id=night.club_id, is_active=True)
    return door.rank_by_name(players, query)


def list_attendance(night: Night):
    """Who is here, in the order they came, with their players (one query)."""
    return NightAttendance.objects.filter(night=night).select_related("player", "by")


def present_names(night: Night) -> list[str]:
    """The names of the players checked in, alphabetical (one query)."""
    names = NightAttendance.objects.filter(night=night).values_list(
        "player__display_name", flat=True
    )
    return sorted(names, key=str.casefold)


def create_night_door_code(*, night_id: int, user):
    """Make the night's live door code, revoking its others: ``(code, token)``; 409
    ``night_closed`` once the night is closed."""
    with transaction.atomic():
        night = _lock_open_night(night_id)
        return door.store_door_code(user=user, night=night)
