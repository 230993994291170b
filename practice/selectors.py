"""Reads of the practice table: a person's games, their record, one game they may open.

What it does: ``get_practice_game`` finds a game its owner may open (the account that plays it,
or the browser session of the anonymous trial) and raises Http404 for anyone else;
``list_practice_games`` and ``get_practice_record`` give a person's history (games, wins).

What it does not do: change anything (``services.py``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.db.models import Count, Q, QuerySet
from django.http import Http404

from practice.models import PracticeGame, PracticeStatus


@dataclass(frozen=True)
class PracticeRecord:
    games: int
    finished: int
    wins: int


def get_practice_game(*, game_id: int, user: Any, session_key: str | None) -> PracticeGame:
    game = PracticeGame.objects.filter(pk=game_id).select_related("club").first()
    if game is None or not _owns(game, user, session_key):
        raise Http404("No such practice game.")
    return game


def _owns(game: PracticeGame, user: Any, session_key: str | None) -> bool:
    if game.player_id is not None:
        return bool(user.is_authenticated and user.pk == game.player_id)
    return bool(session_key) and game.session_key == session_key


def list_practice_games(*, user: Any, limit: int = 10) -> QuerySet[PracticeGame]:
    return PracticeGame.objects.filter(player=user).select_related("club")[:limit]


def get_practice_record(*, user: Any) -> PracticeRecord:
    """Games played, finished and won (the person sits at ``human_seat``)."""
    from django.db.models import F

    counts = PracticeGame.objects.filter(player=user).aggregate(
        games=Count("id"),
        finished=Count("id", filter=Q(status=PracticeStatus.FINISHED)),
        wins=Count("id", filter=Q(status=PracticeStatus.FINISHED, winner=F("human_seat"))),
    )
    return PracticeRecord(counts["games"], counts["finished"], counts["wins"])


def session_trial_game(*, session_key: str | None) -> PracticeGame | None:
    """The anonymous trial's game of this browser session, if it started one."""
    if not session_key:
        return None
    return PracticeGame.objects.filter(player=None, session_key=session_key).first()
