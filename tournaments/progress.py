"""Drawing rounds and advancing tournaments as their games finish.

What it does:
- ``draw_round(tournament, user)`` draws the next round with the draw module of the tournament's
  format, stores it (``bridge``) and starts its matches (their first games are created). Round 1
  also fixes the draw order and puts the tournament in progress.
- ``progress_match(match_id, user)`` — what ``tasks.match_progress_task`` runs — recomputes one
  match from its games, stores the result, starts the match's next game when it is undecided, and
  advances the tournament: a knockout fills every table whose entrants are now known; the other
  formats close a round when its last match is decided and, with ``auto_advance``, draw the next
  one; the tournament is finished after its last round (or final).
- A result that changed after later tables were drawn is repaired here when nothing at those
  tables has begun: their entrants are replaced (knockout) or the later rounds are drawn again
  (swiss, drive). When play has begun there, ``corrections.check_correction_allowed`` has already
  refused the change or reset those matches.

What it does not do: check permissions or request shapes (the API layer), decide matches or draws
(``tournaments.draw``), or lock anything but the tournament row — every function here expects the
caller to hold it (``lock_tournament``) inside a transaction.

Terms: *begun* — a match with a finished game or a game with at least one hand recorded;
*unplayed game* — a game in progress with no hand yet, which may be deleted freely.
"""

from __future__ import annotations

import logging

from django.db import transaction
from django.db.models import BooleanField, Case, Exists, OuterRef, Prefetch, Q, Value, When
from django.utils import timezone
from django.utils.translation import gettext

from clubs.models import TeamMember
from config.problems import Problem
from games.models import Game, GameSeat, GameStatus, Hand
from tournaments import bridge, play, snapshots
from tournaments.changes import TournamentChangeKind
from tournaments.draw import drive, knockout, round_robin, swiss
from tournaments.draw.types import DrawError, PlayedRound, RoundDraw
from tournaments.models import (
    Format,
    Match,
    MatchEntrant,
    MatchStatus,
    Round,
    RoundStatus,
    Tournament,
    TournamentStatus,
)

logger = logging.getLogger(__name__)


def lock_tournament(tournament_id: int) -> Tournament:
    """The tournament row, locked until the end of the transaction (404 problem if none)."""
    tournament = (
        Tournament.objects.select_for_update(of=("self",))
        .select_related("club")
        .filter(pk=tournament_id)
        .first()
    )
    if tournament is None:
        raise Problem(status=404, code="not_found",
                      detail=gettext("No tournament %(tournament)s.")
                      % {"tournament": tournament_id})
    return tournament


def load_match(match_id: int) -> Match | None:
    """A match with everything ``play.read_match`` reads, in a fixed number of queries."""
    (match,) = load_matches([match_id])
    return match


def load_matches(match_ids: list[int]) -> list[Match | None]:
    """``load_match`` for each id (None where there is no such match), in the same fixed number
    of queries however many ids there are."""
    members = TeamMember.objects.order_by("position")
    games = Game.objects.order_by("pk").prefetch_related(
        Prefetch("seats", queryset=GameSeat.objects.order_by("seat")),
        Prefetch("hands", queryset=Hand.objects.order_by("number")),
    )
    slots = MatchEntrant.objects.select_related("entrant__team").prefetch_related(
        Prefetch("entrant__team__team_members", queryset=members)
    )
    found = {
        match.pk: match
        for match in Match.objects.select_related("round")
        .prefetch_related(Prefetch("slots", queryset=slots), Prefetch("games", queryset=games))
        .filter(pk__in=match_ids)
    }
    return [found.get(match_id) for match_id in match_ids]


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


def start_match(match: Match, tournament: Tournament, user) -> None:
    """Create the first (or next) game of a match whose entrants are all known."""
    start_matches([match], tournament, user)


def start_matches(matches: list[Match], tournament: Tournament, user) -> None:
    """``start_match`` for each of ``matches``, in a fixed number of queries: the matches are
    loaded together, their games created together, and those that were pending are marked in
    progress with one UPDATE and one INSERT of their history (the rows ``save()`` would write)."""
    loaded = [
        match for match in load_matches([match.pk for match in matches])
        if match is not None and not match.is_bye
    ]
    if not loaded:
        return
    games = play.start_next_games(loaded, tournament, user=user)
    now = timezone.now()
    started = []
    for match, game in zip(loaded, games, strict=True):
        if game is not None and match.status == MatchStatus.PENDING:
            match.status = MatchStatus.IN_PROGRESS
            match.updated_at = now  # auto_now is not applied by an UPDATE of a queryset
            match._history_user = user
            started.append(match)
    if started:
        # Every started match gets the same values: one plain UPDATE, then their "~" history
        # rows as ``save()`` writes them (by ``_history_user``, no change reason).
        Match.objects.filter(pk__in=[match.pk for match in started]).update(
            status=MatchStatus.IN_PROGRESS, updated_at=now
        )
        Match.history.bulk_history_create(started, update=True, default_change_reason=None)


# ---------------------------------------------------------------------------------------------
# Drawing


def _first_round_checks(tournament: Tournament) -> None:
    entrants = list(tournament.entrants.select_related("team").all())
    if not entrants:
        raise Problem(
            status=400,
            code="too_few_entrants",
            detail=gettext("The tournament has no entrants yet; register them before drawing."),
            pointer="",
        )
    # Only those checked in are drawn; the absent may join a later round (swiss, round robin).
    entrants = [entrant for entrant in entrants if entrant.is_present]
    if not entrants:
        raise Problem(
            status=400,
            code="too_few_entrants",
            detail=gettext("Nobody is checked in; tick who is here before drawing."),
            pointer="",
        )
    tournament.draw_order = bridge.planned_draw_order(tournament, entrants)
    tournament.status = TournamentStatus.IN_PROGRESS
    tournament.version += 1
    tournament.save(update_fields=["draw_order", "status", "version", "updated_at"])


def _draw_knockout(tournament: Tournament, user, rounds: list[Round]) -> Round:
    if rounds:
        undecided = Match.objects.filter(tournament=tournament).exclude(
            status=MatchStatus.DECIDED
        )
        if undecided.exists():
            raise DrawError(
                "round_incomplete",
                "a knockout fills its next round by itself as matches are decided; "
                "some matches are still undecided",
            )
        raise DrawError("tournament_complete", "the knockout is complete")
    bridge.bracket_of(tournament)  # refuses impossible settings before anything is stored
    _advance_knockout(tournament, user)
    return tournament.rounds.order_by("number").first()


def _present_order(tournament: Tournament) -> list[int]:
    """The draw order of the entrants checked in: those drawn before in their fixed order, then
    late arrivals (entrants absent at round 1) in their planned order."""
    entrants = list(tournament.entrants.all())
    present = {entrant.pk for entrant in entrants if entrant.is_present}
    fixed = bridge.draw_order_of(tournament)
    late = [
        entrant_id
        for entrant_id in bridge.planned_draw_order(tournament, entrants)
        if entrant_id not in fixed
    ]
    return [entrant_id for entrant_id in fixed + late if entrant_id in present]


def _next_round_draw(tournament: Tournament, played: list[PlayedRound]) -> RoundDraw:
    order = _present_order(tournament) if played else bridge.draw_order_of(tournament)
    if tournament.format == Format.ROUND_ROBIN:
        return round_robin.next_round(
            order,
            played,
            table_size=tournament.table_size,
            rounds=tournament.round_count,
            min_table_size=tournament.min_table_size,
            seed=tournament.lots_seed,
        )
    rules = bridge.drive_rules_of(tournament)
    if not played:
        # Without seeds a drive starts from a random seating, drawn from the stored seed.
        seeded = tournament.entrants.filter(seed__isnull=False).exists()
        game = drive.first_game(order, rules, seed=None if seeded else tournament.lots_seed)
    else:
        if not played[-1].is_complete:
            raise DrawError("round_incomplete", f"round {len(played)} still has undecided games")
        last = (
            tournament.rounds.filter(number=len(played)).prefetch_related("matches__slots").get()
        )
        previous = bridge.drive_game_of(last)
        seated = {entrant for table in previous.tables for entrant in table.entrants}
        newcomers = [entrant for entrant in order if entrant not in seated]
        game = drive.next_game(rules, previous, played[-1].results, newcomers)
    return RoundDraw(game.tables)


def _refuse_absent_from_round_robin(tournament: Tournament, played: list[PlayedRound]) -> None:
    """A round robin's schedule seats everyone drawn so far in every round: refused (409
    ``entrants_absent``, naming them) while one of them is checked out. A swiss or a drive
    draws without them instead."""
    drawn = {entrant for round_ in played for entrant in round_.draw.entrants}
    absent = tournament.entrants.filter(pk__in=drawn, is_present=False).select_related(
        "player", "team"
    )
    names = sorted(entrant.name for entrant in absent)
    if names:
        raise Problem(
            status=409,
            code="entrants_absent",
            detail=gettext(
                "%(names)s checked out, but a round robin seats every entrant in every round: "
                "check them in again to draw round %(number)s."
            ) % {"names": ", ".join(names), "number": len(played) + 1},
            pointer="",
        )


def _next_swiss_draw(tournament: Tournament) -> tuple[int, RoundDraw]:
    """The rounds drawn so far and the next swiss round, from their ``swiss.History``."""
    history = bridge.swiss_history_of(tournament, bridge.scoring_of(tournament))
    if not history.rounds:
        _first_round_checks(tournament)
    order = _present_order(tournament) if history.rounds else bridge.draw_order_of(tournament)
    return history.rounds, swiss.next_round_after(
        order,
        history,
        total_rounds=tournament.round_count or 1,
        table_size=tournament.table_size,
        min_table_size=tournament.min_table_size,
    )


def draw_round(tournament: Tournament, user) -> Round:
    """Draw, store and start the next round (see the module docstring); raises ``DrawError``.

    The rounds played so far are read as plain rows (``bridge.played_rounds_of``), not models;
    a swiss reads only their aggregates (``bridge.swiss_history_of``), so drawing its round 12
    costs what drawing round 2 does."""
    if tournament.format == Format.KNOCKOUT:
        rounds = bridge.rounds_with_matches(tournament)
        if not rounds:
            _first_round_checks(tournament)
        return _draw_knockout(tournament, user, rounds)
    if tournament.format == Format.SWISS:
        drawn, draw = _next_swiss_draw(tournament)
    else:
        played = bridge.played_rounds_of(tournament)
        if not played:
            _first_round_checks(tournament)
        elif tournament.format == Format.ROUND_ROBIN:
            _refuse_absent_from_round_robin(tournament, played)
        drawn, draw = len(played), _next_round_draw(tournament, played)
    round_, matches = bridge.save_round_draw(tournament, drawn + 1, draw, user)
    start_matches(matches, tournament, user)
    _update_round_statuses(tournament, user, round_.number)
    return round_


# ---------------------------------------------------------------------------------------------
# Advancing


def refresh_match(match: Match, tournament: Tournament, user) -> bool:
    """Store the match's result recomputed from its games; True when its placings changed."""
    if match.is_bye or any(slot.entrant_id is None for slot in match.slots.all()):
        return False
    reading = play.read_match(match, tournament)
    old_placings = (
        (match.result or {}).get("placings") if match.status == MatchStatus.DECIDED else None
    )
    if reading.result is not None:
        status = MatchStatus.DECIDED
        result = bridge.result_to_json(reading.result)
    else:
        status = MatchStatus.IN_PROGRESS if play.match_games(match) else MatchStatus.PENDING
        result = {}
    advancing = _advancing_count(tournament)
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
            match.stored_a_change = True
    if (match.status, match.result) != (status, result):
        match.status = status
        match.result = result
        match.decided_at = timezone.now() if status == MatchStatus.DECIDED else None
        match._history_user = user
        match.save(update_fields=["status", "result", "decided_at", "updated_at"])
        match.stored_a_change = True
    if status == MatchStatus.DECIDED:
        delete_unplayed_games(match)
    else:
        start_match(match, tournament, user)
    new_placings = result.get("placings") if status == MatchStatus.DECIDED else None
    return old_placings != new_placings


def _advancing_count(tournament: Tournament) -> int:
    """How many of a decided table go through (knockout) or move up (drive); else the winner."""
    if tournament.format == Format.KNOCKOUT:
        return tournament.advancing_per_table or 1
    if tournament.format == Format.DRIVE:
        return bridge.drive_rules_of(tournament).winners
    return 1


def _update_round_statuses(tournament: Tournament, user, number: int) -> list[Round]:
    """Mark round ``number`` complete or in progress from its matches (rounds of the formats
    drawn round by round); returns every round in order.

    Only that round is looked at — the round of the match that changed, or the round just
    drawn: nothing else can have moved — and its matches are not loaded, only asked
    whether one is undecided, in the one query that reads the rounds. So the hand that decides
    a match costs the same in round 12 as in round 1 (bench/bench_jobs.py)."""
    open_matches = Match.objects.filter(round=OuterRef("pk")).exclude(
        status=MatchStatus.DECIDED
    )
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
    for round_ in rounds:
        if round_.undecided is None:
            continue
        complete = not round_.undecided
        status = RoundStatus.COMPLETE if complete else RoundStatus.IN_PROGRESS
        if round_.status != status:
            round_.status = status
            round_.completed_at = timezone.now() if complete else None
            round_._history_user = user
            round_.save(update_fields=["status", "completed_at"])
    return rounds


def _store_round_statuses(
    user, round_matches: list[tuple[Round, list[Match]]], bracket, results
) -> None:
    """Save the status of each round (in order) that its matches change: complete when all are
    decided (and, in a knockout — ``bracket`` and its decided ``results`` given — every table
    of the round is stored and decided), else in progress."""
    for round_, matches in round_matches:
        complete = all(match.status == MatchStatus.DECIDED for match in matches)
        if bracket is not None and complete:
            complete = _knockout_round_complete(bracket, results, round_.number)
        status = RoundStatus.COMPLETE if complete else RoundStatus.IN_PROGRESS
        if round_.status != status:
            round_.status = status
            round_.completed_at = timezone.now() if complete else None
            round_._history_user = user
            round_.save(update_fields=["status", "completed_at"])


def _knockout_round_complete(bracket, results, number: int) -> bool:
    try:
        draw = knockout.round_draw(bracket, number, results)
    except DrawError:
        return False
    return all(table.key in results for table in draw.tables)


def _set_status(tournament: Tournament, status: str) -> None:
    if tournament.status != status:
        tournament.status = status
        tournament.version += 1
        tournament.save(update_fields=["status", "version", "updated_at"])


def _advance_knockout(tournament: Tournament, user) -> None:
    bracket = bridge.bracket_of(tournament)
    # The rounds, matches and slots are loaded once, and kept in step below with what is deleted
    # and created, rather than reloaded for the round statuses.
    rounds = bridge.rounds_with_matches(tournament)
    results = bridge.knockout_results_of(rounds)
    try:
        tables = knockout.advance(bracket, results)
    except DrawError as error:
        logger.warning("knockout %s cannot advance: %s", tournament.pk, error.detail)
        return
    round_matches = {round_.number: (round_, list(round_.matches.all())) for round_ in rounds}
    existing = {
        (round_.number, match.table - 1): match
        for round_, match in sorted(
            ((round_, match) for round_, matches in round_matches.values() for match in matches),
            key=lambda pair: (pair[1].round_id, pair[1].table),
        )
    }
    wanted = {table.key for table in tables}

    def delete(key: tuple[int, int], match: Match) -> None:
        # Only undecided matches are deleted (a decided one has begun), so ``results`` stays
        # the decided tables.
        delete_unplayed_games(match)
        round_matches[key[0]][1].remove(match)
        match._history_user = user
        match.delete()

    # An undecided table whose feeders are no longer decided (an undo) waits again: remove it
    # while nothing has been played there.
    for key, match in existing.items():
        if match.status != MatchStatus.DECIDED and key not in wanted and not is_begun(match):
            delete(key, match)
    to_create = []
    for table in tables:
        match = existing.get(table.key)
        if match is not None and match.pk is not None:
            if {slot.entrant_id for slot in match.slots.all()} == set(table.table.entrants):
                continue
            if is_begun(match):
                logger.warning("knockout match %s has begun with other entrants", match.pk)
                continue
            delete(table.key, match)
        to_create.append(table)
    if to_create:
        sources = bridge.knockout_sources(tournament, to_create)
        new_matches = []
        for table in to_create:
            if table.round_number not in round_matches:
                round_matches[table.round_number] = (
                    bridge.create_round(tournament, table.round_number, user),
                    [],
                )
            previous = table.round_number - 1
            new_matches.append(
                bridge.NewMatch(
                    round_matches[table.round_number][0],
                    table.position + 1,
                    table.table,
                    is_third_place=table.is_third_place,
                    sources={
                        entrant_id: sources[(previous, entrant_id)]
                        for entrant_id in table.table.entrants
                        if (previous, entrant_id) in sources
                    },
                )
            )
        created = bridge.create_matches(new_matches, user=user)
        for new, match in zip(new_matches, created, strict=True):
            # Undecided (pending, or in progress once started): ``results`` is unchanged.
            round_matches[new.round.number][1].append(match)
        start_matches(created, tournament, user)
    _store_round_statuses(
        user, [round_matches[number] for number in sorted(round_matches)], bracket, results
    )
    finished = knockout.is_complete(bracket, results)
    _set_status(tournament, TournamentStatus.FINISHED if finished else TournamentStatus.IN_PROGRESS)


def _rounds_total(tournament: Tournament) -> int:
    if tournament.format == Format.ROUND_ROBIN:
        if tournament.round_count:
            return tournament.round_count
        return round_robin.default_rounds(len(bridge.draw_order_of(tournament)),
                                          tournament.table_size)
    return tournament.round_count or 1


def _drop_stale_rounds(tournament: Tournament, after: int, user) -> bool:
    """Delete the rounds after round ``after`` when nothing in them has begun; True if done."""
    later = list(Match.objects.filter(tournament=tournament, round__number__gt=after))
    if any(is_begun(match) for match in later if not match.is_bye):
        logger.warning("tournament %s: a result changed under rounds already begun", tournament.pk)
        return False
    for match in later:
        delete_unplayed_games(match)
    for round_ in tournament.rounds.filter(number__gt=after):
        round_._history_user = user
        round_.delete()
    return True


def _advance_rounds(tournament: Tournament, user, round_number: int, changed: bool) -> None:
    if changed and tournament.format in (Format.SWISS, Format.DRIVE):
        if tournament.rounds.filter(number__gt=round_number).exists():
            _drop_stale_rounds(tournament, round_number, user)
    rounds = _update_round_statuses(tournament, user, round_number)
    if not rounds:
        return
    if rounds[-1].status != RoundStatus.COMPLETE:
        _set_status(tournament, TournamentStatus.IN_PROGRESS)
        return
    if len(rounds) >= _rounds_total(tournament):
        _set_status(tournament, TournamentStatus.FINISHED)
        return
    _set_status(tournament, TournamentStatus.IN_PROGRESS)
    if tournament.auto_advance:
        draw_round(tournament, user)


def advance(tournament: Tournament, user, *, round_number: int, changed: bool) -> None:
    """Bring the tournament's rounds and status up to date with the result of a match of round
    ``round_number`` (``changed``: its placings changed)."""
    if tournament.format == Format.KNOCKOUT:
        _advance_knockout(tournament, user)
    else:
        _advance_rounds(tournament, user, round_number, changed)


def _shape_of(tournament: Tournament, round_number: int) -> tuple[int, int, str]:
    """Rounds, matches from round ``round_number`` on, and status: what advancing a match of
    that round changes besides the match itself (the tables it fills, draws or removes are all
    in later rounds). Earlier rounds are not counted, so this costs the same in round 12 as in
    round 1."""
    rounds = list(Round.objects.filter(tournament=tournament).values_list("pk", "number"))
    later = [pk for pk, number in rounds if number >= round_number]
    return len(rounds), Match.objects.filter(round_id__in=later).count(), tournament.status


def progress_match(match_id: int, user=None) -> dict:
    """Recompute match ``match_id`` and advance its tournament; the caller holds no lock.

    Safe to run any number of times: everything is recomputed from the games.
    """
    with transaction.atomic():
        # The match's tournament, found and locked in one query (the match row is not locked).
        tournament = (
            Tournament.objects.select_for_update(of=("self",))
            .select_related("club")
            .filter(matches__pk=match_id)
            .first()
        )
        if tournament is None:
            return {"match": match_id, "outcome": "missing"}
        match = load_match(match_id)
        if match is None:
            return {"match": match_id, "outcome": "missing"}
        if tournament.status == TournamentStatus.CLOSED:
            # A correction after the close (an organiser's): the match and the standings follow
            # the corrected games, nothing is drawn or reset; the settle-up hears of it.
            changed = refresh_match(match, tournament, user)
            if changed or getattr(match, "stored_a_change", False):
                snapshots.note_standings_moved(
                    tournament, match_ids=(match_id,), actor=user,
                    kinds=(
                        TournamentChangeKind.CORRECTED_AFTER_CLOSE,
                        *((TournamentChangeKind.MATCH_DECIDED,) if changed else ()),
                    ),
                )
            return {"match": match_id, "outcome": "closed", "changed": changed}
        round_number = match.round.number
        shape_before = _shape_of(tournament, round_number)
        changed = refresh_match(match, tournament, user)
        advance(tournament, user, round_number=round_number, changed=changed)
        match.refresh_from_db(fields=["status"])
        shape_after = _shape_of(tournament, round_number)
        kinds = []
        if changed:  # the match got, lost or changed its placings
            kinds.append(TournamentChangeKind.MATCH_DECIDED)
        if shape_after[0] > shape_before[0]:
            kinds.append(TournamentChangeKind.ROUND_DRAWN)
        # Only what stored something moves the standings: running the task again is a no-op.
        if kinds or getattr(match, "stored_a_change", False) or shape_after != shape_before:
            snapshots.note_standings_moved(
                tournament, kinds=kinds, match_ids=(match_id,),
                round_number=shape_after[0] if shape_after[0] > shape_before[0] else None,
                actor=user,
            )
        return {
            "match": match_id,
            "outcome": match.status,
            "changed": changed,
            "tournament_status": tournament.status,
        }
