"""Reads of tournaments, entrants, rounds, matches and the bracket, in the shape the API needs.

What it does: builds the querysets (``select_related``/``prefetch_related``/annotations) so each
endpoint costs a fixed number of queries however many rounds, matches or entrants there are
(pinned in tests/tournaments/test_api_queries.py), decides which tournaments a user may see
(``can_read_tournament``, ``list_tournaments``), and assembles the bracket (``bracket_of``).

What it does not do: write (``services``), compute standings (``standings``), or decide who may
change what (the views, with ``clubs.permissions``).

Terms:
- *reader of a tournament*: anybody when the tournament is public; else a member of its club in
  any role. Others are told it does not exist (404), like ``clubs.permissions`` does for clubs.
- *bracket*: a knockout's planned rounds, each table either stored (a match), a walkover (an
  entrant going through without playing) or still waiting for its feeders.
"""

from __future__ import annotations

from django.db.models import Count, F, Prefetch, QuerySet
from django.http import Http404

from clubs.models import Club, TeamMember
from clubs.permissions import role_in
from games.models import Game
from tournaments import bridge
from tournaments.draw import knockout
from tournaments.draw.types import DrawError
from tournaments.models import Entrant, Format, Match, MatchEntrant, Round, Tournament


def can_read_tournament(user, tournament: Tournament) -> bool:
    return tournament.is_public or role_in(user, tournament.club) is not None


def _annotated(queryset: QuerySet[Tournament]) -> QuerySet[Tournament]:
    return queryset.select_related("club").annotate(
        entrant_count=Count("entrants", distinct=True),
        round_count_drawn=Count("rounds", distinct=True),
    )


def list_tournaments(*, club: Club, user) -> QuerySet[Tournament]:
    """The club's tournaments the user may read: all for members, the public ones for others."""
    queryset = _annotated(Tournament.objects.filter(club=club))
    if role_in(user, club) is None:
        queryset = queryset.filter(is_public=True)
    return queryset.order_by("-created_at", "-id")


def get_tournament(*, tournament_id: int) -> Tournament:
    """The tournament with its club and counts; Http404 if there is none (no permission check)."""
    tournament = _annotated(Tournament.objects.filter(pk=tournament_id)).first()
    if tournament is None:
        raise Http404("No tournament with this id.")
    return tournament


def _entrants_queryset() -> QuerySet[Entrant]:
    members = TeamMember.objects.select_related("player").order_by("position")
    return Entrant.objects.select_related("player", "team").prefetch_related(
        Prefetch("team__team_members", queryset=members)
    )


def list_entrants(*, tournament: Tournament) -> QuerySet[Entrant]:
    return (
        _entrants_queryset()
        .filter(tournament=tournament)
        .order_by(F("seed").asc(nulls_last=True), "id")
    )


def _matches_queryset() -> QuerySet[Match]:
    slots = MatchEntrant.objects.select_related(
        "entrant__player", "entrant__team", "source_match"
    ).order_by("position")
    games = Game.objects.only("id", "status", "winner_side", "totals", "hands_played").order_by(
        "id"
    )
    return Match.objects.select_related("round").prefetch_related(
        Prefetch("slots", queryset=slots), Prefetch("games", queryset=games)
    )


def list_matches(*, tournament: Tournament) -> QuerySet[Match]:
    return (
        _matches_queryset()
        .filter(tournament=tournament)
        .order_by("round__number", "table")
    )


def get_match(*, match_id: int) -> Match:
    """The match with its round, slots and games; Http404 if none (no permission check)."""
    match = _matches_queryset().filter(pk=match_id).first()
    if match is None:
        raise Http404("No match with this id.")
    return match


def list_rounds(*, tournament: Tournament) -> QuerySet[Round]:
    matches = _matches_queryset().order_by("table")
    return (
        Round.objects.filter(tournament=tournament)
        .prefetch_related(Prefetch("matches", queryset=matches))
        .order_by("number")
    )


def round_name(tournament: Tournament, number: int, rounds_total: int | None) -> str:
    """"Final", "Semi-finals", ... for a knockout of tables of two, else "Round n"."""
    if tournament.format == Format.KNOCKOUT and rounds_total and tournament.table_size == 2:
        from_end = rounds_total - number
        names = {0: "Final", 1: "Semi-finals", 2: "Quarter-finals"}
        if from_end in names:
            return names[from_end]
    return f"Round {number}"


def knockout_round_total(tournament: Tournament) -> int | None:
    if tournament.format != Format.KNOCKOUT or not tournament.draw_order:
        return None
    return bridge.bracket_of(tournament).rounds


def bracket_of(tournament: Tournament) -> dict:
    """Every round with its tables: stored matches, walkovers, and tables still waiting.

    Returns ``{"rounds": [{"number", "name", "status", "tables": [...]}], "champion"}`` where a
    table is ``{"table", "kind": "match"|"walkover"|"waiting", "match": Match|None,
    "entrants": [ids], "is_third_place"}``. Formats other than knockout list their stored rounds.
    """
    rounds = list(list_rounds(tournament=tournament))
    by_number = {round_.number: round_ for round_ in rounds}
    if tournament.format != Format.KNOCKOUT or not tournament.draw_order:
        return {
            "rounds": [
                {
                    "number": round_.number,
                    "name": round_name(tournament, round_.number, None),
                    "status": round_.status,
                    "tables": [
                        {
                            "table": match.table,
                            "kind": "bye" if match.is_bye else "match",
                            "match": match,
                            "entrants": [slot.entrant_id for slot in match.slots.all()],
                            "is_third_place": match.is_third_place,
                        }
                        for match in round_.matches.all()
                    ],
                }
                for round_ in rounds
            ],
            "champion": None,
        }
    bracket = bridge.bracket_of(tournament)
    results = bridge.knockout_results_of(rounds)
    stored = {
        (round_.number, match.table - 1): match
        for round_ in rounds
        for match in round_.matches.all()
    }
    try:
        champion = knockout.champion(bracket, results)
    except DrawError:
        champion = None
    output = []
    for number in range(1, bracket.rounds + 1):
        positions = bracket.tables_in_round(number)
        if number == bracket.rounds and bracket.third_place:
            positions = 2
        tables = []
        for position in range(positions):
            key = (number, position)
            match = stored.get(key)
            entrants: list[int] = []
            if match is not None:
                kind = "match"
                entrants = [slot.entrant_id for slot in match.slots.all()]
            elif number == 1:
                # Round 1 is fixed by the seeding: a table of no more than the advancing count
                # is a walkover (the top seeds' byes).
                entrants = [entrant for entrant in bracket.slots[position] if entrant is not None]
                kind = "walkover" if len(entrants) <= bracket.advancing else "waiting"
            else:
                kind = "waiting"
            tables.append(
                {
                    "table": position + 1,
                    "kind": kind,
                    "match": match,
                    "entrants": entrants,
                    "is_third_place": bracket.third_place and key == (bracket.rounds, 1),
                }
            )
        round_ = by_number.get(number)
        output.append(
            {
                "number": number,
                "name": round_name(tournament, number, bracket.rounds),
                "status": round_.status if round_ is not None else "waiting",
                "tables": tables,
            }
        )
    return {"rounds": output, "champion": champion}
