"""Who accepted a hand: the check behind a club's ``confirm_hands`` setting.

What it does: ``check_confirmation(game, user, confirmed_by)`` returns the player who accepted the
hand (or None). In a club with ``confirm_hands`` a hand needs one: 400 ``confirmation_required``.
The player must sit at the game (400 ``invalid_confirmation``) and, when the user entering the
hand plays in it too, sit on another side — the Bridgemate rule: the other side checks the score.

What it does not do: check the hand (the engine) or store anything (``games.services``).
"""

from __future__ import annotations

from django.utils.translation import gettext

from clubs.models import Player
from config.problems import Problem
from games.models import Game, GameSeat


def check_confirmation(game: Game, user, confirmed_by) -> Player | None:
    if confirmed_by is None:
        if game.club.confirm_hands:
            raise Problem(
                status=400,
                code="confirmation_required",
                detail=gettext(
                    "This club's hands must be accepted by a player of another side: send "
                    "confirmed_by (a player id)."
                ),
                pointer="/confirmed_by",
            )
        return None
    if type(confirmed_by) is not int:
        raise Problem(
            status=400,
            code="invalid_confirmation",
            detail=gettext("confirmed_by is a player id."),
            pointer="/confirmed_by",
        )
    seats = list(GameSeat.objects.filter(game=game).select_related("player"))
    confirming = next((seat for seat in seats if seat.player_id == confirmed_by), None)
    if confirming is None:
        raise Problem(
            status=400,
            code="invalid_confirmation",
            detail=gettext("Player %(player)s does not sit at game %(game)s.")
            % {"player": confirmed_by, "game": game.pk},
            pointer="/confirmed_by",
        )
    user_id = getattr(user, "pk", None)
    entering_sides = {seat.side for seat in seats if user_id and seat.player.user_id == user_id}
    if confirming.side in entering_sides:
        raise Problem(
            status=400,
            code="invalid_confirmation",
            detail=gettext(
                "%(name)s plays on the side of the person entering the hand: a player of "
                "another side must accept it."
            ) % {"name": confirming.player.display_name},
            pointer="/confirmed_by",
        )
    return confirming.player
