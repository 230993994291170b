"""Reads of the hall screen: the link a credential opens, the screen's entity tag in one query,
and what the screen shows.

What it does: ``get_hall_fingerprint(credential)`` reads, in ONE query, the live hall link a token
or short code names together with everything the screen's content depends on (the tournament's
status and version, the released rounds' matches and games — their number, summed versions and last
change —, the stored standings' and settle-up's versions, the club's names, the hall's settings
version): an idle screen's poll costs that query and nothing else (``hall_etag`` turns it into the
tag; docs/hall.md) — a club night's link reads its night's instead (who checked in, its games'
count and versions, its settle-up, its status). ``hall_state(tournament_id)`` is an event screen's
JSON: the panel to show and its data (below); ``hall.nights.screen_state(fingerprint)`` answers a
link's screen, an event's or a night's. ``get_event_hall`` gives the console and the organiser's
API the event's settings and live link.

The panels: ``waiting`` (no round released yet: who has checked in so far, ``present``),
``seats`` (a round is released and no hand has been played at any table nor the clock started
for it: every player, alphabetical, with table and seat), ``play`` (tables still playing with
their names and score, and the leaders unless the organiser hides them), ``winners`` (the event
is finished or closed: the places and, once settled, the prizes).

What it does not do: write (``hall.services``), check the guessing limit (the views, with
``table_links.guessing``), or put words on the screen (the page's script does, in the reader's
language: the JSON holds data, names and amounts only — amounts as the API writes them,
``games.money.amount_string``, with the club's ``currency``).

Terms: a hall link is *over* when revoked, when whoever made it is no longer active, or
``HALL_AFTER_CLOSE`` after its event closed (the winners stay on the wall for the evening).
"""

from __future__ import annotations

import hashlib
from datetime import UTC, datetime, timedelta

from django.db.models import Count, F, Max, OuterRef, Q, Subquery, Sum
from django.utils import timezone

from clubs.models import Player
from games.money import amount_string
from hall import clock as hall_clock
from hall.models import HallLink, HallSettings
from settlements.models import NightAttendance, NightGame, Settlement
from table_links.selectors import digest, normalise_code
from tournaments.models import (
    Match,
    MatchGame,
    Round,
    StandingsSnapshot,
    Tournament,
    TournamentStatus,
)
from tournaments.play import load_matches

HALL_AFTER_CLOSE = timedelta(hours=6)
LEADERS_SHOWN = 10
WINNERS_SHOWN = 3


def get_hall_fingerprint(credential: str) -> dict | None:
    """The live hall link ``credential`` names, with its screen's fingerprint: one query.
    None when it names no live link (unknown, revoked, its maker inactive)."""
    if not credential or len(credential) > 128:
        return None
    hashes = {digest(credential), digest(normalise_code(credential))}
    event, night = OuterRef("tournament"), OuterRef("night")
    released = Q(round__released_at__isnull=False)
    games = (
        MatchGame.objects.filter(match__tournament=event, match__round__released_at__isnull=False)
        .order_by()
        .values("match__tournament")
    )
    matches = Match.objects.filter(released, tournament=event).order_by().values("tournament")
    night_games = NightGame.objects.filter(night=night).order_by().values("night")
    attendance = NightAttendance.objects.filter(night=night).order_by().values("night")
    return (
        HallLink.objects.filter(
            Q(token_hash__in=hashes) | Q(code_hash__in=hashes),
            revoked_at__isnull=True,
            created_by__is_active=True,
        )
        .annotate(
            games=Subquery(games.annotate(count=Count("id")).values("count")),
            game_versions=Subquery(games.annotate(total=Sum("game__version")).values("total")),
            matches_count=Subquery(matches.annotate(count=Count("id")).values("count")),
            matches_changed=Subquery(matches.annotate(last=Max("updated_at")).values("last")),
            standings_version=Subquery(
                StandingsSnapshot.objects.filter(tournament=event).values("version")[:1]
            ),
            settlement_version=Subquery(
                Settlement.objects.filter(tournament=event)
                .order_by("-version")
                .values("version")[:1]
            ),
            # a night's: who checked in, its games (a start, a hand, a finish), its settle-up
            present_count=Subquery(attendance.annotate(count=Count("id")).values("count")),
            night_games=Subquery(night_games.annotate(count=Count("id")).values("count")),
            night_game_versions=Subquery(
                night_games.annotate(total=Sum("game__version")).values("total")
            ),
            night_settlement_version=Subquery(
                Settlement.objects.filter(night=night).order_by("-version").values("version")[:1]
            ),
        )
        .values(
            "pk",
            "tournament_id",
            "night_id",
            "games",
            "game_versions",
            "matches_count",
            "matches_changed",
            "standings_version",
            "settlement_version",
            "present_count",
            "night_games",
            "night_game_versions",
            "night_settlement_version",
            status=F("tournament__status"),
            closed_at=F("tournament__closed_at"),
            tournament_version=F("tournament__version"),
            names_version=F("tournament__club__names_version"),
            hall_version=F("tournament__hall_settings__version"),
            night_status=F("night__status"),
            night_closed_at=F("night__closed_at"),
            night_names_version=F("night__club__names_version"),
            night_hall_version=F("night__hall_settings__version"),
        )
        .first()
    )


def is_link_over(fingerprint: dict, now: datetime) -> bool:
    if fingerprint["night_id"] is not None:
        status, closed_at = fingerprint["night_status"], fingerprint["night_closed_at"]
    else:
        status, closed_at = fingerprint["status"], fingerprint["closed_at"]
    return (
        status == TournamentStatus.CLOSED
        and closed_at is not None
        and (closed_at + HALL_AFTER_CLOSE <= now)
    )


def hall_etag(fingerprint: dict) -> str:
    """A weak tag of what the screen shows."""
    parts = sorted(fingerprint.items())
    return f'W/"hall-{hashlib.sha256(repr(parts).encode()).hexdigest()[:20]}"'


def scope_of(event) -> dict:
    """``{"tournament": event}`` or ``{"night": event}``: the rows of a tournament's or a night's
    hall."""
    return {"tournament": event} if isinstance(event, Tournament) else {"night": event}


def get_event_hall(event) -> tuple[HallSettings, HallLink | None]:
    """The hall settings of an event or a night (unsaved defaults before the first change) and
    its live link."""
    scope = scope_of(event)
    settings = HallSettings.objects.filter(**scope).first()
    if settings is None:
        settings = HallSettings(**scope)
    link = (
        HallLink.objects.filter(revoked_at__isnull=True, **scope)
        .select_related("created_by")
        .first()
    )
    return settings, link


def iso(moment: datetime | None) -> str | None:
    if moment is None:
        return None
    return moment.astimezone(UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")


def clock_state(settings: HallSettings, now: datetime) -> dict:
    """The clock as the screen and the console read it (``remaining_ms`` at ``now``)."""
    clock = hall_clock.Clock(
        state=settings.clock_state,
        ends_at=settings.clock_ends_at,
        remaining_ms=settings.clock_remaining_ms,
    )
    remaining = hall_clock.remaining_ms(clock, now)
    return {
        "state": settings.clock_state,
        "round": settings.clock_round,
        "ends_at": iso(settings.clock_ends_at) if settings.clock_state == "running" else None,
        "remaining_ms": remaining,
        "ending": remaining is not None and remaining <= hall_clock.ENDING_MS,
    }


def _current_game(match: Match):
    games = sorted(match.games.all(), key=lambda game: game.pk)
    playing = [game for game in games if game.status == "in_progress"]
    return playing[-1] if playing else (games[-1] if games else None)


def _entrant_players(slot) -> list[str]:
    entrant = slot.entrant
    if entrant is None:
        return []
    if entrant.team_id is not None:
        return [member.player.display_name for member in entrant.team.team_members.all()]
    return [entrant.player.display_name]


def _present_names(tournament: Tournament) -> list[str]:
    """The names of the entrants marked present (at the door, by a phone or on the console),
    alphabetical: the waiting panel's "checked in" list. Marking present bumps the
    tournament's version, so the screen's fingerprint changes with it."""
    entrants = tournament.entrants.filter(is_present=True).select_related("player", "team")
    names = [
        entrant.team.name if entrant.team_id is not None else entrant.player.display_name
        for entrant in entrants
    ]
    return sorted(names, key=str.casefold)


def _round_tables(round_: Round) -> tuple[list[dict], list[dict], bool]:
    """The round's seats (alphabetical), its tables still playing, and whether play began."""
    matches = [match for match in load_matches(list(round_.matches.values_list("pk", flat=True)))]
    matches = [match for match in matches if match is not None]
    player_ids = {
        seat.player_id
        for match in matches
        for game in match.games.all()
        for seat in game.seats.all()
    }
    names = dict(Player.objects.filter(pk__in=player_ids).values_list("pk", "display_name"))
    seats, playing, began = [], [], False
    for match in sorted(matches, key=lambda match: match.table):
        game = _current_game(match)
        if match.is_bye or game is None:
            for slot in match.slots.all():
                for name in _entrant_players(slot):
                    seats.append({"name": name, "table": None, "seat": None})
            continue
        if any(game.hands_played for game in match.games.all()) or match.status == "decided":
            began = True
        ordered = sorted(game.seats.all(), key=lambda seat: seat.seat)
        for seat in ordered:
            name = names.get(seat.player_id, "?")
            seats.append({"name": name, "table": match.table, "seat": seat.seat + 1})
        if match.status != "decided":
            totals = game.totals or []
            playing.append(
                {
                    "table": match.table,
                    "sides": [
                        {
                            "names": [
                                names.get(seat.player_id, "?")
                                for seat in ordered
                                if seat.side == index
                            ],
                            "score": total,
                        }
                        for index, total in enumerate(totals)
                    ],
                }
            )
    seats.sort(key=lambda row: (row["name"].casefold(), row["table"] or 0, row["seat"] or 0))
    return seats, playing, began


def _standings_rows(tournament: Tournament) -> list[dict]:
    body = (
        StandingsSnapshot.objects.filter(tournament=tournament).values_list("body", flat=True)
    ).first()
    rows = (body or {}).get("standings", [])
    return [
        {
            "place": row["place"],
            "name": row["entrant"]["name"],
            "wins": row["match_wins"],
            "points": row["points_for"],
        }
        for row in rows
    ]


def prize_groups(settlement: Settlement | None, club) -> list[dict]:
    """A settle-up version's prize groups as the screen shows them (places, names, amounts as
    ``games.money.amount_string`` writes them); none before the first version."""
    if settlement is None:
        return []
    return [
        {
            "first": group["first"],
            "last": group["last"],
            "shares": [
                {"name": name, "amount": amount_string(amount, club)}
                for name, amount in group["shares"]
            ],
        }
        for group in settlement.details.get("prizes", [])
    ]


def _prizes(tournament: Tournament) -> list[dict]:
    settlement = (
        Settlement.objects.filter(tournament=tournament).order_by("-version").only("details")
    ).first()
    return prize_groups(settlement, tournament.club)


def hall_state(tournament_id: int, now: datetime | None = None) -> dict:
    """The screen's JSON (docs/hall.md): ``panel`` and its data, the round, the clock and the
    server's time; a fixed number of queries however many tables."""
    now = now or timezone.now()
    tournament = Tournament.objects.select_related("club").get(pk=tournament_id)
    settings = HallSettings.objects.filter(tournament=tournament).first() or HallSettings(
        tournament=tournament
    )
    round_ = tournament.rounds.released().order_by("-number").first()
    state = {
        "kind": "event",
        "event": {"name": tournament.name, "club": tournament.club.name},
        "currency": tournament.club.currency,
        "status": tournament.status,
        "server_time": iso(now),
        "clock": clock_state(settings, now),
        "round": round_.number if round_ is not None else None,
        "rounds_planned": tournament.round_count,
        "hide_leaders": settings.hide_leaders,
        "seats": [],
        "tables": [],
        "leaders": [],
        "leaders_hidden": False,
        "winners": [],
        "prizes": [],
        "present": [],
    }
    if tournament.status in (TournamentStatus.FINISHED, TournamentStatus.CLOSED):
        rows = _standings_rows(tournament)
        state["panel"] = "winners"
        state["clock"] = clock_state(HallSettings(tournament=tournament), now)  # no round runs
        state["winners"] = [row for row in rows if row["place"] <= WINNERS_SHOWN]
        state["prizes"] = _prizes(tournament)
        return state
    if round_ is None:
        state["panel"] = "waiting"
        state["present"] = _present_names(tournament)
        return state
    seats, playing, began = _round_tables(round_)
    clock_on = settings.clock_state != "idle" and settings.clock_round == round_.number
    if not began and not clock_on:
        state["panel"] = "seats"
        state["seats"] = seats
        return state
    state["panel"] = "play"
    state["tables"] = playing
    if settings.hide_leaders:
        state["leaders_hidden"] = True
    else:
        state["leaders"] = _standings_rows(tournament)[:LEADERS_SHOWN]
    return state
