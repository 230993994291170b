"""Stored rounds and matches: the writes every format's policy shares.

What it does:
- ``start_tournament(tournament)`` opens round 1: refuses a tournament with nobody (checked in)
  to draw, fixes the draw order and puts the tournament in progress.
- ``write_round_statuses(user, rounds)`` is the one writer of round statuses: each round given
  is saved complete (with its completion time) or in progress when that moves.
  ``update_round_status`` works out one round's status from its matches and writes it through it;
  a knockout's policy works out its own (every table of the bracket's round stored and decided).
- ``set_tournament_status`` moves the tournament between in progress and finished (its version
  grows with it).
- ``is_begun(match)``, ``delete_unplayed_games(match)``: what a redraw, a reset or a swap asks of
  a match before it replaces or removes it.

What it does not do: decide anything by format (``tournaments.formats``), start games
(``tournaments.play.start_matches``) or read the games' results (``play.read_match``).

Locks: every function here expects the caller to hold the tournament row's lock
(``progress.lock_tournament``) inside a transaction; ``delete_unplayed_games`` also locks the game
rows it deletes, so that a hand being recorded at one of them waits and then finds it gone.

Terms: *begun* — a match with a finished game or a game with at least one hand recorded;
*unplayed game* — a game in progress with no hand yet, which may be deleted freely.
"""

from __future__ import annotations

from collections.abc import Iterable

from django.db.models import BooleanField, Case, Exists, OuterRef, Q, Value, When
from django.utils import timezone
from django.utils.translation import gettext

from config.problems import Problem
from games.models import Game, GameStatus
from tournaments import bridge
from tournaments.models import Match, MatchStatus, Round, RoundStatus, Tournament, TournamentStatus


def is_begun(match: Match) -> bool:
    if match.status == MatchStatus.DECIDED and not match.is_bye:
        return True
    return Game.objects.filter(
        Q(status=GameStatus.FINISHED) | Q(hands_played__gt=0), match_link__match=match
    ).exists()


def delete_unplayed_games(match: Match) -> list[int]:
    """Delete the match's games in progress without a hand; returns their ids."""
    unplayed = list(
        Game.objects.select_for_update()
        .filter(match_link__match=match, status=GameStatus.IN_PROGRESS, hands_played=0)
        .values_list("pk", flat=True)
    )
    if unplayed:
        Game.objects.filter(pk__in=unplayed).delete()
    return unplayed


def start_tournament(tournament: Tournament) -> None:
    """Round 1 is being drawn: refuse (400 ``too_few_entrants``) when nobody is registered or
    checked in, else fix the draw order and put the tournament in progress."""
    entrants = list(tournament.entrants.select_related("team").all())
    if not entrants:
        raise Problem(
            code="too_few_entrants",
            detail=gettext("The tournament has no entrants yet; register them before drawing."),
            pointer="",
        )
    # Only those checked in are drawn; the absent may join a later round (swiss, round robin).
    entrants = [entrant for entrant in entrants if entrant.is_present]
    if not entrants:
        raise Problem(
            code="too_few_entrants",
            detail=gettext("Nobody is checked in; tick who is here before drawing."),
            pointer="",
        )
    tournament.draw_order = bridge.planned_draw_order(tournament, entrants)
    tournament.status = TournamentStatus.IN_PROGRESS
    tournament.version += 1
    tournament.save(update_fields=["draw_order", "status", "version", "updated_at"])


def set_tournament_status(tournament: Tournament, status: str) -> bool:
    """Save the tournament in ``status`` (in progress or finished); True when that moved it."""
    if tournament.status == status:
        return False
    tournament.status = status
    tournament.version += 1
    tournament.save(update_fields=["status", "version", "updated_at"])
    return True


def write_round_statuses(user, rounds: Iterable[tuple[Round, bool]]) -> None:
    """The one writer of round statuses: each ``(round, complete)`` given is saved complete
    (now) or in progress when its status moves; the others are left alone."""
    for round_, complete in rounds:
        status = RoundStatus.COMPLETE if complete else RoundStatus.IN_PROGRESS
        if round_.status != status:
            round_.status = status
            round_.completed_at = timezone.now() if complete else None
            round_._history_user = user
            round_.save(update_fields=["status", "completed_at"])


def update_round_status(tournament: Tournament, user, number: int) -> list[Round]:
    """Mark round ``number`` complete (no undecided match) or in progress; returns every round
    of the tournament in order.

    Only that round is looked at — the round of the match that changed, or the round just
    drawn: nothing else can have moved — and its matches are not loaded, only asked
    whether one is undecided, in the one query that reads the rounds. So the hand that decides
    a match costs the same in round 12 as in round 1 (bench/bench_jobs.py)."""
    open_matches = Match.objects.filter(round=OuterRef("pk")).exclude(status=MatchStatus.DECIDED)
    rounds = list(
        Round.objects.filter(tournament=tournament)
        .annotate(
            undecided=Case(
                When(number=number, then=Exists(open_matches)),
                default=Value(None),
                output_field=BooleanField(null=True),
            )
        )
        .order_by("number")
    )
    write_round_statuses(
        user, ((round_, not round_.undecided) for round_ in rounds if round_.undecided is not None)
    )
    return rounds
