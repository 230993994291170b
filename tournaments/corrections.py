"""Corrections of tournament games: when a changed result may stand; resetting what depends on it.

What it does: ``make_way_for_correction`` is what ``games`` asks (through the check
``tournaments.game_hooks.check_match_allows_result_change``, listed in ``JINK_GAME_CHANGE_CHECKS``),
inside its own transaction and before it saves a correction (or an undo) that changes a finished
tournament game's result (its winner, or only its points: then only the closed rule applies). It
works out whether the change would alter the decision of a decided match (its placings); if so and
a *dependent* match has begun, the change is refused with 409 ``match_locked`` — unless the
organiser asked for ``reset_dependents``, in which case every dependent match is reset, and the
reset is written to the audit trail (``AuditEntry``, plus the simple-history records of the
deleted ``Match`` and ``Round`` rows). A tournament that was closed takes a change from an
organiser only (anyone else: 409 ``tournament_closed``), under the same dependent-match policy;
the match and the standings then follow (``services.progress_match``) and the settle-up stores a
version of differences (``settlements.subscribers``).

What it does not do: store the corrected game (``games`` does) or redraw anything: the match's
progress task, queued after the commit by the subscriber of the game's change
(``tournaments.game_hooks``), recomputes the match and refills the tournament from the corrected
results.

Locks: ``make_way_for_correction`` locks the tournament row itself (``progress.lock_tournament``,
inside the transaction of ``games``' correction); ``reset_matches`` expects it held.

Terms:
- *dependent match*: a match whose entrants or draw came from this match's result; the format's
  policy says which (``FormatPolicy.dependents_of``). In a knockout, a match of a later round
  sharing an entrant with this match, and in turn its own dependents; in a swiss or a drive,
  every match of a later round (each draw used the standings); in a round robin, none (the
  schedule never depends on results).
- *reset*: a dependent match is deleted; its games that have hands are kept as ordinary club games
  (their ``MatchGame`` link is deleted; their stakes stay booked — they were played), games
  without a hand are deleted. Later rounds left empty are deleted too.
"""

from __future__ import annotations

from django.utils.translation import gettext

from config.problems import Problem
from games.models import Game
from tournaments import bridge, progress
from tournaments.formats import policy_for
from tournaments.models import (
    AuditEntry,
    AuditKind,
    Match,
    MatchGame,
    MatchStatus,
    TournamentStatus,
)
from tournaments.play import load_match
from tournaments.rounds import delete_unplayed_games, is_begun, set_tournament_status


class _GameView:
    """A game as it would be after the correction (only what ``play.read_match`` reads)."""

    def __init__(self, game: Game, new_winner_side: int | None) -> None:
        self._game = game
        self.pk = game.pk
        self.status = "finished" if new_winner_side is not None else "in_progress"
        self.winner_side = new_winner_side
        self.totals = game.totals
        self.seats = game.seats
        self.hands = game.hands


class _MatchView:
    """A match whose games are read with one game replaced by its corrected view."""

    def __init__(self, match: Match, replaced: _GameView) -> None:
        self._match = match
        self._replaced = replaced
        self.pk = match.pk
        self.slots = match.slots

    @property
    def games(self):
        replaced = self._replaced
        games = [replaced if game.pk == replaced.pk else game for game in self._match.games.all()]
        return _Listing(games)


class _Listing:
    def __init__(self, items) -> None:
        self._items = items

    def all(self):
        return self._items


def dependent_matches(match: Match) -> list[Match]:
    """The matches that depend on ``match`` (see the module docstring), latest round first."""
    return policy_for(match.tournament).dependents_of(match)


def reset_matches(tournament, matches: list[Match], *, user, cause: Match, game_id: int) -> dict:
    """Delete ``matches`` (see *reset*), audit it, and return what was done."""
    detached, deleted_games = [], []
    for dependent in matches:
        deleted_games.extend(delete_unplayed_games(dependent))
        links = MatchGame.objects.filter(match=dependent).order_by("game_id")
        played = list(links.values_list("game_id", flat=True))
        links.delete()
        detached.extend(played)
    details = {
        "cause_match": cause.pk,
        "cause_game": game_id,
        "reset_matches": [
            {"id": dependent.pk, "round": dependent.round.number, "table": dependent.table}
            for dependent in matches
        ],
        "detached_games": detached,
        "deleted_games": deleted_games,
    }
    AuditEntry.objects.create(
        tournament=tournament,
        kind=AuditKind.DEPENDENTS_RESET,
        user=user if getattr(user, "is_authenticated", False) else None,
        match=cause,
        details=details,
    )
    emptied_rounds = set()
    for dependent in matches:
        dependent._history_user = user
        dependent._change_reason = f"reset after a correction of match {cause.pk}"
        emptied_rounds.add(dependent.round_id)
        dependent.delete()
    for round_ in tournament.rounds.filter(pk__in=emptied_rounds):
        if not round_.matches.exists():
            round_._history_user = user
            round_.delete()
    if tournament.status == TournamentStatus.FINISHED:
        set_tournament_status(tournament, TournamentStatus.IN_PROGRESS)
    return details


def make_way_for_correction(
    *,
    game_id: int,
    match_id: int,
    tournament_id: int,
    new_winner_side: int | None,
    reset_dependents: bool = False,
    user=None,
    winner_changes: bool = True,
) -> dict | None:
    """Make way for a change of the winner of game ``game_id``, played for match ``match_id`` of
    tournament ``tournament_id``: allow it, refuse it (409 ``match_locked``), or reset the
    matches that depend on it (``reset_dependents``) so that it can stand.

    ``new_winner_side`` is the winner after the change, None when the game would no longer be
    finished; ``winner_changes`` False when only the game's points change (then only the
    closed tournament's rule applies). Returns None when nothing depends on the change, else the
    audit details of the reset.
    """
    tournament = progress.lock_tournament(tournament_id)
    from clubs.permissions import can_manage

    if tournament.status == TournamentStatus.CLOSED and (
        user is None or not can_manage(user, tournament.club)
    ):
        raise Problem(
            code="tournament_closed",
            detail=gettext(
                "The event is closed: only an organiser can still correct it, from the console."
            ),
        )
    if not winner_changes:
        return None
    match = load_match(match_id)
    if match is None or match.status != MatchStatus.DECIDED:
        return None
    match.tournament = tournament
    stored_game = next((each for each in match.games.all() if each.pk == game_id), None)
    if stored_game is None:
        return None
    view = _MatchView(match, _GameView(stored_game, new_winner_side))
    after = progress.read_match(view, tournament).result
    before = bridge.stored_result(match)
    if after is not None and before is not None and after.placings == before.placings:
        return None
    dependents = dependent_matches(match)
    begun = [dependent for dependent in dependents if is_begun(dependent)]
    if not begun:
        return None  # the progress task redraws what depends on it
    if not reset_dependents:
        listing = ", ".join(f"round {m.round.number} table {m.table}" for m in reversed(begun))
        raise Problem(
            code="match_locked",
            detail=gettext(
                "This change would alter the result of round %(round)s table %(table)s, and "
                "play has begun in the matches that depend on it (%(listing)s). An organiser "
                "may repeat the request with ?reset_dependents=true to reset them."
            )
            % {"round": match.round.number, "table": match.table, "listing": listing},
        )
    if user is None or not can_manage(user, tournament.club):
        raise Problem(
            code="permission_denied",
            detail=gettext(
                "Only an organiser of the club may reset the matches that depend on a result."
            ),
        )
    return reset_matches(tournament, dependents, user=user, cause=match, game_id=game_id)
