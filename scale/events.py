"""A club's tournaments: finished events of every format, run by the tournaments' own services.

What it does: ``write_events`` holds ``count`` events of the club over the calendar year,
cycling through ``PLANS`` (a knockout of pairs at tables of two with a third-place match, a
round robin at tables of three, a swiss at tables of three, a 25 drive with progressive
partners, knockouts at tables of three and of five). Each one is run through the same code as a
live evening, so every row is the one that code writes:

- ``tournaments.services.create_tournament`` stores it with its entrants (a pairs event's teams
  by ``clubs.services.create_team``), ``services.draw_next_round`` draws round 1, and
  ``play.start_matches`` creates each match's games (``games.services.create_games``: seats,
  sides, first dealer, stake and house rules as for any tournament game);
- each game so created is then *played* by a whole game of the pool (``scale.pool``) of the same
  table kind and first dealer: its hands loaded by ``COPY`` and its final fields (totals,
  status, winner, version 1 + one per hand) written as ``games.services.record_hand`` leaves
  them, with the ledger's one booking (``games.ledger.stake_shares``), as ``scale.nights``
  plays a night's games;
- the calls ``services.progress_match`` (what the match progress task runs) makes then decide
  each match from its games and store its result and slots (``progress.refresh_match``), and
  advance the tournament with the format's policy: knockout tables fill, later rounds are drawn
  (round robin schedule, swiss pairing, drive movement) and their games started, and the
  tournament finishes after its last round — made once for each batch of games played
  (``_progress_matches``);
- ``services.close_tournament`` closes it, ``settlements.settle_up.settle_event`` stores its
  first settle-up version, and ``tournaments.snapshots.refresh_standings`` (the job) stores its
  standings snapshot at its data version.

It returns each game's facts (``scale.nights.GameFacts``) for the season table and the ratings:
tournament games are club games, and the season's jobs count them.

While an event runs, the clock those services read (``django.utils.timezone.now``) is the
event's (an afternoon of the year), and nothing is announced or queued: ``Announcer.announce``
and ``transaction.on_commit`` do nothing, as a history load has no listener (``_quiet``).

What it does not do: disputes, corrections, late arrivals, private draws, check-ins, hall
screens, entry-fee payments, prize splits or transfers marked paid; games' per-hand history rows
(the service's "game created" row is written, as by ``create_games``).

Terms: *plan*: one kind of event (``EventPlan``); *kind*: the pool's table kind (``TABLES``)
whose games the event's tables play.
"""

from __future__ import annotations

import contextlib
import datetime
import random
from dataclasses import dataclass, field
from unittest import mock

from django.db import transaction
from django.utils import timezone

from clubs.models import Club, Team, TeamMember
from clubs.services import create_team
from config.announce import Announcer
from games.models import Game, GameStatus, Hand
from scale.nights import GameFacts, write_ledger
from scale.pool import PooledGame
from settlements.settle_up import settle_event
from tournaments import play, progress, services, snapshots
from tournaments.changes import TournamentChangeKind
from tournaments.formats import policy_for
from tournaments.models import (
    AuditEntry,
    Entrant,
    Match,
    MatchEntrant,
    MatchGame,
    Round,
    StandingsSnapshot,
    Tournament,
)

SERVICE_MODELS = [
    Team,
    TeamMember,
    Tournament,
    Entrant,
    Round,
    Match,
    MatchEntrant,
    MatchGame,
    AuditEntry,
    StandingsSnapshot,
]
"""The tables only the services write here (the report lists them beside the loaded ones)."""


@dataclass(frozen=True)
class EventPlan:
    """One kind of event: its settings (``create_tournament``'s values), how many entrants, and
    the pool's table kind its tables play."""

    name: str
    kind: int
    entrants: int
    values: dict = field(default_factory=dict)
    team_size: int = 0  # 0: individual entrants


PLANS: tuple[EventPlan, ...] = (
    EventPlan(
        "Pairs cup",
        kind=6,  # 25 in pairs: a table of two teams, four seats
        entrants=8,
        team_size=2,
        values={
            "format": "knockout",
            "game": "25",
            "entrant_kind": "team",
            "table_size": 2,
            "match_rule": "best_of",
            "match_games": 3,
            "third_place_match": True,
        },
    ),
    EventPlan(
        "League",
        kind=0,  # 220 three-handed
        entrants=9,
        values={"format": "round_robin", "game": "220", "table_size": 3},
    ),
    EventPlan(
        "Swiss evening",
        kind=3,  # 110 three-handed
        entrants=12,
        values={"format": "swiss", "game": "110", "table_size": 3, "round_count": 3},
    ),
    EventPlan(
        "25 drive",
        kind=6,  # 25 at tables of four, partners drawn anew each game
        entrants=16,
        values={
            "format": "drive",
            "game": "25",
            "table_size": 4,
            "sides_per_table": 2,
            "round_count": 4,
        },
    ),
    EventPlan(
        "Threes cup",
        kind=3,  # 110 three-handed
        entrants=9,
        values={
            "format": "knockout",
            "game": "110",
            "table_size": 3,
            "match_rule": "first_to",
            "match_games": 2,
        },
    ),
    EventPlan(
        "Fives cup",
        kind=2,  # 110 five-handed
        entrants=25,
        values={"format": "knockout", "game": "110", "table_size": 5},
    ),
)
"""Every format the tournaments app supports, at table kinds the pool plays."""

ENTRY_FEE_MINOR = 500
"""Every other event takes an entry fee at the door (the club's pot, in its settle-up)."""


class _Clock:
    def __init__(self, now: datetime.datetime) -> None:
        self.now = now

    def __call__(self) -> datetime.datetime:
        return self.now


@contextlib.contextmanager
def _quiet(clock: _Clock):
    """The services' clock is the event's; nothing is announced or queued after the commit."""
    with (
        mock.patch.object(timezone, "now", clock),
        mock.patch.object(Announcer, "announce", lambda self, change: None),
        mock.patch.object(transaction, "on_commit", lambda *args, **kwargs: None),
    ):
        yield


def event_times(year: int, count: int) -> list[datetime.datetime]:
    """``count`` Saturdays' afternoons (14:00 UTC) spread over the year."""
    first = datetime.datetime(year, 1, 4, 14, 0, tzinfo=datetime.UTC)  # 2025-01-04: a Saturday
    step = 52 // max(count, 1)
    return [first + datetime.timedelta(weeks=step * index + step // 2) for index in range(count)]


def _by_dealer(pool: list[list[PooledGame]]) -> dict[tuple[int, int], list[PooledGame]]:
    found: dict[tuple[int, int], list[PooledGame]] = {}
    for games in pool:
        for game in games:
            found.setdefault((game.kind, game.first_dealer), []).append(game)
    return found


def _play(loader, rng: random.Random, by_dealer, kind: int, game: Game, seats, start) -> GameFacts:
    """Play the service's new ``game`` with a pooled game of its kind and first dealer."""
    choices = by_dealer.get((kind, game.first_dealer))
    if not choices:
        raise ValueError(
            f"the pool holds no finished game of table kind {kind} dealt first by seat "
            f"{game.first_dealer}: raise --pool-games"
        )
    pooled = rng.choice(choices)
    if pooled.side_of_seat != game.side_of_seat or pooled.house_rules != game.house_rules:
        raise ValueError(f"game {game.pk} is not seated or ruled as table kind {kind}")
    finished = start + datetime.timedelta(seconds=pooled.hands[-1].entered_offset)
    version = 1 + len(pooled.hands)
    for number, (hand, tail) in enumerate(zip(pooled.hands, pooled.tails, strict=True), 1):
        entered = (start + datetime.timedelta(seconds=hand.entered_offset)).isoformat()
        loader.add_line(
            Hand, f"{loader.next_id(Hand)}\t{game.pk}\t{number}\t{tail}\t{entered}\t{entered}"
        )
    Game.objects.filter(pk=game.pk).update(
        status=GameStatus.FINISHED,
        winner_side=pooled.winner_side,
        double_stake=pooled.double_stake,
        totals=pooled.totals,
        next_dealer=pooled.next_dealer,
        hands_played=len(pooled.hands),
        engine_state=pooled.engine_state,
        updated_at=finished,
        version=version,
    )
    shares = write_ledger(
        loader,
        club_id=game.club_id,
        game_id=game.pk,
        seats=seats,
        pooled=pooled,
        stake_minor=game.stake_minor,
        finished=finished,
    )
    return GameFacts(game.pk, version, finished, seats, pooled.totals, pooled.winner_side, shares)


def _unplayed(tournament_id: int) -> list[Game]:
    """The tournament's games the services started and nobody has played yet."""
    return list(
        Game.objects.filter(
            match_link__match__tournament_id=tournament_id,
            status=GameStatus.IN_PROGRESS,
            hands_played=0,
        )
        .prefetch_related("seats")
        .order_by("pk")
    )


def _progress_matches(tournament_id: int, match_ids: list[int]) -> None:
    """``services.progress_match`` for a batch of matches whose games were just played, as one
    step: the same calls (``progress.refresh_match`` for each, then the format's ``advance``,
    ``play.start_matches`` of what it stored, ``snapshots.note_standings_moved``), the matches
    loaded together and the tournament advanced once (its policies recompute from the stored
    rows, so once after the batch stores what once after each match would)."""
    with transaction.atomic():
        tournament = progress.lock_tournament(tournament_id)
        matches = [match for match in play.load_matches(match_ids) if match is not None]
        changed = stored = False
        for match in matches:
            refreshed = progress.refresh_match(match, tournament, None)
            changed |= refreshed.placings_changed
            stored |= refreshed.stored
        advanced = policy_for(tournament).advance(
            tournament,
            None,
            round_number=max(match.round.number for match in matches),
            changed=changed,
        )
        play.start_matches(advanced.to_start, tournament, None)
        kinds = [TournamentChangeKind.MATCH_DECIDED] if changed else []
        if advanced.round_drawn is not None:
            kinds.append(TournamentChangeKind.ROUND_DRAWN)
        if kinds or stored or advanced.stored:
            snapshots.note_standings_moved(
                tournament,
                kinds=kinds,
                match_ids=tuple(match_ids),
                round_number=advanced.round_drawn,
            )


def _write_event(
    loader,
    rng,
    by_dealer,
    club: Club,
    plan: EventPlan,
    player_ids,
    *,
    name,
    start,
    stake_minor,
    clock,
) -> list[GameFacts]:
    clock.now = start - datetime.timedelta(days=7)
    values = {
        "name": name,
        "is_public": True,
        "lots_seed": rng.randrange(1 << 62),
        "stake_minor": stake_minor,
        **plan.values,
    }
    if rng.random() < 0.5:
        values["entry_fee_minor"] = ENTRY_FEE_MINOR
    if plan.team_size:
        chosen = rng.sample(player_ids, plan.entrants * plan.team_size)
        entrants = [
            {
                "team": create_team(
                    club=club,
                    name=f"{name}, pair {number + 1}",
                    member_ids=chosen[number * plan.team_size : (number + 1) * plan.team_size],
                ).pk
            }
            for number in range(plan.entrants)
        ]
    else:
        entrants = [{"player": player} for player in rng.sample(player_ids, plan.entrants)]
    tournament = services.create_tournament(club=club, user=None, values=values, entrants=entrants)
    clock.now = start
    services.draw_next_round(tournament_id=tournament.pk, user=None)
    played: list[GameFacts] = []
    while games := _unplayed(tournament.pk):
        facts = []
        for game in games:
            seats = [(seat.seat, seat.player_id, seat.side) for seat in game.seats.all()]
            begins = game.created_at + datetime.timedelta(seconds=rng.randrange(30, 300))
            facts.append(_play(loader, rng, by_dealer, plan.kind, game, seats, begins))
        loader.flush()
        played.extend(facts)
        clock.now = max(one.finished_at for one in facts) + datetime.timedelta(minutes=2)
        match_ids = MatchGame.objects.filter(game_id__in=[game.pk for game in games])
        _progress_matches(tournament.pk, sorted(match_ids.values_list("match_id", flat=True)))
    clock.now += datetime.timedelta(minutes=10)
    services.close_tournament(tournament_id=tournament.pk, user=None)
    settle_event(tournament_id=tournament.pk)
    snapshots.refresh_standings(tournament_id=tournament.pk)
    return played


def write_events(
    loader,
    rng: random.Random,
    pool: list[list[PooledGame]],
    plan_of_club,
    *,
    count: int,
    year: int,
) -> list[GameFacts]:
    """The club's ``count`` events over ``year`` (plans in turn, starting where the previous club
    stopped); the club's rows must be in the database (flushed) first."""
    if count < 1:
        return []
    by_dealer = _by_dealer(pool)
    club = Club.objects.get(pk=plan_of_club.club_id)
    played: list[GameFacts] = []
    clock = _Clock(datetime.datetime(year, 1, 1, tzinfo=datetime.UTC))
    with _quiet(clock):
        for index, start in enumerate(event_times(year, count)):
            plan = PLANS[(plan_of_club.number * count + index) % len(PLANS)]
            if plan.entrants * max(plan.team_size, 1) > len(plan_of_club.player_ids):
                raise ValueError(
                    f"{plan.name} needs {plan.entrants * max(plan.team_size, 1)} players, the "
                    f"club has {len(plan_of_club.player_ids)}: raise --players-per-club"
                )
            played.extend(
                _write_event(
                    loader,
                    rng,
                    by_dealer,
                    club,
                    plan,
                    plan_of_club.player_ids,
                    name=f"{plan.name} {index + 1}",
                    start=start,
                    stake_minor=plan_of_club.stake_minor,
                    clock=clock,
                )
            )
    return played
