"""The hall screen of a club night: what it shows, and which screen a hall link answers.

What it does: ``night_hall_state(night_id)`` is a night screen's JSON, in the event screen's
shape (``hall.selectors.hall_state``; ``kind`` ``night``, no round): ``waiting`` (no game at a
table yet: who has checked in, ``present``), ``play`` (the tables whose game is still in
progress, their names and score, from ``settlements.night_tables.list_night_tables``; the
leaders — the night's players by games won, level ones by name — unless the organiser hides
them), ``winners`` (the night is closed: its places, games won and net from the latest settle-up
version, and its prizes as an event's). The clock is the event's (``hall.clock``), with no
round. ``screen_state(fingerprint)`` answers a hall link's screen: an event's or a night's.
A fixed number of queries however many tables.

What it does not do: write (``hall.services``), check credentials (``hall.selectors``) or put
words on the screen (the page's script).

Terms: *games won* — a finished game whose winning side the player sat on
(``Game.winner_side``), as the night's settle-up places them (``settlements.settle_up``).
"""

from __future__ import annotations

from datetime import datetime

from django.db.models import Count, F, Q
from django.utils import timezone

from games.models import GameSeat, GameStatus
from games.money import amount_string
from hall.models import HallSettings
from hall.selectors import (
    LEADERS_SHOWN,
    WINNERS_SHOWN,
    clock_state,
    hall_state,
    iso,
    prize_groups,
)
from settlements import attendance
from settlements.models import Night, NightGame, NightStatus, Settlement
from settlements.night_tables import list_night_tables


def screen_state(fingerprint: dict, now: datetime | None = None) -> dict:
    """The screen's JSON for the link ``fingerprint`` read (``get_hall_fingerprint``)."""
    if fingerprint["night_id"] is not None:
        return night_hall_state(fingerprint["night_id"], now)
    return hall_state(fingerprint["tournament_id"], now)


def night_leaders(night: Night) -> list[dict]:
    """The night's players by games won (level ones by name): ``{"place", "name",
    "player", "wins", "games"}``, players level on wins sharing a place (one query)."""
    finished = Q(game__status=GameStatus.FINISHED)
    rows = list(
        GameSeat.objects.filter(game_id__in=NightGame.objects.filter(night=night).values("game_id"))
        .values("player_id", name=F("player__display_name"))
        .annotate(
            wins=Count("game", filter=finished & Q(side=F("game__winner_side")), distinct=True),
            games=Count("game", filter=finished, distinct=True),
        )
        .order_by()
    )
    rows.sort(key=lambda row: (-row["wins"], row["name"].casefold()))
    return [
        {
            "place": 1 + sum(1 for other in rows if other["wins"] > row["wins"]),
            "name": row["name"],
            "player": row["player_id"],
            "wins": row["wins"],
            "games": row["games"],
        }
        for row in rows
    ]


def _table_sides(table: dict) -> list[dict]:
    game = table["game"]
    totals = list(game.totals or [])
    sides: dict[int, list[str]] = {}
    for seat in sorted(game.seats.all(), key=lambda seat: seat.seat):
        sides.setdefault(seat.side, []).append(seat.player.display_name)
    return [
        {"names": names, "score": totals[index] if index < len(totals) else 0}
        for index, names in sorted(sides.items())
    ]


def _winners(night: Night, club) -> tuple[list[dict], list[dict]]:
    """The closed night's winners (places, wins, net) and prizes: the latest settle-up version's
    (two queries), else the games' alone (before the settle-up is stored)."""
    leaders = night_leaders(night)
    settlement = (
        Settlement.objects.filter(night=night).order_by("-version").only("lines", "details")
    ).first()
    if settlement is None:
        return [dict(row, net=None) for row in leaders if row["place"] <= WINNERS_SHOWN], []
    places = {int(key): place for key, place in settlement.details.get("places", {}).items()}
    nets = {line["player"]: line["net"] for line in settlement.lines if line.get("player")}
    winners = [
        dict(
            row,
            place=places.get(row["player"], row["place"]),
            net=amount_string(nets[row["player"]], club) if row["player"] in nets else None,
        )
        for row in leaders
    ]
    winners = sorted(
        (row for row in winners if row["place"] <= WINNERS_SHOWN),
        key=lambda row: (row["place"], row["name"].casefold()),
    )
    return winners, prize_groups(settlement, club)


def night_hall_state(night_id: int, now: datetime | None = None) -> dict:
    """A night screen's JSON (docs/hall.md): ``panel`` and its data, the clock and the server's
    time; a fixed number of queries however many tables."""
    now = now or timezone.now()
    night = Night.objects.select_related("club").get(pk=night_id)
    club = night.club
    settings = HallSettings.objects.filter(night=night).first() or HallSettings(night=night)
    state = {
        "kind": "night",
        "event": {"name": night.name, "club": club.name},
        "currency": club.currency,
        "status": night.status,
        "server_time": iso(now),
        "clock": clock_state(settings, now),
        "round": None,
        "rounds_planned": None,
        "hide_leaders": settings.hide_leaders,
        "seats": [],
        "tables": [],
        "leaders": [],
        "leaders_hidden": False,
        "winners": [],
        "prizes": [],
        "present": [],
    }
    if night.status == NightStatus.CLOSED:
        state["panel"] = "winners"
        state["clock"] = clock_state(HallSettings(night=night), now)  # nothing runs any more
        state["winners"], state["prizes"] = _winners(night, club)
        return state
    tables = list_night_tables(night)
    if not tables:
        state["panel"] = "waiting"
        state["present"] = attendance.present_names(night)
        return state
    state["panel"] = "play"
    state["tables"] = [
        {"table": table["number"], "sides": _table_sides(table)}
        for table in tables
        if table["game"].status == GameStatus.IN_PROGRESS
    ]
    if settings.hide_leaders:
        state["leaders_hidden"] = True
    else:
        state["leaders"] = night_leaders(night)[:LEADERS_SHOWN]
    return state
