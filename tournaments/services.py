"""Writes to tournaments: create and configure, register entrants, draw, progress, close.

What it does: the public write API of the app. Each service validates what it is given
(``configuration``), locks the tournament row, and does the work in one transaction, so a refusal
(a ``config.problems.Problem``: 4xx, stable code, JSON pointer) stores nothing. What depends on
the format is asked of its policy (``tournaments.formats``); drawing and advancing go through
``progress``, which calls the policy, and each service returns what it did (the round drawn, a
match's ``progress.MatchProgress``) rather than leave its caller to infer it.

``bump_version`` and ``user_or_none`` are shared with ``tournaments.evening``.

What it does not do: the evening's check-in, swapping entrants and releasing a private round
(``tournaments.evening``); check who may call it (the views do, with ``clubs.permissions``) or
shape reads (``selectors``, ``standings``).

Terms: see ``tournaments.models``; *play settings* are in ``configuration.PLAY_SETTINGS``.
"""

from __future__ import annotations

import secrets

from django.db import transaction
from django.db.models import F, Q
from django.utils import timezone
from django.utils.translation import gettext, ngettext

from clubs.models import Club
from config.preconditions import check_if_match
from config.problems import Problem
from games.models import Game, GameStatus
from tournaments import configuration, progress, snapshots
from tournaments.bridge import draw_problem
from tournaments.changes import TournamentChangeKind
from tournaments.draw.errors import DrawError
from tournaments.formats import policy_for
from tournaments.models import (
    AuditEntry,
    AuditKind,
    Entrant,
    Match,
    MatchStatus,
    Round,
    Tournament,
    TournamentStatus,
)

DEFAULTS = {
    "house_rules": {},
    "entrant_kind": "player",
    "table_size": 2,
    "advancing_per_table": None,
    "sides_per_table": None,
    "movement": "losers_stay",
    "min_table_size": None,
    "match_rule": "best_of",
    "match_games": 1,
    "round_count": None,
    "third_place_match": False,
    "bye_rule": "win",
    "tie_breaks": [],
    "stake_minor": None,
    "entry_fee_minor": None,
    "is_public": False,
    "auto_advance": True,
    "private_draws": False,
}


def bump_version(tournament: Tournament, fields: list[str]) -> None:
    """Save ``fields`` of the locked ``tournament`` with its version up one (its ETag changes),
    and note that its standings moved."""
    tournament.version += 1
    tournament.save(update_fields=[*fields, "version", "updated_at"])
    # Settings, entrants and the status are what the standings are computed from, too.
    snapshots.note_standings_moved(tournament)


def _check_if_match(tournament: Tournament, if_match: str | None) -> None:
    check_if_match(
        if_match,
        etag_of(tournament),
        gettext(
            "The tournament has changed: its ETag is now %(etag)s, not %(sent)s. Fetch it "
            "again and retry."
        )
        % {"etag": etag_of(tournament), "sent": if_match},
    )


def etag_of(tournament: Tournament) -> str:
    return f'"t{tournament.pk}-{tournament.version}"'


def create_tournament(*, club: Club, user, values: dict, entrants: list[dict] = ()) -> Tournament:
    """A tournament of ``club`` from ``values`` (name, game, format, ... see ``DEFAULTS``),
    with its first ``entrants`` registered; everything or nothing is stored."""
    given = set(values)
    unknown = given - set(configuration.SETTINGS)
    if unknown:
        raise Problem(
            code="unknown_field",
            detail=gettext("Unknown settings %(names)s.") % {"names": unknown},
            pointer=f"/{sorted(unknown)[0]}",
        )
    merged = {**DEFAULTS, **values}
    merged = configuration.check_settings(merged, given=given)
    lots_seed = merged.pop("lots_seed", None)
    if lots_seed is None:
        lots_seed = secrets.randbits(62)
    with transaction.atomic():
        tournament = Tournament.objects.create(
            club=club, created_by=user, lots_seed=lots_seed, **merged
        )
        if entrants:
            _register(tournament, user, list(entrants))
    return tournament


def update_tournament(
    *, tournament_id: int, user, changes: dict, if_match: str | None = None
) -> Tournament:
    """Change settings; play settings only before round 1 (409 ``tournament_started``)."""
    with transaction.atomic():
        tournament = progress.lock_tournament(tournament_id)
        _check_if_match(tournament, if_match)
        current = configuration.settings_of(tournament)
        changed = {name: value for name, value in changes.items() if current.get(name) != value}
        if tournament.status == TournamentStatus.CLOSED:
            locked = [name for name in changed if name not in ("name", "is_public")]
            if locked:
                raise Problem(
                    code="tournament_closed",
                    detail=gettext(
                        "The tournament is closed; only its name and visibility may change."
                    ),
                    pointer=f"/{locked[0]}",
                )
        if tournament.status != TournamentStatus.REGISTRATION:
            locked = [name for name in changed if name in configuration.PLAY_SETTINGS]
            if locked:
                raise Problem(
                    code="tournament_started",
                    detail=gettext("Play has begun: %(names)s can no longer change.")
                    % {"names": ", ".join(locked)},
                    errors=[
                        {
                            "code": "tournament_started",
                            "detail": gettext("%(name)s can no longer change once play has begun.")
                            % {"name": name},
                            "pointer": f"/{name}",
                        }
                        for name in locked
                    ],
                )
        if not changed:
            return tournament
        merged = configuration.check_settings({**current, **changed}, given=set(changed))
        if tournament.status == TournamentStatus.REGISTRATION and "entrant_kind" in changed:
            if tournament.entrants.exists():
                raise Problem(
                    code="entrants_registered",
                    detail=gettext("Remove the entrants before changing entrant_kind."),
                    pointer="/entrant_kind",
                )
        if "format" in changed:
            # Options of the old format that the new one does not take go back to their
            # defaults (options given in this request were checked by check_settings).
            for option, formats in configuration.FORMAT_OPTIONS.items():
                if merged["format"] not in formats and option not in changed:
                    merged[option] = DEFAULTS[option]
                    changed[option] = DEFAULTS[option]
        for name in changed:
            setattr(tournament, name, merged[name])
        bump_version(tournament, list(changed))
    return tournament


def accepts_late_entrants(tournament: Tournament) -> bool:
    """A tournament under way whose format takes a late arrival into its next draw (a drive or
    a Swiss; a bracket or a round robin, whose rounds are fixed from the start, does not)."""
    return (
        tournament.status == TournamentStatus.IN_PROGRESS
        and policy_for(tournament).accepts_late_entrants
    )


def _register(tournament: Tournament, user, items: list[dict], pointer="/entrants") -> list:
    if tournament.status != TournamentStatus.REGISTRATION and not accepts_late_entrants(tournament):
        raise Problem(
            code="tournament_started",
            detail=gettext(
                "Entrants can only be registered before round 1 is "
                "drawn (or, in a drive or a Swiss under way, before its "
                "next round)."
            ),
            pointer=pointer,
        )
    accepted = configuration.check_entrants(tournament, items, pointer=pointer)
    created = [
        Entrant.objects.create(tournament=tournament, player=player, team=team, seed=seed)
        for player, team, seed in accepted
    ]
    return created


def register_entrants(*, tournament_id: int, user, entrants: list[dict]) -> list[Entrant]:
    """Add entrants (all or none); see ``configuration.check_entrants`` for the checks."""
    with transaction.atomic():
        tournament = progress.lock_tournament(tournament_id)
        created = _register(tournament, user, entrants)
        bump_version(tournament, [])
    return created


def update_entrant(*, tournament_id: int, entrant_id: int, user, seed: int | None) -> Entrant:
    """Change an entrant's seed, before round 1."""
    with transaction.atomic():
        tournament = progress.lock_tournament(tournament_id)
        entrant = _get_entrant(tournament, entrant_id)
        if tournament.status != TournamentStatus.REGISTRATION:
            raise Problem(
                code="tournament_started",
                detail=gettext("Seeds are fixed once round 1 is drawn."),
                pointer="/seed",
            )
        if (
            seed is not None
            and tournament.entrants.filter(seed=seed).exclude(pk=entrant.pk).exists()
        ):
            raise Problem(
                code="duplicate_seed",
                detail=gettext("Seed %(seed)s is taken.") % {"seed": seed},
                pointer="/seed",
            )
        entrant.seed = seed
        entrant.save(update_fields=["seed"])
        bump_version(tournament, [])
    return entrant


def remove_entrant(*, tournament_id: int, entrant_id: int, user) -> None:
    with transaction.atomic():
        tournament = progress.lock_tournament(tournament_id)
        entrant = _get_entrant(tournament, entrant_id)
        if tournament.status != TournamentStatus.REGISTRATION:
            raise Problem(
                code="tournament_started",
                detail=gettext("Entrants cannot be removed once round 1 is drawn."),
            )
        entrant.delete()
        bump_version(tournament, [])


def _get_entrant(tournament: Tournament, entrant_id: int) -> Entrant:
    entrant = tournament.entrants.filter(pk=entrant_id).first()
    if entrant is None:
        raise Problem(
            code="not_found",
            detail=gettext("Tournament %(tournament)s has no entrant %(entrant)s.")
            % {"tournament": tournament.pk, "entrant": entrant_id},
        )
    return entrant


def draw_next_round(*, tournament_id: int, user) -> Round:
    """Draw the next round (knockout: round 1; later rounds fill by themselves)."""
    with transaction.atomic():
        tournament = progress.lock_tournament(tournament_id)
        if tournament.status == TournamentStatus.CLOSED:
            raise Problem(code="tournament_closed", detail=gettext("The tournament is closed."))
        if tournament.status == TournamentStatus.FINISHED:
            raise Problem(
                code="tournament_complete",
                detail=gettext("Every round has been played."),
            )
        try:
            round_ = progress.draw_round(tournament, user)
        except DrawError as error:
            raise draw_problem(error) from error
        AuditEntry.objects.create(
            tournament=tournament,
            kind=AuditKind.ROUND_DRAWN,
            user=user_or_none(user),
            details={"round": round_.number},
        )
        snapshots.note_standings_moved(
            tournament,
            kinds=(TournamentChangeKind.ROUND_DRAWN,),
            round_number=round_.number,
            actor=user,
        )
    return round_


def user_or_none(user):
    """The user to keep on an audit entry: None for an anonymous one (a task)."""
    return user if getattr(user, "is_authenticated", False) else None


def close_tournament(*, tournament_id: int, user) -> Tournament:
    """Close: results are final. Refused (409 ``matches_undecided``) while a match is undecided."""
    with transaction.atomic():
        tournament = progress.lock_tournament(tournament_id)
        if tournament.status == TournamentStatus.CLOSED:
            raise Problem(
                code="tournament_closed",
                detail=gettext("The tournament is already closed."),
            )
        undecided = (
            Match.objects.filter(tournament=tournament).exclude(status=MatchStatus.DECIDED).count()
        )
        if undecided:
            raise Problem(
                code="matches_undecided",
                detail=ngettext(
                    "%(count)s match is still undecided; finish it first.",
                    "%(count)s matches are still undecided; finish them first.",
                    undecided,
                )
                % {"count": undecided},
            )
        tournament.status = TournamentStatus.CLOSED
        tournament.closed_at = timezone.now()
        tournament.version += 1
        tournament.save(update_fields=["status", "closed_at", "version", "updated_at"])
        AuditEntry.objects.create(
            tournament=tournament, kind=AuditKind.CLOSED, user=user_or_none(user), details={}
        )
        snapshots.note_standings_moved(tournament, kinds=(TournamentChangeKind.CLOSED,), actor=user)
    return tournament


def progress_match(*, match_id: int, user=None) -> progress.MatchProgress:
    """Recompute one match from its games and advance its tournament (safe to run twice);
    returns what it did."""
    with transaction.atomic():
        tournament = progress.lock_tournament_of_match(match_id)
        if tournament is None:
            return progress.MatchProgress(match_id, "missing")
        return progress.advance_match(tournament, match_id, user)


def list_matches_needing_progress() -> list[int]:
    """Matches of running tournaments whose games say something they do not show yet."""
    running = Match.objects.filter(
        tournament__status__in=[TournamentStatus.IN_PROGRESS, TournamentStatus.FINISHED],
        is_bye=False,
    )
    undecided = running.exclude(status=MatchStatus.DECIDED)
    busy = set(
        Game.objects.filter(
            match_link__match__in=undecided, status=GameStatus.IN_PROGRESS
        ).values_list("match_link__match_id", flat=True)
    )
    # Undecided matches with all their entrants and no game in progress: they need a game, or
    # their last game decided them.
    idle = set(undecided.filter(slots__entrant__isnull=False).values_list("pk", flat=True)) - busy
    # Decided matches with a game in progress, or a game changed since the decision.
    decided = running.filter(status=MatchStatus.DECIDED)
    stale = set(
        decided.filter(
            Q(games__status=GameStatus.IN_PROGRESS) | Q(games__updated_at__gt=F("decided_at"))
        ).values_list("pk", flat=True)
    )
    return sorted(idle | stale)
