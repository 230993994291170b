"""Reads of tournaments, entrants, rounds, matches and the bracket, in the shape the API and the
pages need.

What it does: builds the querysets (``select_related``/``prefetch_related``/annotations) so each
endpoint costs a fixed number of queries however many rounds, matches or entrants there are
(pinned in tests/tournaments/test_api_queries.py), decides which tournaments a user may see
(``can_read_tournament``, ``list_tournaments``), fetches a club's tournament for the pages and the
console (``get_club_tournament``: 404 when it is another club's), and assembles the bracket
(``bracket_of``). For the pages: the one cheap row a live page's entity tag is made of
(``get_tournament_live_state``), a player's entries (``list_entries_of_player``), a club's
tournaments for the exports (``list_club_tournaments``) and the rounds' names (``round_name``).

What it does not do: write (``services``), compute standings (``standings``), or decide who may
change what (the views, with ``clubs.permissions``).

Terms:
- *reader of a tournament*: anybody when the tournament is public; else a member of its club in
  any role. Others are told it does not exist (404), like ``clubs.permissions`` does for clubs.
- *bracket*: the planned rounds of a format that plans them (its policy's ``planned_bracket``: a
  knockout once drawn), each table either stored (a match), a walkover (an entrant going through
  without playing) or still waiting for its feeders; other tournaments list their stored rounds.
"""

from __future__ import annotations

from django.db.models import (
    Count,
    F,
    Max,
    OuterRef,
    Prefetch,
    Q,
    QuerySet,
    Subquery,
    Sum,
)
from django.http import Http404

from clubs.models import Club, Membership, TeamMember
from clubs.permissions import remember_role, role_in
from clubs.selectors import annotate_viewer
from games.models import Game
from tournaments import bridge
from tournaments.draw import knockout
from tournaments.draw.errors import DrawError
from tournaments.formats import policy_for
from tournaments.models import (
    Entrant,
    Match,
    MatchEntrant,
    MatchGame,
    Round,
    StandingsSnapshot,
    Tournament,
)


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


def get_club_tournament(*, club, tournament_id: int) -> Tournament:
    """The club's tournament (``get_tournament``), carrying ``club`` as read by the caller (with
    the viewer's role remembered on it); Http404 when the tournament is another club's or none
    (no permission check)."""
    tournament = get_tournament(tournament_id=tournament_id)
    if tournament.club_id != club.pk:
        raise Http404("No tournament with this id in this club.")
    tournament.club = club
    return tournament


def get_tournament_with_standings(*, tournament_id: int, user) -> Tournament:
    """The tournament with its club, its stored standings (``standings_snapshot``, or none yet)
    and the user's role in the club, in one query; Http404 if there is no such tournament."""
    queryset = Tournament.objects.select_related("club", "standings_snapshot").filter(
        pk=tournament_id
    )
    authenticated = user is not None and user.is_authenticated
    if authenticated:
        role = Membership.objects.filter(club=OuterRef("club"), user_id=user.pk)
        queryset = queryset.annotate(viewer_role=Subquery(role.values("role")[:1]))
    tournament = queryset.first()
    if tournament is None:
        raise Http404("No tournament with this id.")
    if authenticated:
        remember_role(tournament.club, user, tournament.viewer_role)
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


def list_matches(*, tournament: Tournament, with_unreleased: bool = False) -> QuerySet[Match]:
    """The matches by round and table; those of rounds not yet released only for organisers
    (``with_unreleased``: a private draw stays private)."""
    matches = _matches_queryset().filter(tournament=tournament)
    if not with_unreleased:
        matches = matches.filter(round__released_at__isnull=False)
    return matches.order_by("round__number", "table")


def get_match(*, match_id: int, with_unreleased: bool = True) -> Match:
    """The match with its round, slots and games; Http404 if none, or if its round is not
    released and ``with_unreleased`` is false (no other permission check)."""
    matches = _matches_queryset().filter(pk=match_id)
    if not with_unreleased:
        matches = matches.filter(round__released_at__isnull=False)
    match = matches.first()
    if match is None:
        raise Http404("No match with this id.")
    return match


def list_rounds(*, tournament: Tournament, with_unreleased: bool = False) -> QuerySet[Round]:
    """The rounds with their matches; rounds not yet released only ``with_unreleased``."""
    matches = _matches_queryset().order_by("table")
    rounds = Round.objects.filter(tournament=tournament)
    if not with_unreleased:
        rounds = rounds.released()
    return rounds.prefetch_related(Prefetch("matches", queryset=matches)).order_by("number")


def round_name(tournament: Tournament, number: int, rounds_total: int | None) -> str:
    """ "Final", "Semi-finals", ... for a bracket (``rounds_total``: its planned rounds, None
    without one, ``knockout_round_total``) of tables of two, else "Round n"."""
    if rounds_total and tournament.table_size == 2:
        from_end = rounds_total - number
        names = {0: "Final", 1: "Semi-finals", 2: "Quarter-finals"}
        if from_end in names:
            return names[from_end]
    return f"Round {number}"


def knockout_round_total(tournament: Tournament) -> int | None:
    """The planned rounds of the tournament's bracket (None without one: another format, or a
    knockout not drawn yet)."""
    bracket = policy_for(tournament).planned_bracket(tournament)
    return bracket.rounds if bracket is not None else None


def bracket_of(tournament: Tournament, *, with_unreleased: bool = False) -> dict:
    """Every round with its tables: stored matches, walkovers, and tables still waiting.

    Returns ``{"rounds": [{"number", "name", "status", "tables": [...]}], "champion"}`` where a
    table is ``{"table", "kind": "match"|"walkover"|"waiting", "match": Match|None,
    "entrants": [ids], "waiting_for": [{"round", "table"}], "is_third_place"}``. A knockout
    table still waiting lists the entrants already through to it (a decided feeder's winners, a
    walkover's entrant; the semi-finals' losers for the third-place table) and, in
    ``waiting_for``, the feeder tables not decided yet. A tournament without a planned bracket
    lists its stored rounds.
    """
    rounds = list(list_rounds(tournament=tournament, with_unreleased=with_unreleased))
    by_number = {round_.number: round_ for round_ in rounds}
    bracket = policy_for(tournament).planned_bracket(tournament)
    if bracket is None:
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
                            "waiting_for": [],
                            "is_third_place": match.is_third_place,
                        }
                        for match in round_.matches.all()
                    ],
                }
                for round_ in rounds
            ],
            "champion": None,
        }
    results = bridge.knockout_results_of(rounds)
    stored = {
        (round_.number, match.table - 1): match
        for round_ in rounds
        for match in round_.matches.all()
    }
    try:
        champion = knockout.champion(bracket, results)
        feeders = knockout.feeders_of(bracket, results)
    except DrawError:
        champion, feeders = None, {}
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
            # A table not stored yet already holds who is through to it from its decided feeders;
            # with every feeder decided and no more than go through, it is a walkover.
            waiting_for = []
            if match is None and key in feeders:
                for (feeder_round, feeder_position), through in feeders[key]:
                    if through is None:
                        waiting_for.append({"round": feeder_round, "table": feeder_position + 1})
                    else:
                        entrants.extend(through)
                needed = 1 if key == (bracket.rounds, 1) else bracket.advancing
                if not waiting_for and len(entrants) <= needed:
                    kind = "walkover"
            tables.append(
                {
                    "table": position + 1,
                    "kind": kind,
                    "match": match,
                    "entrants": entrants,
                    "waiting_for": waiting_for,
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


def get_tournament_live_state(*, tournament_id: int, club_slug: str, user) -> dict | None:
    """What a tournament page shows changes only when this changes: one query.

    Returns ``{"version", "is_public", "club_is_public", "viewer_role", "viewer_player",
    "games", "game_versions", "matches", "matches_changed", "names_version"}`` (released rounds
    only; ``names_version`` grows when a club's, player's or team's name changes), the same
    of the rounds not yet released (``draft_…``, for an organiser's tag only) and the stored
    standings' version (``standings_version``: the page reads the snapshot) for the tournament
    of that club (None if there is none): the tournament's own version, the number and summed
    versions of its games (a game's version grows with every hand, correction and undo), the
    number of its matches and when one last changed (a draw, a decision). The reader's role and
    linked player are read in the same query so that a poll answered ``304`` costs this query
    alone.
    """
    all_games = (
        MatchGame.objects.filter(match__tournament=OuterRef("pk"))
        .order_by()
        .values("match__tournament")
    )
    all_matches = Match.objects.filter(tournament=OuterRef("pk")).order_by().values("tournament")
    # The rounds not yet released count apart ("draft_…"): only an organiser's tag may read them,
    # so that a private draw changes nothing a player's poll can see.
    games = all_games.filter(match__round__released_at__isnull=False)
    matches = all_matches.filter(round__released_at__isnull=False)
    draft_games = all_games.filter(match__round__released_at__isnull=True)
    draft_matches = all_matches.filter(round__released_at__isnull=True)
    queryset = Tournament.objects.filter(pk=tournament_id, club__slug=club_slug).annotate(
        games=Subquery(games.annotate(count=Count("id")).values("count")),
        game_versions=Subquery(games.annotate(total=Sum("game__version")).values("total")),
        matches_count=Subquery(matches.annotate(count=Count("id")).values("count")),
        matches_changed=Subquery(matches.annotate(last=Max("updated_at")).values("last")),
        draft_games=Subquery(draft_games.annotate(count=Count("id")).values("count")),
        draft_game_versions=Subquery(
            draft_games.annotate(total=Sum("game__version")).values("total")
        ),
        draft_matches_count=Subquery(draft_matches.annotate(count=Count("id")).values("count")),
        draft_matches_changed=Subquery(
            draft_matches.annotate(last=Max("updated_at")).values("last")
        ),
        standings_version=Subquery(
            StandingsSnapshot.objects.filter(tournament=OuterRef("pk")).values("version")[:1]
        ),
    )
    queryset = annotate_viewer(queryset, user)
    return queryset.values(
        "version",
        "is_public",
        "viewer_role",
        "viewer_player",
        "games",
        "game_versions",
        "matches_count",
        "matches_changed",
        "draft_games",
        "draft_game_versions",
        "draft_matches_count",
        "draft_matches_changed",
        "standings_version",
        club_is_public=F("club__public_standings"),
        names_version=F("club__names_version"),
    ).first()


def list_team_members(*, tournament: Tournament) -> dict[int, list]:
    """The players of each team entered in the tournament (team id -> players in seat order):
    one query, none for a tournament of individuals (call it only for teams)."""
    members: dict[int, list] = {}
    queryset = (
        TeamMember.objects.filter(team__tournament_entries__tournament=tournament)
        .select_related("player")
        .order_by("team_id", "position")
    )
    for member in queryset:
        members.setdefault(member.team_id, []).append(member.player)
    return members


def list_entries_of_player(*, player) -> QuerySet[Entrant]:
    """The player's entries (their own, or their teams'), newest tournament first, with the
    tournament, and counts of the matches decided and won (first place) at their tables."""
    decided = Q(
        match_slots__match__status="decided",
        match_slots__match__is_bye=False,
        match_slots__match__round__released_at__isnull=False,
    )
    return (
        Entrant.objects.filter(Q(player=player) | Q(team__team_members__player=player))
        .select_related("tournament", "team")
        .annotate(
            matches_decided=Count("match_slots", filter=decided, distinct=True),
            matches_won=Count(
                "match_slots", filter=decided & Q(match_slots__place=1), distinct=True
            ),
        )
        .order_by("-tournament__created_at", "-tournament_id")
    )


def list_club_tournaments(*, club: Club) -> QuerySet[Tournament]:
    """Every tournament of the club, oldest first (exports; no visibility filter: the caller
    decides who may see them all)."""
    return Tournament.objects.filter(club=club).select_related("club").order_by("pk")


def with_rounds_of_player(
    tournaments: QuerySet[Tournament], *, player_id: int | None
) -> QuerySet[Tournament]:
    """``tournaments`` annotated, in the same query, with their last released round
    (``current_round``) and, for ``player_id`` (as themselves or in a team), the round and table
    of their last released match (``my_round``, ``my_table``, ``my_third_place``; None without
    one). A round not yet released counts for nobody (the club page is the players')."""
    annotated = tournaments.annotate(
        current_round=Max("rounds__number", filter=Q(rounds__released_at__isnull=False))
    )
    if player_id is None:
        return annotated
    slots = MatchEntrant.objects.filter(
        Q(entrant__player_id=player_id) | Q(entrant__team__team_members__player_id=player_id),
        match__tournament=OuterRef("pk"),
        match__round__released_at__isnull=False,
    ).order_by("-match__round__number")
    return annotated.annotate(
        my_round=Subquery(slots.values("match__round__number")[:1]),
        my_table=Subquery(slots.values("match__table")[:1]),
        my_third_place=Subquery(slots.values("match__is_third_place")[:1]),
    )
