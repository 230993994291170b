"""Match play: seating a match's entrants at a game, starting its games, reading its result.

What it does:
- ``seating_of(match)`` turns a match's entrants (in seat order) into the seats and sides of a
  game: individuals sit in the match's seat order; teams (or individuals partnered at the table)
  alternate, side after side, so partners are never neighbours (seat i and seat i + number of
  sides are partners, as rules.md wants).
- ``read_match(match)`` recomputes a match from its games — the source of truth — into the draw's
  ``MatchResult`` (None while undecided) plus the per-entrant figures the tables show.
- ``start_next_games(matches, tournament, user)`` creates each match's next game through
  ``games.services.create_games`` (house rules = the tournament's overrides, stake = the
  tournament's), when the match is undecided and has no game in progress — a whole round at once.

What it does not do: decide when a match is over (``tournaments.draw.matches`` does) or advance
the tournament (``tournaments.progress``). It takes no locks: its callers hold the tournament's.

Terms:
- *counted games*: the finished games of a match, oldest first, up to the one that decided it; a
  game finished after that (possible only after a correction of an earlier game) is *surplus*
  and counts for nothing.
- *side*: as in ``games``: seats that pool their points. Side i of a match's game is the i-th
  side of the match's table (``Table.all_sides``).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from games.match_links import MatchTerms
from games.models import Game, GameStatus
from games.services import NewGame, create_games
from tournaments.bridge import table_from_slots
from tournaments.draw import ranking
from tournaments.draw.matches import match_result
from tournaments.draw.types import MatchResult, Table
from tournaments.models import Entrant, Format, Match, MatchEntrant, Tournament


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
        table, None, games_won=dict(zero), points=dict(zero), points_against=dict(zero),
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
    if reading.result is not None and tournament.format in (Format.KNOCKOUT, Format.DRIVE):
        reading.result = break_ties(reading.result, tournament.lots_seed)
    return reading


def break_ties(result: MatchResult, seed: int) -> MatchResult:
    """The result with every tied placing group split: more tricks first, then by lot.

    Knockouts and drives cut each table between those who go through (or up) and the others,
    and the draw refuses a cut inside a tie; sides level on games and points at one table are
    therefore separated by the tricks they took, and then by a drawing of lots from the
    tournament's stored seed (``ranking.lot``), so the same results always give the same order.
    Partners stay together.
    """
    table = result.table
    placings: list[tuple[int, ...]] = []
    for group in result.placings:
        sides: list[tuple[int, ...]] = []
        for entrant in group:
            side = table.side_of(entrant)
            if side not in sides:
                sides.append(side)
        sides.sort(
            key=lambda side: (-result.tricks_of(side[0]), -ranking.lot(seed, min(side)))
        )
        placings.extend(sides)
    if tuple(placings) == result.placings:
        return result
    return MatchResult(table, tuple(placings), result.games_won, result.points, result.tricks)


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
        games = create_games(
            club=tournament.club, user=user, game=tournament.game, new_games=specs
        )
        created = {id(match): game for match, game in zip(starting, games, strict=True)}
    for match in starting:
        # Keep a prefetched ``games`` cache (if any) in step with the new row.
        cache = getattr(match, "_prefetched_objects_cache", {})
        cache.pop("games", None)
    return [created.get(id(match)) for match in matches]
