"""Drawing rounds and advancing tournaments as their games finish: the steps around the policies.

What it does:
- ``draw_round(tournament, user)`` draws the next round with the policy of the tournament's
  format (``tournaments.formats``), which stores it, and starts its matches (their first games
  are created). Round 1 also fixes the draw order and puts the tournament in progress.
- ``advance_match(tournament, match_id, user)`` — what ``services.progress_match`` (and so
  ``tasks.match_progress_task``) runs — recomputes one match from its games, stores the result
  (``refresh_match``), starts the match's next game when it is undecided, lets the policy advance
  the tournament (a knockout fills every table whose entrants are now known; the other formats
  close a round when its last match is decided and, with ``auto_advance``, draw the next one; the
  tournament is finished after its last round or final), starts what the policy stored, and
  announces what was stored (``snapshots.note_standings_moved``). It returns a ``MatchProgress``
  saying what it did.
- A result that changed after later tables were drawn is repaired by the policy when nothing at
  those tables has begun: their entrants are replaced (knockout) or the later rounds are drawn
  again (swiss, drive). When play has begun there, ``corrections.make_way_for_correction`` has
  already refused the change or reset those matches.
- ``read_match`` is ``play.read_match`` with the placings the format stores (a knockout or a
  drive splits the ties at a table it cuts).

What it does not do: check permissions or request shapes (the API layer), decide by format (the
policies), or decide matches or draws (``tournaments.draw``).

Locks: ``lock_tournament`` and ``lock_tournament_of_match`` take the tournament row's lock (the
services call them first, inside their transaction); every other function here expects the
caller to hold it.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.utils import timezone
from django.utils.translation import gettext

from config.problems import Problem
from tournaments import bridge, play, rounds, snapshots
from tournaments.changes import TournamentChangeKind
from tournaments.formats import policy_for
from tournaments.models import Match, MatchStatus, Round, Tournament, TournamentStatus


def lock_tournament(tournament_id: int) -> Tournament:
    """The tournament row, locked until the end of the transaction (404 problem if none)."""
    tournament = (
        Tournament.objects.select_for_update(of=("self",))
        .select_related("club")
        .filter(pk=tournament_id)
        .first()
    )
    if tournament is None:
        raise Problem(
            code="not_found",
            detail=gettext("No tournament %(tournament)s.") % {"tournament": tournament_id},
        )
    return tournament


def lock_tournament_of_match(match_id: int) -> Tournament | None:
    """The tournament of match ``match_id``, found and locked in one query (the match row is not
    locked); None when there is no such match."""
    return (
        Tournament.objects.select_for_update(of=("self",))
        .select_related("club")
        .filter(matches__pk=match_id)
        .first()
    )


def draw_round(tournament: Tournament, user) -> Round:
    """Draw and store the next round with the format's policy and start its matches; raises
    ``DrawError`` (or a ``Problem``) when it cannot be drawn now."""
    drawn = policy_for(tournament).draw_next_round(tournament, user)
    play.start_matches(drawn.matches, tournament, user)
    return drawn.round


# ---------------------------------------------------------------------------------------------
# Advancing


@dataclass(frozen=True)
class MatchRefresh:
    """What ``refresh_match`` stored: whether the match's placings changed (it got, lost or
    changed its decision), and whether it stored anything at all (its result, status or an
    entrant's figures)."""

    placings_changed: bool = False
    stored: bool = False


@dataclass(frozen=True)
class MatchProgress:
    """What progressing a match did: ``outcome`` is the match's status afterwards, or
    ``missing`` (no such match) or ``closed`` (its tournament is closed: only the match and the
    standings followed); ``placings_changed``: the match was decided (or undecided, or its
    placings changed); ``round_drawn``: the number of the round drawn; ``stored``: anything the
    standings read was stored."""

    match_id: int
    outcome: str
    placings_changed: bool = False
    round_drawn: int | None = None
    stored: bool = False
    tournament_status: str | None = None

    def summary(self) -> dict:
        """The task's answer (JSON)."""
        if self.outcome == "missing":
            return {"match": self.match_id, "outcome": "missing"}
        if self.outcome == "closed":
            return {"match": self.match_id, "outcome": "closed", "changed": self.placings_changed}
        return {
            "match": self.match_id,
            "outcome": self.outcome,
            "changed": self.placings_changed,
            "tournament_status": self.tournament_status,
        }


def read_match(match: Match, tournament: Tournament) -> play.MatchReading:
    """``play.read_match`` with its result placed as the format stores a table
    (``FormatPolicy.rank_table``)."""
    reading = play.read_match(match, tournament)
    if reading.result is not None:
        reading.result = policy_for(tournament).rank_table(tournament, reading.result)
    return reading


def refresh_match(match: Match, tournament: Tournament, user) -> MatchRefresh:
    """Store the match's result recomputed from its games, and start its next game while it is
    undecided."""
    if match.is_bye or any(slot.entrant_id is None for slot in match.slots.all()):
        return MatchRefresh()
    reading = read_match(match, tournament)
    stored = False
    old_placings = (
        (match.result or {}).get("placings") if match.status == MatchStatus.DECIDED else None
    )
    if reading.result is not None:
        status = MatchStatus.DECIDED
        result = bridge.result_to_json(reading.result)
    else:
        status = MatchStatus.IN_PROGRESS if play.match_games(match) else MatchStatus.PENDING
        result = {}
    advancing = policy_for(tournament).advancing_per_table(tournament)
    ordered = reading.result.ordered() if reading.result is not None else ()
    for slot in match.slots.all():
        entrant_id = slot.entrant_id
        place = reading.result.rank_of(entrant_id) if reading.result is not None else None
        values = {
            "games_won": reading.games_won[entrant_id],
            "points_for": reading.points[entrant_id],
            "points_against": reading.points_against[entrant_id],
            "tricks_won": reading.tricks[entrant_id],
            "place": place,
            "advances": entrant_id in ordered[:advancing],
        }
        if any(getattr(slot, name) != value for name, value in values.items()):
            for name, value in values.items():
                setattr(slot, name, value)
            slot.save(update_fields=list(values))
            stored = True
    if (match.status, match.result) != (status, result):
        match.status = status
        match.result = result
        match.decided_at = timezone.now() if status == MatchStatus.DECIDED else None
        match._history_user = user
        match.save(update_fields=["status", "result", "decided_at", "updated_at"])
        stored = True
    if status == MatchStatus.DECIDED:
        rounds.delete_unplayed_games(match)
    else:
        play.start_match(match, tournament, user)
    new_placings = result.get("placings") if status == MatchStatus.DECIDED else None
    return MatchRefresh(placings_changed=old_placings != new_placings, stored=stored)


def advance_match(tournament: Tournament, match_id: int, user=None) -> MatchProgress:
    """Recompute match ``match_id`` of the locked ``tournament`` and advance the tournament
    (see the module docstring). Safe to run any number of times: everything is recomputed from
    the games, and what stored nothing announces nothing."""
    match = play.load_match(match_id)
    if match is None:
        return MatchProgress(match_id, "missing")
    if tournament.status == TournamentStatus.CLOSED:
        # A correction after the close (an organiser's): the match and the standings follow
        # the corrected games, nothing is drawn or reset; the settle-up hears of it.
        refreshed = refresh_match(match, tournament, user)
        if refreshed.placings_changed or refreshed.stored:
            snapshots.note_standings_moved(
                tournament,
                match_ids=(match_id,),
                actor=user,
                kinds=(
                    TournamentChangeKind.CORRECTED_AFTER_CLOSE,
                    *((TournamentChangeKind.MATCH_DECIDED,) if refreshed.placings_changed else ()),
                ),
            )
        return MatchProgress(
            match_id, "closed", placings_changed=refreshed.placings_changed, stored=refreshed.stored
        )
    refreshed = refresh_match(match, tournament, user)
    advanced = policy_for(tournament).advance(
        tournament, user, round_number=match.round.number, changed=refreshed.placings_changed
    )
    play.start_matches(advanced.to_start, tournament, user)
    match.refresh_from_db(fields=["status"])
    kinds = []
    if refreshed.placings_changed:
        kinds.append(TournamentChangeKind.MATCH_DECIDED)
    if advanced.round_drawn is not None:
        kinds.append(TournamentChangeKind.ROUND_DRAWN)
    stored = refreshed.stored or advanced.stored
    # Only what stored something moves the standings: running the task again is a no-op.
    if kinds or stored:
        snapshots.note_standings_moved(
            tournament,
            kinds=kinds,
            match_ids=(match_id,),
            round_number=advanced.round_drawn,
            actor=user,
        )
    return MatchProgress(
        match_id,
        match.status,
        placings_changed=refreshed.placings_changed,
        round_drawn=advanced.round_drawn,
        stored=stored,
        tournament_status=tournament.status,
    )
