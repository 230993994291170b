"""Who accepted a hand: the check behind a club's ``confirm_hands`` setting.

What it does: ``check_acceptance(game, user, …)`` says who entered a change of a hand (a new
hand, a correction, an undo) and who accepted it, or refuses:

- The *entering side* is the side of whoever enters the change: the user's own seat when they play
  in the game, and the player the tablet names as having entered it (``scored_by``). A tablet
  opened by a table link is nobody in particular (the link's organiser), so in a club with
  ``confirm_hands`` it must name that player: 400 ``confirmation_required`` at ``/scored_by``.
- In a club with ``confirm_hands`` every change needs an acceptance: a player of another side
  than the entering side's (``confirmed_by``; none: 400 ``confirmation_required`` at
  ``/confirmed_by``; not at the game, or of the entering side: 400 ``invalid_confirmation``) —
  the Bridgemate rule: the other side checks the score. Or the change is an organiser's own
  entry from the console (``organiser_entry``: the board's paper table): it stands as the
  acceptance and is recorded as theirs (``Acceptance.organiser``), never through a table link.
- Without ``confirm_hands`` an acceptance may still be given, under the same rules.

What it does not do: check the hand (the engine) or store anything (``games.services``).
"""

from __future__ import annotations

from dataclasses import dataclass

from django.utils.translation import gettext

from clubs.models import Player
from clubs.permissions import can_manage
from config.problems import Problem
from games.models import Game, GameSeat


@dataclass(frozen=True)
class Acceptance:
    """Who entered a change (``scorer``: the player the tablet named) and who accepted it: a
    player of another side, or the organiser whose own console entry stood as the acceptance."""

    player: Player | None = None
    organiser: object | None = None
    scorer: Player | None = None


def _seat_of(seats, player_id, pointer: str, game: Game):
    if type(player_id) is not int:
        raise Problem(
            code="invalid_confirmation",
            detail=gettext("Give a player id."),
            pointer=pointer,
        )
    seat = next((seat for seat in seats if seat.player_id == player_id), None)
    if seat is None:
        raise Problem(
            code="invalid_confirmation",
            detail=gettext("Player %(player)s does not sit at game %(game)s.")
            % {"player": player_id, "game": game.pk},
            pointer=pointer,
        )
    return seat


def check_acceptance(
    game: Game,
    user,
    confirmed_by=None,
    *,
    scored_by=None,
    organiser_entry: bool = False,
    through_link: bool = False,
) -> Acceptance:
    required = game.club.confirm_hands
    if organiser_entry:
        if through_link or not can_manage(user, game.club):
            raise Problem(
                code="permission_denied",
                detail=gettext("Only an organiser's own entry stands as the acceptance."),
            )
        return Acceptance(organiser=user if required else None)
    if confirmed_by is None and scored_by is None and not required:
        return Acceptance()
    seats = list(GameSeat.objects.filter(game=game).select_related("player"))
    scorer = _seat_of(seats, scored_by, "/scored_by", game) if scored_by is not None else None
    if required and confirmed_by is None:
        raise Problem(
            code="confirmation_required",
            detail=gettext(
                "This club's hands must be accepted by a player of another side: send "
                "confirmed_by (a player id)."
            ),
            pointer="/confirmed_by",
        )
    if required and through_link and scorer is None:
        raise Problem(
            code="confirmation_required",
            detail=gettext(
                "Say who entered the hand at the table (scored_by, a player id): a player of "
                "another side accepts it."
            ),
            pointer="/scored_by",
        )
    if confirmed_by is None:
        return Acceptance(scorer=scorer.player if scorer else None)
    confirming = _seat_of(seats, confirmed_by, "/confirmed_by", game)
    user_id = getattr(user, "pk", None)
    entering_sides = {seat.side for seat in seats if user_id and seat.player.user_id == user_id}
    if scorer is not None:
        entering_sides.add(scorer.side)
    if confirming.side in entering_sides:
        raise Problem(
            code="invalid_confirmation",
            detail=gettext(
                "%(name)s plays on the side of the person entering the hand: a player of "
                "another side must accept it."
            )
            % {"name": confirming.player.display_name},
            pointer="/confirmed_by",
        )
    return Acceptance(player=confirming.player, scorer=scorer.player if scorer else None)
