"""The one bridge between the database and the pure draw modules (``tournaments.draw``).

What it does: loads a tournament's entrants, rounds and match results as the draw's plain values
(entrant ids, ``Table``, ``RoundDraw``, ``PlayedRound``, ``MatchResult``, ``Bracket``,
``DriveGame``), builds the options the draw takes from the tournament's settings (``ScoringRule``,
``DriveRules``, the bracket), and saves what the draw returns as ``Round``, ``Match`` and
``MatchEntrant`` rows (a round's matches in one statement each, ``create_matches``).
``draw_problem`` turns a ``DrawError`` into an API problem (``rules_error_to_problem``).

What it does not do: decide anything (the draw modules do), take locks or check permissions (the
services do), or play matches (``tournaments.play``).

Terms:
- *draw order*: the entrant ids in the order the draw takes them — seeded entrants by seed, then
  the unseeded in an order drawn by lot from the tournament's stored seed. Fixed on the tournament
  when round 1 is drawn (``Tournament.draw_order``) so later draws never depend on edits.
- *stored result*: ``Match.result`` holds the decided ``MatchResult`` as JSON
  (``{"placings": [[ids]], "games_won": {id: n}, "points": {...}, "tricks": {...}}``), refreshed
  from the games by ``tournaments.progress`` whenever a game changes.
- *knockout key*: ``(round number, table - 1)``, the draw's ``(round_number, position)``.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from django.db.models import Count, Exists, F, OuterRef, Q
from django.utils import timezone
from simple_history.utils import bulk_create_with_history

from config.problems import Problem, rules_error_to_problem
from tournaments.draw import (
    DrawError,
    MatchResult,
    PlayedRound,
    RoundDraw,
    ScoringRule,
    Table,
    drive,
    knockout,
    swiss_history,
)
from tournaments.draw.errors import N_
from tournaments.models import (
    Entrant,
    Match,
    MatchEntrant,
    MatchStatus,
    Round,
    Tournament,
)

BYE_RULES = {
    # bye_rule -> the ScoringRule fields for a bye: match points and whether it counts as a win.
    "win": {"bye": 2, "bye_is_match_win": True},
    "draw": {"bye": 1, "bye_is_match_win": False},
    "loss": {"bye": 0, "bye_is_match_win": False},
}


def draw_problem(error: DrawError) -> Problem:
    """The API problem for a refusal of the draw: the one conversion of engine and draw errors,
    ``rules_error_to_problem`` (409 for state, 400 for settings, from config.problem_codes)."""
    return rules_error_to_problem(error)


# ---------------------------------------------------------------------------------------------
# Settings


def scoring_of(tournament: Tournament) -> ScoringRule:
    return ScoringRule(**BYE_RULES.get(tournament.bye_rule, BYE_RULES["win"]))


def drive_rules_of(tournament: Tournament) -> drive.DriveRules:
    return drive.DriveRules(
        table_size=tournament.table_size,
        games=tournament.round_count or 1,
        sides_per_table=tournament.sides_per_table,
        winners_per_table=tournament.advancing_per_table,
        movement=tournament.movement,
    )


def planned_draw_order(tournament: Tournament, entrants: list[Entrant] | None = None) -> list[int]:
    """Seeded entrants by seed, then the unseeded in an order drawn by lot (module docstring)."""
    if entrants is None:
        entrants = list(tournament.entrants.all())
    seeded = sorted((e for e in entrants if e.seed is not None), key=lambda e: e.seed)
    unseeded = sorted((e for e in entrants if e.seed is None), key=lambda e: e.pk)
    random.Random(f"{tournament.lots_seed}:draw-order").shuffle(unseeded)
    return [entrant.pk for entrant in seeded + unseeded]


def draw_order_of(tournament: Tournament) -> list[int]:
    """The fixed draw order once round 1 is drawn, else the planned one."""
    return list(tournament.draw_order) or planned_draw_order(tournament)


def bracket_of(tournament: Tournament) -> knockout.Bracket:
    return knockout.plan_bracket(
        draw_order_of(tournament),
        table_size=tournament.table_size,
        advancing=tournament.advancing_per_table or 1,
        third_place=tournament.third_place_match,
    )


# ---------------------------------------------------------------------------------------------
# Reading rounds and results


def table_from_slots(slots: list[MatchEntrant]) -> Table:
    slots = sorted(slots, key=lambda slot: slot.position)
    entrants = tuple(slot.entrant_id for slot in slots)
    sides: dict[int, list[int]] = {}
    for slot in slots:
        if slot.side is not None:
            sides.setdefault(slot.side, []).append(slot.entrant_id)
    if not sides:
        return Table(entrants)
    return Table(entrants, tuple(tuple(sides[index]) for index in sorted(sides)))


def result_to_json(result: MatchResult) -> dict:
    entrants = result.table.entrants
    return {
        "placings": [list(group) for group in result.placings],
        "games_won": {str(e): result.games_won_by(e) for e in entrants},
        "points": {str(e): result.points_of(e) for e in entrants},
        "tricks": {str(e): result.tricks_of(e) for e in entrants},
    }


def result_from_json(table: Table, data: dict) -> MatchResult:
    def per_entrant(name: str) -> dict[int, int]:
        return {int(key): value for key, value in (data.get(name) or {}).items()}

    return MatchResult.build(
        table,
        [tuple(group) for group in data["placings"]],
        games_won=per_entrant("games_won") or None,
        points=per_entrant("points") or None,
        tricks=per_entrant("tricks") or None,
    )


def stored_result_of(
    entrants: tuple[int, ...], sides: tuple[tuple[int, ...], ...], data: dict
) -> MatchResult:
    """A stored result (``result_to_json``) as the ranking reads it, without checking again
    what ``result_from_json`` checked when it was stored: the same ``MatchResult``."""

    def aligned(name: str) -> tuple[int, ...]:
        values = data.get(name)
        if not values:
            return ()
        return tuple(values.get(str(entrant), 0) for entrant in entrants)

    return MatchResult.stored(
        Table.stored(entrants, sides),
        tuple(tuple(group) for group in data["placings"]),
        aligned("games_won"),
        aligned("points"),
        aligned("tricks"),
    )


def stored_result(match: Match) -> MatchResult | None:
    """The match's stored result (None while undecided, and for byes)."""
    if match.is_bye or match.status != MatchStatus.DECIDED or not match.result:
        return None
    table = table_from_slots(list(match.slots.all()))
    return stored_result_of(table.entrants, table.sides, match.result)


def rounds_with_matches(tournament: Tournament) -> list[Round]:
    """The tournament's rounds in order, each with its matches and their slots prefetched."""
    return list(tournament.rounds.order_by("number").prefetch_related("matches__slots"))


def played_round(round_: Round) -> PlayedRound:
    """A stored round as the draw's ``PlayedRound`` (byes from its bye matches)."""
    tables, byes, results = [], [], []
    for match in sorted(round_.matches.all(), key=lambda match: match.table):
        slots = list(match.slots.all())
        if match.is_bye:
            byes.extend(slot.entrant_id for slot in slots)
            continue
        tables.append(table_from_slots(slots))
        result = stored_result(match)
        if result is not None:
            results.append(result)
    return PlayedRound(RoundDraw(tuple(tables), tuple(byes)), tuple(results))


def played_rounds(tournament: Tournament) -> list[PlayedRound]:
    return [played_round(round_) for round_ in rounds_with_matches(tournament)]


@dataclass(frozen=True)
class _Slot:
    """The fields of a ``MatchEntrant`` that ``table_from_slots`` reads."""

    position: int
    side: int | None
    entrant_id: int


def played_rounds_of(tournament: Tournament) -> list[PlayedRound]:
    """``played_rounds`` read as plain rows: three queries and no model instances, for the draw
    of the next round (round robin and drive; a swiss reads only ``swiss_history_of``)."""
    numbers = list(tournament.rounds.order_by("number").values_list("number", flat=True))
    if not numbers:
        return []
    slots: dict[int, list[_Slot]] = {}
    for match_id, position, side, entrant_id in MatchEntrant.objects.filter(
        match__tournament=tournament
    ).values_list("match_id", "position", "side", "entrant_id"):
        slots.setdefault(match_id, []).append(_Slot(position, side, entrant_id))
    by_round: dict[int, tuple[list, list, list]] = {number: ([], [], []) for number in numbers}
    for match_id, number, is_bye, status, result in (
        Match.objects.filter(tournament=tournament)
        .order_by("round__number", "table")
        .values_list("pk", "round__number", "is_bye", "status", "result")
    ):
        tables, byes, results = by_round[number]
        seats = slots.get(match_id, [])
        if is_bye:
            byes.extend(slot.entrant_id for slot in seats)
            continue
        table = table_from_slots(seats)
        tables.append(table)
        if status == MatchStatus.DECIDED and result:
            results.append(result_from_json(table, result))
    return [
        PlayedRound(RoundDraw(tuple(tables), tuple(byes)), tuple(results))
        for tables, byes, results in (by_round[number] for number in numbers)
    ]


def swiss_history_of(tournament: Tournament, scoring: ScoringRule) -> swiss_history.History:
    """What the next swiss draw needs of the rounds played (``swiss_history.History``), read as
    aggregates: one row per entrant (match points and byes, summed by the database from each
    slot's ``place``, which ``progress.refresh_match`` stores with the result) and one per pair
    of opponents who met — never the rounds' matches and slots themselves, which grow by a
    round's worth each round (a swiss of 500 has 3,000 matches and 6,000 slots by round 12).

    An entrant *wins* a decided match when it placed first and nobody outside its side shares
    first place, *draws* when someone does, and otherwise *loses*, as ``MatchResult.outcome_of``;
    opponents are entrants at one table on different sides, as ``types.meetings``. Raises
    ``round_incomplete`` while a drawn match is undecided (nothing is counted then)."""
    undecided = Match.objects.filter(round=OuterRef("pk"), is_bye=False).exclude(
        status=MatchStatus.DECIDED
    )
    rounds = list(
        tournament.rounds.order_by("number")
        .annotate(open=Exists(undecided))
        .values_list("number", "open")
    )
    for number, is_open in rounds:
        if is_open:
            raise DrawError(
                "round_incomplete",
                N_("round %(number)s still has tables without a result"),
                params={"number": number},
            )
    if not rounds:
        return swiss_history.History()
    slots = MatchEntrant.objects.filter(match__tournament=tournament)
    first_shared = (
        MatchEntrant.objects.filter(match_id=OuterRef("match_id"), place=1)
        .exclude(pk=OuterRef("pk"))
        .filter(Q(side__isnull=True) | Q(side__lt=OuterRef("side")) | Q(side__gt=OuterRef("side")))
    )
    played = Q(match__is_bye=False)
    first = played & Q(place=1)
    scores, byes = {}, {}
    for entrant_id, bye_count, games, wins, draws in (
        slots.annotate(shared=Exists(first_shared))
        .values("entrant_id")
        .annotate(
            bye_count=Count("pk", filter=Q(match__is_bye=True)),
            games=Count("pk", filter=played),
            wins=Count("pk", filter=first & Q(shared=False)),
            draws=Count("pk", filter=first & Q(shared=True)),
        )
        .values_list("entrant_id", "bye_count", "games", "wins", "draws")
    ):
        scores[entrant_id] = (
            scoring.bye * bye_count
            + scoring.win * wins
            + scoring.draw * draws
            + scoring.loss * (games - wins - draws)
        )
        if bye_count:
            byes[entrant_id] = bye_count
    opponents = (
        Q(side__isnull=True)
        | Q(match__slots__side__isnull=True)
        | Q(match__slots__side__lt=F("side"))
        | Q(match__slots__side__gt=F("side"))
    )
    met = {
        (first_id, second_id): times
        for first_id, second_id, times in slots.filter(
            opponents, match__is_bye=False, match__slots__entrant_id__gt=F("entrant_id")
        )
        .values_list("entrant_id", "match__slots__entrant_id")
        .annotate(times=Count("pk"))
        .values_list("entrant_id", "match__slots__entrant_id", "times")
    }
    return swiss_history.History(rounds=len(rounds), scores=scores, byes=byes, met=met)


def released_results_of(tournament: Tournament) -> tuple[list[MatchResult], list[int], set[int]]:
    """Every decided result and every bye of the released rounds, and every entrant drawn in
    them: ``knockout_results_and_byes``'s first two over the released rounds, read as
    plain rows in two queries — no model instances, for the standings recomputed after every
    result (``tournaments.standings``)."""
    released = Q(match__round__released_at__isnull=False)
    slots: dict[int, list[tuple]] = {}
    for row in MatchEntrant.objects.filter(released, match__tournament=tournament).values_list(
        "match_id", "position", "side", "entrant_id"
    ):
        slots.setdefault(row[0], []).append(row)
    results, byes, drawn = [], [], set()
    for match_id, is_bye, status, result in (
        Match.objects.filter(tournament=tournament, round__released_at__isnull=False)
        .order_by("round__number", "table")
        .values_list("pk", "is_bye", "status", "result")
    ):
        seats = slots.get(match_id, [])
        drawn.update(row[3] for row in seats if row[3] is not None)
        if is_bye:
            byes.extend(row[3] for row in seats)
        elif status == MatchStatus.DECIDED and result:
            seats.sort(key=lambda row: row[1])
            entrants = tuple(row[3] for row in seats)
            sides: dict[int, list[int]] = {}
            for row in seats:
                if row[2] is not None:
                    sides.setdefault(row[2], []).append(row[3])
            results.append(
                stored_result_of(
                    entrants, tuple(tuple(sides[index]) for index in sorted(sides)), result
                )
            )
    return results, byes, drawn


def knockout_results_of(rounds: list[Round]) -> dict[tuple[int, int], MatchResult]:
    """Decided knockout tables by key, from rounds with their matches and slots prefetched."""
    return knockout_results_and_byes(rounds)[2]


def knockout_sources(tournament: Tournament, tables) -> dict[tuple[int, int], tuple]:
    """(round number, entrant id) -> (match, place) of the entrant's table in the round before,
    for the entrants of ``tables`` (knockout tables to store) after round 1; one query."""
    wanted = {
        (table.round_number - 1, entrant_id)
        for table in tables
        if table.round_number > 1
        for entrant_id in table.table.entrants
    }
    if not wanted:
        return {}
    earlier = MatchEntrant.objects.filter(
        match__tournament=tournament,
        match__round__number__in={number for number, _ in wanted},
        entrant_id__in={entrant_id for _, entrant_id in wanted},
    ).select_related("match__round")
    sources = {}
    for slot in earlier:
        key = (slot.match.round.number, slot.entrant_id)
        if key in wanted:
            sources[key] = (slot.match, slot.place)
    return sources


def drive_game_of(round_: Round) -> drive.DriveGame:
    matches = sorted(round_.matches.all(), key=lambda match: match.table)
    return drive.DriveGame(
        round_.number, tuple(table_from_slots(list(match.slots.all())) for match in matches)
    )


def knockout_results_and_byes(
    rounds: list[Round],
) -> tuple[list[MatchResult], list[int], dict[tuple[int, int], MatchResult]]:
    """Every decided result and every bye, and the decided tables by key (round number,
    table index), in one pass over rounds with their matches and slots prefetched
    (``rounds_with_matches``), each stored result read once (the knockout's standings need
    all three)."""
    results, byes, by_key = [], [], {}
    for round_ in rounds:
        for match in round_.matches.all():
            if match.is_bye:
                byes.extend(slot.entrant_id for slot in match.slots.all())
                continue
            result = stored_result(match)
            if result is not None:
                results.append(result)
                by_key[(round_.number, match.table - 1)] = result
    return results, byes, by_key


# ---------------------------------------------------------------------------------------------
# Saving what the draw returns


def create_round(tournament: Tournament, number: int, user) -> Round:
    # A private draw waits for an organiser to release it (evening.release_round).
    released_at = None if tournament.private_draws else timezone.now()
    round_ = Round(tournament=tournament, number=number, drawn_by=user, released_at=released_at)
    round_._history_user = user
    round_.save()
    return round_


@dataclass(frozen=True)
class NewMatch:
    """A match to store: at ``table_number`` of ``round``, seating ``table`` (entrants in seat
    order, with their sides). ``sources`` maps an entrant id to the (match, place) it came from
    (knockout)."""

    round: Round
    table_number: int
    table: Table
    is_bye: bool = False
    is_third_place: bool = False
    sources: dict[int, tuple[Match, int]] | None = None


def create_matches(new_matches: list[NewMatch], *, user=None) -> list[Match]:
    """Store ``new_matches`` in order with their entrants' slots: one INSERT for the matches, one
    for their history (the rows ``save()`` would write, by ``user``) and one for all the slots."""
    matches = []
    for new in new_matches:
        match = Match(
            tournament_id=new.round.tournament_id,
            round=new.round,
            table=new.table_number,
            is_bye=new.is_bye,
            is_third_place=new.is_third_place,
            status=MatchStatus.DECIDED if new.is_bye else MatchStatus.PENDING,
        )
        match._history_user = user
        matches.append(match)
    if not matches:
        return []
    bulk_create_with_history(matches, Match)
    slots = []
    for match, new in zip(matches, new_matches, strict=True):
        side_index = {}
        if new.table.sides:
            side_index = {
                entrant: index for index, side in enumerate(new.table.sides) for entrant in side
            }
        sources = new.sources or {}
        slots.extend(
            MatchEntrant(
                match=match,
                position=position,
                entrant_id=entrant_id,
                side=side_index.get(entrant_id),
                source_match=sources[entrant_id][0] if entrant_id in sources else None,
                source_place=sources[entrant_id][1] if entrant_id in sources else None,
                place=1 if new.is_bye else None,
                advances=new.is_bye,
            )
            for position, entrant_id in enumerate(new.table.entrants)
        )
    MatchEntrant.objects.bulk_create(slots)
    return matches


def save_round_draw(
    tournament: Tournament, number: int, draw: RoundDraw, user
) -> tuple[Round, list[Match]]:
    """A round with one match per table (table 1 first) and one bye match per bye; returns the
    round and the matches of its tables (not the byes)."""
    round_ = create_round(tournament, number, user)
    tables = [NewMatch(round_, index, table) for index, table in enumerate(draw.tables, start=1)]
    byes = [
        NewMatch(round_, offset, Table((entrant_id,)), is_bye=True)
        for offset, entrant_id in enumerate(draw.byes, start=len(draw.tables) + 1)
    ]
    matches = create_matches(tables + byes, user=user)
    return round_, matches[: len(tables)]
