"""Match play: loading a match for play, seating its entrants at a game, starting its games,
reading its result.

What it does:
- ``load_matches(ids)`` reads matches with everything ``read_match`` and ``seating_of`` read
  (slots, entrants, team members, games with their seats and hands) in a fixed number of queries.
- ``seating_of(match)`` turns a match's entrants (in seat order) into the seats and sides of a
  game: individuals sit in the match's seat order; teams (or individuals partnered at the table)
  alternate, side after side, so partners are never neighbours (seat i and seat i + number of
  sides are partners, as rules.md wants).
- ``read_match(match)`` recomputes a match from its games — the source of truth — into the draw's
  ``MatchResult`` (None while undecided; placings as the games leave them: the format's policy
  splits the ties of a table it cuts, ``progress.read_match``) plus the per-entrant figures the
  tables show.
- ``start_matches(matches, tournament, user)`` creates each match's next game through
  ``games.services.create_games`` (house rules = the tournament's overrides, stake = the
  tournament's), when the match is undecided and has no game in progress — a whole round at once
  — and marks the pending ones in progress.

What it does not do: decide when a match is over (``tournaments.draw.matches`` does) or advance
the tournament (``tournaments.progress`` and the format policies, ``tournaments.formats``, which
return the matches they stored for their callers to start here).

Locks: ``load_matches`` and ``read_match`` only read (the console's pages call them without a
lock); ``start_matches`` expects the caller to hold the tournament row's lock
(``progress.lock_tournament``) inside a transaction.

Terms:
- *counted games*: the finished games of a match, oldest first, up to the one that decided it; a
  game finished after that (possible only after a correction of an earlier game) is *surplus*
  and counts for nothing.
- *side*: as in ``games``: seats that pool their points. Side i of a match's game is the i-th
  side of the match's table (``Table.all_sides``).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from django.db.models import Prefetch
from django.utils import timezone

from clubs.models import TeamMember
from games.match_links import MatchTerms
from games.models import Game, GameSeat, GameStatus, Hand
from games.new_games import NewGame
from games.services import create_games
from tournaments.bridge import table_from_slots
from tournaments.draw.matches import match_result
from tournaments.draw.types import MatchResult, Table
from tournaments.models import Entrant, Match, MatchEntrant, MatchStatus, Tournament


def load_match(match_id: int) -> Match | None:
    """A match with everything ``read_match`` reads, in a fixed number of queries."""
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


@dataclass(frozen=True)
class Seating:
    """What ``games.services.create_game`` needs to seat a match, and who sits for whom."""

    seat_player_ids: list[int]
    sides: list[list[int]] | None  # each side's seats; None: every seat for itself
    team_ids: list[int | None] | None
    entrants_of_side: list[tuple[int, ...]]  # side index -> entrant ids


@dataclass
class MatchReading:
    """A match recomputed from its games."""

    table: Table
    result: MatchResult | None
    counted_games: list[Game] = field(default_factory=list)
    games_won: dict[int, int] = field(default_factory=dict)
    points: dict[int, int] = field(default_factory=dict)
    points_against: dict[int, int] = field(default_factory=dict)
    tricks: dict[int, int] = field(default_factory=dict)
    in_progress: list[Game] = field(default_factory=list)

    @property
    def is_decided(self) -> bool:
        return self.result is not None


def ordered_slots(match: Match) -> list[MatchEntrant]:
    """The match's slots by position (uses a ``slots`` prefetch when there is one)."""
    return sorted(match.slots.all(), key=lambda slot: slot.position)


def table_of(match: Match) -> Table:
    """The draw's ``Table`` for a match whose entrants are all known."""
    slots = ordered_slots(match)
    if any(slot.entrant_id is None for slot in slots):
        raise ValueError(f"match {match.pk} still waits for entrants")
    return table_from_slots(slots)


def _entrants_by_id(match: Match) -> dict[int, Entrant]:
    return {slot.entrant_id: slot.entrant for slot in ordered_slots(match)}


def team_members(entrant: Entrant) -> list[int]:
    """The player ids of a team entrant in the team's order (uses a prefetch when there is one)."""
    members = sorted(entrant.team.team_members.all(), key=lambda member: member.position)
    return [member.player_id for member in members]


def seating_of(match: Match, tournament: Tournament) -> Seating:
    """Seats and sides for the next game of ``match`` (see the module docstring)."""
    table = table_of(match)
    entrants = _entrants_by_id(match)
    if tournament.entrant_kind == "team":
        # Each team is one side; its players take every (number of teams)-th seat.
        rosters = [team_members(entrants[entrant_id]) for entrant_id in table.entrants]
        team_count = len(rosters)
        size = min(len(roster) for roster in rosters)
        seat_player_ids = [
            rosters[side][index] for index in range(size) for side in range(team_count)
        ]
        sides = [[index * team_count + side for index in range(size)] for side in range(team_count)]
        team_ids = [entrants[entrant_id].team_id for entrant_id in table.entrants]
        return Seating(seat_player_ids, sides, team_ids, [(e,) for e in table.entrants])
    if not table.sides:
        seat_player_ids = [entrants[entrant_id].player_id for entrant_id in table.entrants]
        return Seating(seat_player_ids, None, None, [(e,) for e in table.entrants])
    # Individuals partnered at the table (a drive of partners drawn per round): alternate sides.
    side_count = len(table.sides)
    size = min(len(side) for side in table.sides)
    order = [table.sides[side][index] for index in range(size) for side in range(side_count)]
    seat_player_ids = [entrants[entrant_id].player_id for entrant_id in order]
    sides = [[index * side_count + side for index in range(size)] for side in range(side_count)]
    return Seating(seat_player_ids, sides, None, list(table.sides))


def _side_entrants(game: Game, player_to_entrant: dict[int, int]) -> dict[int, tuple[int, ...]]:
    """Side index -> the entrants sitting on that side of ``game`` (from its seats' players)."""
    by_side: dict[int, list[int]] = {}
    for seat in game.seats.all():
        entrant_id = player_to_entrant.get(seat.player_id)
        if entrant_id is not None and entrant_id not in by_side.setdefault(seat.side, []):
            by_side[seat.side].append(entrant_id)
    return {side: tuple(entrant_ids) for side, entrant_ids in by_side.items()}


def _player_to_entrant(match: Match, tournament: Tournament) -> dict[int, int]:
    mapping: dict[int, int] = {}
    for entrant_id, entrant in _entrants_by_id(match).items():
        if tournament.entrant_kind == "team":
            for player_id in team_members(entrant):
                mapping[player_id] = entrant_id
        else:
            mapping[entrant.player_id] = entrant_id
    return mapping


def _tricks_by_side(game: Game) -> dict[int, int]:
    """Tricks each side took in ``game``, from the engine's result of every hand."""
    side_of_seat = {seat.seat: seat.side for seat in game.seats.all()}
    tricks: dict[int, int] = {}
    for hand in game.hands.all():
        for seat in (hand.result or {}).get("trick_winners") or ():
            if seat in side_of_seat:
                side = side_of_seat[seat]
                tricks[side] = tricks.get(side, 0) + 1
    return tricks


def match_games(match: Match) -> list[Game]:
    """The match's games, oldest first (uses a ``games`` prefetch when there is one)."""
    return sorted(match.games.all(), key=lambda game: game.pk)


def read_match(match: Match, tournament: Tournament) -> MatchReading:
    """Recompute ``match`` from its games (see the module docstring for counted games)."""
    table = table_of(match)
    player_to_entrant = _player_to_entrant(match, tournament)
    zero = dict.fromkeys(table.entrants, 0)
    reading = MatchReading(
        table,
        None,
        games_won=dict(zero),
        points=dict(zero),
        points_against=dict(zero),
        tricks=dict(zero),
    )
    winners: list[int] = []
    for game in match_games(match):
        if game.status != GameStatus.FINISHED:
            reading.in_progress.append(game)
            continue
        if reading.result is not None:
            continue  # surplus: the match was decided by an earlier game
        side_entrants = _side_entrants(game, player_to_entrant)
        if game.winner_side is None or game.winner_side not in side_entrants:
            continue  # a finished game always has a winner; be safe if one does not
        winners.append(side_entrants[game.winner_side][0])
        totals = list(game.totals or [])
        tricks = _tricks_by_side(game)
        total_points = sum(totals)
        for side, entrant_ids in side_entrants.items():
            side_points = totals[side] if side < len(totals) else 0
            for entrant_id in entrant_ids:
                reading.points[entrant_id] += side_points
                reading.points_against[entrant_id] += total_points - side_points
                reading.tricks[entrant_id] += tricks.get(side, 0)
                if side == game.winner_side:
                    reading.games_won[entrant_id] += 1
        reading.counted_games.append(game)
        reading.result = match_result(
            table,
            winners,
            mode=tournament.match_rule,
            games=tournament.match_games,
            points=reading.points,
            tricks=reading.tricks,
        )
    return reading


def terms_of(match: Match, tournament: Tournament) -> MatchTerms:
    """What ``match`` imposes on a game started for it (``games.match_links``): the
    tournament's game, house rules and stake; the tournament is the rules group."""
    return MatchTerms(
        match_id=match.pk,
        game=tournament.game,
        rules_group=tournament.pk,
        house_rules=tournament.house_rules or {},
        stake_minor=tournament.stake_minor,
    )


def start_next_games(
    matches: list[Match], tournament: Tournament, *, user=None
) -> list[Game | None]:
    """Create the next game of each of ``matches`` (None for a match that is decided or has a
    game in progress), all together by ``games.services.create_games``: the same games as one
    by one, in a fixed number of queries however many matches there are."""
    specs: list[NewGame] = []
    starting: list[Match] = []
    for match in matches:
        reading = read_match(match, tournament)
        if reading.is_decided or reading.in_progress:
            continue
        seating = seating_of(match, tournament)
        game_number = len(match_games(match))
        specs.append(
            NewGame(
                seat_player_ids=seating.seat_player_ids,
                teams=seating.sides,
                team_ids=seating.team_ids,
                first_dealer=game_number % len(seating.seat_player_ids),
                stake_minor=tournament.stake_minor,
                tournament_match=terms_of(match, tournament),
            )
        )
        starting.append(match)
    created: dict[int, Game] = {}
    if specs:
        games = create_games(club=tournament.club, user=user, game=tournament.game, new_games=specs)
        created = {id(match): game for match, game in zip(starting, games, strict=True)}
    for match in starting:
        # Keep a prefetched ``games`` cache (if any) in step with the new row.
        cache = getattr(match, "_prefetched_objects_cache", {})
        cache.pop("games", None)
    return [created.get(id(match)) for match in matches]


def start_match(match: Match, tournament: Tournament, user) -> None:
    """Create the first (or next) game of a match whose entrants are all known."""
    start_matches([match], tournament, user)


def start_matches(matches: list[Match], tournament: Tournament, user) -> None:
    """``start_match`` for each of ``matches``, in a fixed number of queries: the matches are
    loaded together, their games created together, and those that were pending are marked in
    progress with one UPDATE and one INSERT of their history (the rows ``save()`` would write)."""
    if not matches:
        return
    loaded = [
        match
        for match in load_matches([match.pk for match in matches])
        if match is not None and not match.is_bye
    ]
    if not loaded:
        return
    games = start_next_games(loaded, tournament, user=user)
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
