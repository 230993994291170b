"""Reads of settlements: a club's nights, one night with its games, an event's settle-up versions
with their transfers (each with its parties' names), the fees taken at the door, and each
player's running balance over the season's settled events (``season_balances``), in a fixed
number of queries; and what the periodic sweep has to settle or send
(``list_events_to_settle``, ``list_settlements_with_unsent_mails``).

What it does not do: check permissions (the views do) or write.
"""

from __future__ import annotations

import datetime

from django.db.models import Count, F, OuterRef, Prefetch, Q, QuerySet, Subquery
from django.http import Http404
from django.utils import timezone

from clubs.models import Club, Player
from games.models import Game
from settlements.models import (
    EntryFeePayment,
    Night,
    NightGame,
    NightStatus,
    PrizeSplit,
    Settlement,
    SettlementTransfer,
    SettleUpMail,
)
from tournaments.models import Tournament, TournamentStatus


def list_nights(*, club: Club) -> QuerySet[Night]:
    return (
        Night.objects.filter(club=club)
        .select_related("prize_split")
        .annotate(game_count=Count("night_games"))
        .order_by("-opened_at", "-id")
    )


def get_night(*, night_id: int) -> Night:
    night = (
        Night.objects.select_related("club", "prize_split")
        .annotate(game_count=Count("night_games"))
        .filter(pk=night_id)
        .first()
    )
    if night is None:
        raise Http404("No night with this id.")
    return night


def list_night_game_ids(*, night: Night) -> list[int]:
    """The night's games: linked ones once closed; while open, the club's games since it opened
    outside any tournament and any other night (what closing will link)."""
    if night.status == NightStatus.CLOSED:
        return list(night.night_games.order_by("game_id").values_list("game_id", flat=True))
    return list(
        Game.objects.filter(
            club_id=night.club_id, created_at__gte=night.opened_at, match_link__isnull=True
        )
        .exclude(pk__in=NightGame.objects.exclude(night=night).values("game_id"))
        .order_by("pk")
        .values_list("pk", flat=True)
    )


def get_prize_split(*, tournament_id: int | None = None, night_id: int | None = None):
    key = {"tournament_id": tournament_id} if tournament_id else {"night_id": night_id}
    split = PrizeSplit.objects.filter(**key).first()
    return split.percentages if split else []


TRANSFER_ORDER = (
    F("payer__display_name").asc(nulls_first=True),
    "payer_id",
    F("payee__display_name").asc(nulls_first=True),
    "payee_id",
    "id",
)


def _with_transfers(settlements: QuerySet[Settlement]) -> QuerySet[Settlement]:
    transfers = SettlementTransfer.objects.select_related(
        "payer", "payee", "paid_by", "superseded_by"
    ).order_by(*TRANSFER_ORDER)
    return settlements.select_related("club").prefetch_related(
        Prefetch("transfers", queryset=transfers)
    )


def list_settlements(*, tournament_id: int | None = None, night_id: int | None = None):
    """Every version of the event's settle-up, oldest first, with transfers and parties.

    Transfers in a stable order: by payer, then payee, by name (the club first).
    """
    key = {"tournament_id": tournament_id} if tournament_id else {"night_id": night_id}
    return _with_transfers(Settlement.objects.filter(**key)).order_by("version")


def list_club_settlements(*, club: Club, tournament_id: int | None = None):
    """Every version of every event of the club (or of one tournament), oldest first, with
    transfers (two queries)."""
    settlements = Settlement.objects.filter(club=club)
    if tournament_id is not None:
        settlements = settlements.filter(tournament_id=tournament_id)
    return _with_transfers(settlements).order_by("created_at", "version", "id")


def list_club_fees(*, club: Club, tournament_id: int | None = None):
    """The entry fees taken at the door of the club's events (or one tournament's)."""
    fees = EntryFeePayment.objects.filter(club=club)
    if tournament_id is not None:
        fees = fees.filter(tournament_id=tournament_id)
    return fees.select_related("player", "marked_by", "club").order_by(
        "player__display_name", "player_id"
    )


def get_transfer(*, transfer_id: int) -> SettlementTransfer:
    transfer = (
        SettlementTransfer.objects.select_related(
            "settlement__club", "payer", "payee", "paid_by", "superseded_by"
        )
        .filter(pk=transfer_id)
        .first()
    )
    if transfer is None:
        raise Http404("No transfer with this id.")
    return transfer


def party_names(settlements) -> dict[int, str]:
    """Player id -> name of every player in the lines of ``settlements`` (one query)."""
    ids = {
        line["player"] for settlement in settlements for line in settlement.lines if line["player"]
    }
    return dict(Player.objects.filter(pk__in=ids).values_list("pk", "display_name"))


def list_fees(*, tournament_id: int | None = None, night_id: int | None = None):
    """How each player's entry fee of the event was taken (players without a row owe it)."""
    key = {"tournament_id": tournament_id} if tournament_id else {"night_id": night_id}
    return (
        EntryFeePayment.objects.filter(**key)
        .select_related("player", "marked_by", "club")
        .order_by("player__display_name", "player_id")
    )


def season_balances(*, club: Club, year: int | None = None, player_id: int | None = None):
    """Each player's running balance over the season's settled nights and events (the calendar
    year, as the league table; by the time of each event's first version), in two queries (one
    when the season has no event), reading the season's events only, whatever the history.

    Returns ``{"year", "events": [{"key", "name", "settled_at"}], "players": {player id:
    [{"event", "net", "paid_at_door", "paid", "received", "open", "running", "running_open"}]}}``
    (minor units), one row per event the player has a line in, oldest first: ``net`` is what
    the event came to for them (stakes + prize - entry fee, the latest version), ``paid`` and
    ``received`` what transfers marked paid moved (all versions), ``open`` what the latest
    version's open transfers still move (+ to receive), ``running`` the sum of ``net`` so far
    and ``running_open`` the sum of ``open`` so far.
    """
    year = year or timezone.now().year
    start = datetime.datetime(year, 1, 1, tzinfo=datetime.UTC)
    end = datetime.datetime(year + 1, 1, 1, tzinfo=datetime.UTC)
    # Only the versions of the events first settled in the season (version 1 in the year), not
    # every version of the club's history filtered in Python: the rows read, their lines and
    # the transfers' id list stay the size of one season however many seasons the club has.
    firsts = Settlement.objects.filter(
        club=club, version=1, created_at__gte=start, created_at__lt=end
    )
    versions = list(
        Settlement.objects.filter(club=club)
        .filter(
            Q(tournament_id__in=firsts.filter(tournament__isnull=False).values("tournament_id"))
            | Q(night_id__in=firsts.filter(night__isnull=False).values("night_id"))
        )
        .select_related("tournament", "night")
        .only(
            "id",
            "version",
            "created_at",
            "lines",
            "tournament_id",
            "night_id",
            "tournament__name",
            "night__name",
        )
        .order_by("created_at", "id")
    )
    by_event: dict[tuple, list[Settlement]] = {}
    for version in versions:
        key = (
            ("tournament", version.tournament_id)
            if version.tournament_id
            else ("night", version.night_id)
        )
        by_event.setdefault(key, []).append(version)
    events = [
        {
            "key": key,
            "name": (chain[0].tournament or chain[0].night).name,
            "settled_at": chain[0].created_at,
            "latest": chain[-1],
        }
        for key, chain in by_event.items()
        if start <= chain[0].created_at < end
    ]
    events.sort(key=lambda event: (event["settled_at"], event["key"]))
    transfers = SettlementTransfer.objects.filter(
        settlement__club=club,
        superseded_by__isnull=True,
        settlement__in=[version.pk for chain in by_event.values() for version in chain],
    )
    if player_id is not None:
        transfers = transfers.filter(Q(payer_id=player_id) | Q(payee_id=player_id))
    moved: dict[tuple, dict[int, dict[str, int]]] = {}
    event_of = {version.pk: key for key, chain in by_event.items() for version in chain}
    for settlement_id, payer, payee, amount, paid_at in transfers.values_list(
        "settlement_id", "payer_id", "payee_id", "amount_minor", "paid_at"
    ):
        parties = moved.setdefault(event_of[settlement_id], {})
        for party, sign in ((payer, -1), (payee, 1)):
            if party is None:
                continue
            figures = parties.setdefault(party, {"paid": 0, "received": 0, "open": 0})
            if paid_at is None:
                figures["open"] += sign * amount
            elif sign < 0:
                figures["paid"] += amount
            else:
                figures["received"] += amount
    players: dict[int, list[dict]] = {}
    for event in events:
        for line in event["latest"].lines:
            party = line["player"]
            if party is None or (player_id is not None and party != player_id):
                continue
            figures = moved.get(event["key"], {}).get(party, {"paid": 0, "received": 0, "open": 0})
            rows = players.setdefault(party, [])
            running = (rows[-1]["running"] if rows else 0) + line["net"]
            running_open = (rows[-1]["running_open"] if rows else 0) + figures["open"]
            rows.append(
                {
                    "event": event,
                    "net": line["net"],
                    "paid_at_door": line.get("paid_at_door", 0),
                    **figures,
                    "running": running,
                    "running_open": running_open,
                }
            )
    return {"year": year, "events": events, "players": players}


def list_events_to_settle() -> tuple[list[int], list[int]]:
    """The sweep's work: the ids of the closed tournaments and of the closed nights with no
    settle-up version yet, and of the closed nights with a game changed after their latest
    version (a correction whose re-settle message was lost: settling again stores a version only
    if something is owed). Returns ``(tournament_ids, night_ids)``, nights in id order."""
    tournaments = (
        Tournament.objects.filter(status=TournamentStatus.CLOSED)
        .exclude(pk__in=Settlement.objects.filter(tournament__isnull=False).values("tournament_id"))
        .values_list("pk", flat=True)
    )
    nights = (
        Night.objects.filter(status=NightStatus.CLOSED)
        .exclude(pk__in=Settlement.objects.filter(night__isnull=False).values("night_id"))
        .values_list("pk", flat=True)
    )
    latest = Settlement.objects.filter(night=OuterRef("night_id")).order_by("-created_at")
    changed = (
        NightGame.objects.filter(night__status=NightStatus.CLOSED)
        .annotate(settled_at=Subquery(latest.values("created_at")[:1]))
        .filter(settled_at__isnull=False, game__updated_at__gt=F("settled_at"))
        .values_list("night_id", flat=True)
        .distinct()
    )
    return list(tournaments), sorted(set(nights) | set(changed))


def list_settlements_with_unsent_mails() -> set[int]:
    """The ids of the settle-up versions with an e-mail not sent yet."""
    return set(
        SettleUpMail.objects.filter(sent_at__isnull=True).values_list("settlement_id", flat=True)
    )
