"""The door of one event or one club night, as the door's pages see it: which service each step
calls.

What it does: ``DoorPlace`` holds a tournament or a night (exactly one) and says, for either,
how a player is checked in (``tournaments.door.check_in_player`` /
``settlements.attendance.check_in_night_player``, ``at`` ``door`` or ``phone``), how the door's
search answers (``search_players`` / ``search_night_players``), whether a player is here, who may
be picked on a phone (a pairs event: the players of the pairs entered), how many are here, and
how its door code is made. The organiser's tablet (``web.console.door_views.Door``, which adds
its URLs) and the players' phones (``web.door.views``) both use it, so the two doors are one
code path.

What it does not do: decide anything (the services do), check who may call it, or render.
"""

from __future__ import annotations

from clubs.models import Player
from settlements import attendance
from settlements.models import NightStatus
from tournaments import door
from tournaments.models import EntrantKind, TournamentStatus


class DoorPlace:
    """A tournament's door or a night's (``tournament`` or ``night``, the other None)."""

    def __init__(self, club, *, tournament=None, night=None) -> None:
        if (tournament is None) == (night is None):
            raise ValueError("a door is a tournament's or a night's")
        self.club, self.tournament, self.night = club, tournament, night

    @classmethod
    def of_code(cls, code) -> DoorPlace:
        """The door a live door code opens (its event or night loaded with its club)."""
        event = code.tournament or code.night
        return cls(event.club, tournament=code.tournament, night=code.night)

    @property
    def event(self):
        return self.tournament or self.night

    @property
    def scope(self) -> dict:
        """The services' keyword: ``tournament_id`` or ``night_id``."""
        if self.tournament is not None:
            return {"tournament_id": self.tournament.pk}
        return {"night_id": self.night.pk}

    @property
    def closed(self) -> bool:
        if self.tournament is not None:
            return self.tournament.status == TournamentStatus.CLOSED
        return self.night.status == NightStatus.CLOSED

    def check_in(self, player_id, user, at: str = door.AT_DOOR):
        if self.tournament is not None:
            return door.check_in_player(
                tournament_id=self.tournament.pk, player_id=player_id, user=user, at=at
            )
        return attendance.check_in_night_player(
            night_id=self.night.pk, player_id=player_id, user=user, at=at
        )

    def search(self, query: str) -> list[dict]:
        if self.tournament is not None:
            return door.search_players(self.tournament, query)
        return attendance.search_night_players(self.night, query)

    def is_present(self, player: Player | None) -> bool:
        if player is None:
            return False
        if self.tournament is not None:
            entrant = door.entrant_of(self.tournament, player.pk)
            return bool(entrant and entrant.is_present)
        return attendance.is_checked_in(self.night, player.pk)

    def pickable(self):
        """The players a phone may pick: the club's active ones (a pairs event: its pairs')."""
        players = Player.objects.filter(club_id=self.club.pk, is_active=True)
        if self.tournament is not None and self.tournament.entrant_kind == EntrantKind.TEAM:
            players = players.filter(
                team_memberships__team__tournament_entries__tournament=self.tournament
            )
        return players

    def present_count(self) -> int:
        if self.tournament is not None:
            return self.tournament.entrants.filter(is_present=True).count()
        return self.night.attendance.count()

    def make_code(self, user) -> None:
        if self.tournament is not None:
            door.create_door_code(tournament_id=self.tournament.pk, user=user)
        else:
            attendance.create_night_door_code(night_id=self.night.pk, user=user)
