"""Writes of settlements: open and close a club night, set an event's prize split, store a
settle-up version, mark a transfer paid, send the settle-up e-mails.

What it does:
- ``open_night`` / ``close_night``: a club has at most one open night; closing it links the club's
  games played since it opened outside any tournament (``link_game_to_open_night`` links them as
  they start), refuses while one of them is in progress, and enqueues the settle-up on commit.
- ``set_prize_split``: the percentages per place of a tournament's or a night's prize pool.
- ``settle_event``: with the event's row locked, computes what every party's net is now (stakes,
  entry fee, prize), subtracts what the transfers of earlier versions already move, and stores a
  new ``Settlement`` version with the fewest transfers clearing the difference — or nothing when
  nothing is owed any more. So running it twice, or concurrently, stores one version, and a
  correction after the night stores a version of differences only (nobody pays twice).
- ``mark_transfer_paid``: the payer, the payee (their linked accounts) or an organiser; who and
  when are kept; marking again changes nothing.
- ``send_settle_up_mails``: each party with an e-mail address gets their own settle-up of a
  version, once (a row per player and version, claimed under a lock).

What it does not do: check club roles for the API (views do; ``mark_transfer_paid`` checks the
parties because a player may mark their own transfer), or compute (``settlements.computation``).

Terms: see ``settlements.models`` and ``settlements.computation``.
"""

from __future__ import annotations

import logging
from collections import defaultdict

from django.core.mail import send_mail
from django.db import transaction
from django.db.models import Sum
from django.utils import timezone
from django.utils.translation import gettext, gettext_noop

from clubs.models import Club, Player, Role, TeamMember
from clubs.permissions import role_in
from config.problems import Problem
from config.tasks import enqueue
from games.models import Game, GameStatus, LedgerEntry
from games.money import minor_to_decimal_string
from settlements import computation
from settlements.models import (
    Night,
    NightGame,
    NightStatus,
    PrizeSplit,
    Settlement,
    SettlementTransfer,
    SettleUpMail,
)
from tournaments.models import Tournament, TournamentStatus
from tournaments.settlement import entered_players, tournament_stakes
from tournaments.standings import compute_standings

logger = logging.getLogger(__name__)

MAX_PLACES = 20
# How prizes are rounded, stored in English with each settle-up; the console shows it translated.
REMAINDER_RULE = gettext_noop(
    "each place gets pot x percentage // 100; a tie shares its places' amounts evenly, rounded "
    "down; the units left go one at a time to the prize winners in order of place, then id"
)


# ---------------------------------------------------------------------------------------------
# Nights


def open_night(
    *, club: Club, user, name: str = "", entry_fee_minor: int | None = None,
    prize_split: list[int] | None = None,
) -> Night:
    """Open a night for ``club`` (409 ``night_open`` while another is open)."""
    if entry_fee_minor is not None and entry_fee_minor < 0:
        raise Problem(status=400, code="invalid_amount", detail=gettext("The entry fee may not be "
                      "negative."), pointer="/entry_fee")
    if prize_split is not None:
        check_prize_split(prize_split)
    with transaction.atomic():
        Club.objects.select_for_update().filter(pk=club.pk).first()
        current = Night.objects.filter(club=club, status=NightStatus.OPEN).first()
        if current is not None:
            raise Problem(status=409, code="night_open", detail=gettext("%(name)s is still open "
                          "(night %(night)s); close it first.")
                          % {"name": current.name, "night": current.pk})
        now = timezone.now()
        night = Night.objects.create(
            club=club, name=name or f"Night of {now:%Y-%m-%d}", entry_fee_minor=entry_fee_minor,
            opened_at=now, opened_by=_user_or_none(user),
        )
        if prize_split:
            PrizeSplit.objects.create(night=night, percentages=list(prize_split))
    return night


def _outside_tournaments(games):
    # Games of a tournament match are the tournament's, not the night's.
    return games.filter(match_link__isnull=True)


def link_game_to_open_night(*, game_id: int) -> bool:
    """Link a game just started to its club's open night, when it is outside any tournament."""
    game = _outside_tournaments(Game.objects.filter(pk=game_id)).only("id", "club_id").first()
    if game is None:
        return False
    night = Night.objects.filter(club_id=game.club_id, status=NightStatus.OPEN).first()
    if night is None:
        return False
    _, created = NightGame.objects.get_or_create(game=game, defaults={"night": night})
    return created


def close_night(*, night_id: int, user) -> Night:
    """Close the night: link its games, refuse while one is in progress, settle on commit."""
    with transaction.atomic():
        night = Night.objects.select_for_update().filter(pk=night_id).first()
        if night is None:
            raise Problem(status=404, code="not_found",
                          detail=gettext("No night %(night)s.") % {"night": night_id})
        if night.status == NightStatus.CLOSED:
            raise Problem(status=409, code="night_closed",
                          detail=gettext("The night is already closed."))
        evening = _outside_tournaments(
            Game.objects.filter(club_id=night.club_id, created_at__gte=night.opened_at)
        ).exclude(pk__in=NightGame.objects.values("game_id"))
        NightGame.objects.bulk_create(
            [NightGame(night=night, game_id=game_id)
             for game_id in evening.values_list("pk", flat=True)],
            ignore_conflicts=True,
        )
        playing = list(
            Game.objects.filter(pk__in=night.night_games.values("game_id"),
                                status=GameStatus.IN_PROGRESS).values_list("pk", flat=True)
        )
        if playing:
            raise Problem(status=409, code="games_in_progress",
                          detail=gettext("Games %(games)s are still in progress; finish them "
                                         "first.") % {"games": playing})
        night.status = NightStatus.CLOSED
        night.closed_at = timezone.now()
        night.closed_by = _user_or_none(user)
        night.save(update_fields=["status", "closed_at", "closed_by"])
        transaction.on_commit(lambda: _enqueue_settlement(night_id=night.pk))
    return night


def _enqueue_settlement(*, tournament_id: int | None = None, night_id: int | None = None):
    from settlements.tasks import settle_event_task  # the tasks import these services

    enqueue(settle_event_task, tournament_id, night_id)


# ---------------------------------------------------------------------------------------------
# Prize split


def check_prize_split(percentages, pointer: str = "/prize_split") -> list[int]:
    if not isinstance(percentages, list) or len(percentages) > MAX_PLACES:
        raise Problem(status=400, code="invalid_prize_split", pointer=pointer,
                      detail=gettext("A prize split is a list of at most %(places)s whole "
                      "percentages, best place first.") % {"places": MAX_PLACES})
    for index, value in enumerate(percentages):
        if isinstance(value, bool) or not isinstance(value, int) or not 0 < value <= 100:
            raise Problem(status=400, code="invalid_prize_split", pointer=f"{pointer}/{index}",
                          detail=gettext("Place %(place)s: a whole percentage from 1 to 100.")
                          % {"place": index + 1})
    if sum(percentages) > 100:
        raise Problem(status=400, code="invalid_prize_split", pointer=pointer,
                      detail=gettext("The percentages sum to %(sum)s, more than 100.")
                      % {"sum": sum(percentages)})
    return percentages


def set_prize_split(
    *, percentages: list[int], user, tournament_id: int | None = None,
    night_id: int | None = None,
) -> PrizeSplit | None:
    """Set (or, with ``[]``, remove) the prize split of a tournament or a night."""
    check_prize_split(percentages)
    with transaction.atomic():
        event = _lock_event(tournament_id=tournament_id, night_id=night_id)
        key = {"tournament": event} if tournament_id else {"night": event}
        if not percentages:
            PrizeSplit.objects.filter(**key).delete()
            return None
        split, _ = PrizeSplit.objects.update_or_create(
            **key, defaults={"percentages": list(percentages)}
        )
    return split


# ---------------------------------------------------------------------------------------------
# Settling


def _lock_event(*, tournament_id: int | None, night_id: int | None):
    if (tournament_id is None) == (night_id is None):
        raise ValueError("name exactly one event: a tournament or a night")
    model = Tournament if tournament_id is not None else Night
    event = model.objects.select_for_update().filter(pk=tournament_id or night_id).first()
    if event is None:
        raise Problem(status=404, code="not_found", detail=gettext("No such event."))
    return event


def _tournament_parts(tournament: Tournament) -> tuple[dict, dict, dict, dict]:
    stakes = tournament_stakes(tournament)
    entered = entered_players(tournament)
    fee = tournament.entry_fee_minor or 0
    fees = {player: fee for player in entered if fee}
    split = PrizeSplit.objects.filter(tournament=tournament).first()
    prizes: dict[int, int] = {}
    ranks: dict[int, int] = {}
    if split is not None and fees:
        rows = compute_standings(tournament)["standings"]
        ranks = {row["entrant"]["id"]: row["rank"] for row in rows}
        by_entrant = computation.prize_shares(sum(fees.values()), split.percentages, ranks)
        members: dict[int, list[int]] = defaultdict(list)
        for row in rows:
            if row["entrant"]["player"]:
                members[row["entrant"]["id"]].append(row["entrant"]["player"])
        team_of_entrant = {row["entrant"]["id"]: row["entrant"]["team"] for row in rows
                           if row["entrant"]["team"]}
        for entrant, team in team_of_entrant.items():
            members[entrant] = list(
                TeamMember.objects.filter(team_id=team).values_list("player_id", flat=True)
            )
        for entrant, amount in by_entrant.items():
            for player, share in computation.split_among(amount, members[entrant]).items():
                prizes[player] = prizes.get(player, 0) + share
    details = {"prize_split": split.percentages if split else [], "ranks": ranks}
    return stakes, fees, prizes, details


def _night_parts(night: Night) -> tuple[dict, dict, dict, dict]:
    game_ids = list(night.night_games.values_list("game_id", flat=True))
    stakes = dict(
        LedgerEntry.objects.filter(game_id__in=game_ids).order_by().values_list("player_id")
        .annotate(net=Sum("amount_minor")).values_list("player_id", "net")
    )
    wins: dict[int, int] = defaultdict(int)
    games = Game.objects.filter(pk__in=game_ids).prefetch_related("seats")
    for game in games:
        for seat in game.seats.all():
            won = game.status == GameStatus.FINISHED and seat.side == game.winner_side
            wins[seat.player_id] += 1 if won else 0
    fee = night.entry_fee_minor or 0
    fees = {player: fee for player in wins if fee}
    ranks = {
        player: 1 + sum(1 for other in wins.values() if other > count)
        for player, count in wins.items()
    }
    split = PrizeSplit.objects.filter(night=night).first()
    prizes = (
        computation.prize_shares(sum(fees.values()), split.percentages, ranks)
        if split is not None else {}
    )
    details = {"prize_split": split.percentages if split else [], "ranks": ranks,
               "games": len(game_ids)}
    return stakes, fees, prizes, details


def settle_event(*, tournament_id: int | None = None, night_id: int | None = None):
    """Store the next settle-up version of a closed event, or nothing when nothing changed.

    Returns the new ``Settlement`` or None. 409 ``event_not_closed`` before the event closes.
    """
    with transaction.atomic():
        event = _lock_event(tournament_id=tournament_id, night_id=night_id)
        closed = (
            event.status == TournamentStatus.CLOSED if tournament_id
            else event.status == NightStatus.CLOSED
        )
        if not closed:
            raise Problem(status=409, code="event_not_closed",
                          detail=gettext("An event is settled once it is closed."))
        if tournament_id:
            stakes, fees, prizes, details = _tournament_parts(event)
            scope = {"tournament": event}
        else:
            stakes, fees, prizes, details = _night_parts(event)
            scope = {"night": event}
        nets = computation.nets_of(stakes=stakes, fees=fees, prizes=prizes)
        previous = list(Settlement.objects.filter(**scope).order_by("version"))
        moved = list(
            SettlementTransfer.objects.filter(settlement__in=previous)
            .values_list("payer_id", "payee_id", "amount_minor")
        )
        settled = computation.settled_by(
            [(payer or computation.CLUB, payee or computation.CLUB, amount)
             for payer, payee, amount in moved]
        )
        difference, transfers = computation.settle_difference(nets, settled)
        if previous and not difference:
            return None
        parties = sorted(set(nets) | set(settled) | set(fees))
        lines = [
            {
                "player": party or None,
                "stakes": stakes.get(party, 0),
                "entry_fee": fees.get(party, 0),
                "prize": prizes.get(party, 0),
                "net": nets.get(party, 0),
                "settled_before": settled.get(party, 0),
                "difference": difference.get(party, 0),
            }
            for party in parties
        ]
        details.update(
            pot=sum(fees.values()),
            kept_by_club=nets.get(computation.CLUB, 0),
            remainder_rule=REMAINDER_RULE,
            exactness=computation.EXACTNESS,
            ranks={str(key): value for key, value in details["ranks"].items()},
        )
        settlement = Settlement.objects.create(
            club_id=event.club_id, version=(previous[-1].version + 1) if previous else 1,
            lines=lines, details=details, fingerprint=computation.fingerprint_of(nets), **scope,
        )
        SettlementTransfer.objects.bulk_create(
            SettlementTransfer(
                settlement=settlement, payer_id=payer or None, payee_id=payee or None,
                amount_minor=amount,
            )
            for payer, payee, amount in transfers
        )
    return settlement


# ---------------------------------------------------------------------------------------------
# Paying


def mark_transfer_paid(*, transfer_id: int, user) -> SettlementTransfer:
    """Mark a transfer paid: its payer, its payee (their accounts) or an organiser of the club.

    Marking a paid transfer again changes nothing (the first who and when stay).
    """
    with transaction.atomic():
        transfer = (
            SettlementTransfer.objects.select_for_update(of=("self",))
            .select_related("settlement__club", "payer", "payee").filter(pk=transfer_id).first()
        )
        if transfer is None or role_in(user, transfer.settlement.club) is None:
            raise Problem(status=404, code="not_found", detail=gettext("No transfer %(transfer)s.")
                          % {"transfer": transfer_id})
        parties = {
            person.user_id for person in (transfer.payer, transfer.payee) if person is not None
        }
        if user.pk not in parties and role_in(user, transfer.settlement.club) != Role.ORGANISER:
            raise Problem(status=403, code="not_a_party",
                          detail=gettext("Only the payer, the payee or an organiser marks a "
                                         "transfer paid."))
        if transfer.paid_at is None:
            transfer.paid_at = timezone.now()
            transfer.paid_by = user
            transfer.save(update_fields=["paid_at", "paid_by"])
    return transfer


# ---------------------------------------------------------------------------------------------
# E-mail


def settle_up_text(settlement: Settlement, player: Player) -> str:
    exponent = settlement.club.minor_unit_exponent
    currency = settlement.club.currency

    def money(amount: int) -> str:
        return f"{minor_to_decimal_string(amount, exponent)} {currency}"

    line = next((line for line in settlement.lines if line["player"] == player.pk), None)
    names = {
        person.pk: person.display_name
        for person in Player.objects.filter(club_id=settlement.club_id)
    }
    lines = [f"Hello {player.display_name},", ""]
    if line is not None:
        lines.append(
            f"Stakes {money(line['stakes'])}, entry fee {money(line['entry_fee'])}, prize "
            f"{money(line['prize'])}: your net is {money(line['net'])}."
        )
    for transfer in settlement.transfers.all():
        if player.pk not in (transfer.payer_id, transfer.payee_id):
            continue
        payer = names.get(transfer.payer_id, "the club")
        payee = names.get(transfer.payee_id, "the club")
        lines.append(f"{payer} pays {payee} {money(transfer.amount_minor)}.")
    if settlement.version > 1:
        lines.append(f"This is correction {settlement.version}: only the differences to what "
                     "was already settled.")
    return "\n".join(lines) + "\n"


def send_settle_up_mails(*, settlement_id: int) -> int:
    """Send each party of the version its settle-up, once; returns how many were sent now."""
    settlement = Settlement.objects.select_related("club").filter(pk=settlement_id).first()
    if settlement is None:
        return 0
    players = Player.objects.filter(
        pk__in=[line["player"] for line in settlement.lines if line["player"]],
        user__email__gt="",
    ).select_related("user")
    for player in players:
        SettleUpMail.objects.get_or_create(
            settlement=settlement, player=player, defaults={"address": player.user.email}
        )
    sent = 0
    for mail_id in SettleUpMail.objects.filter(settlement=settlement, sent_at__isnull=True) \
            .values_list("pk", flat=True):
        with transaction.atomic():
            mail = (
                SettleUpMail.objects.select_for_update(skip_locked=True)
                .select_related("player").filter(pk=mail_id, sent_at__isnull=True).first()
            )
            if mail is None:
                continue  # sent meanwhile, or being sent by another worker
            send_mail(
                subject=f"{settlement.club.name}: your settle-up",
                message=settle_up_text(settlement, mail.player),
                from_email=None, recipient_list=[mail.address],
            )
            # Between the hand-off to the mail server and this commit a killed worker would send
            # it again on retry: at least once, and exactly once when nothing dies in between.
            mail.sent_at = timezone.now()
            mail.save(update_fields=["sent_at"])
            sent += 1
    return sent


def _user_or_none(user):
    return user if getattr(user, "is_authenticated", False) else None
