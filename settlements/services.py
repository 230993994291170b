"""Writes of settlements: open and close a club night, set an event's prize split, take the
entry fees at the door, set the club's settle-up rule, store a settle-up version, mark a transfer
paid, send the settle-up e-mails.

What it does:
- ``open_night`` / ``close_night``: a club has at most one open night; closing it links the club's
  games played since it opened outside any tournament (``link_game_to_open_night`` links them as
  they start), refuses while one of them is in progress, and enqueues the settle-up on commit.
- ``set_prize_split``: the percentages per place of a tournament's or a night's prize pool.
- ``mark_entry_fee``: a player's entry fee taken at the door in cash or by card (into the club's
  pot), or owed (a transfer to the club in the settle-up); refused when marked twice or already
  paid, or in a club that settles everything between players.
- ``set_settle_up_rule``: the pot at the door (default) or everything between players.
- ``settle_event``: with the event's row lock, computes what every party is to receive through
  transfers now (stakes, entry fees and how they were taken, prizes by place:
  ``computation.targets_of``), counts what the transfers already paid moved, and stores a new
  ``Settlement`` version with the fewest transfers settling what is still owed
  (``computation.plan_transfers``); the earlier versions' transfers still open are superseded
  by it, paid ones never change. Nothing is stored when nothing changed, so running it twice, or
  concurrently, stores one version, and a correction after the night stores a version that nets
  (nobody pays twice). Each version keeps what changed since the one before. After the commit
  of a new version it queues the version's e-mails (``send_settle_up_mails_task``) and
  announces it (``settlements.changes``: webhooks' ``settlement.ready``).
- ``mark_transfer_paid``: the payer, the payee (their linked accounts) or an organiser; who and
  when are kept; marking again changes nothing; a superseded transfer is refused.
- ``send_settle_up_mails``: each party with an e-mail address gets their own settle-up of a
  version (``settle_up_text``: in words, money in the club's currency), once (a row per player
  and version, claimed under a lock).

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
from games.money import format_money
from settlements import computation, words
from settlements.changes import SettlementStored, announce_settlement_stored
from settlements.models import (
    PAID_AT_DOOR,
    EntryFeePayment,
    FeeStatus,
    Night,
    NightGame,
    NightStatus,
    PrizeSplit,
    Settlement,
    SettlementTransfer,
    SettleUpMail,
    SettleUpRule,
)
from settlements.selectors import TRANSFER_ORDER
from tournaments.models import Entrant, Tournament, TournamentStatus
from tournaments.settlement import entered_players, tournament_stakes
from tournaments.standings import compute_standings, place_of

logger = logging.getLogger(__name__)

MAX_PLACES = 20
# How prizes are rounded, stored in English with each settle-up; the console shows it translated.
REMAINDER_RULE = gettext_noop(
    "each place gets its percentage of the pot, rounded down to the smallest coin; players "
    "level share the places they span evenly, rounded down; a coin left over goes to the prize "
    "winners one at a time, best place first"
)


# ---------------------------------------------------------------------------------------------
# Nights


def open_night(
    *,
    club: Club,
    user,
    name: str = "",
    entry_fee_minor: int | None = None,
    prize_split: list[int] | None = None,
) -> Night:
    """Open a night for ``club`` (409 ``night_open`` while another is open)."""
    if entry_fee_minor is not None and entry_fee_minor < 0:
        raise Problem(
            status=400,
            code="invalid_amount",
            detail=gettext("The entry fee may not be negative."),
            pointer="/entry_fee",
        )
    if prize_split is not None:
        check_prize_split(prize_split)
    with transaction.atomic():
        Club.objects.select_for_update().filter(pk=club.pk).first()
        current = Night.objects.filter(club=club, status=NightStatus.OPEN).first()
        if current is not None:
            raise Problem(
                status=409,
                code="night_open",
                detail=gettext("%(name)s is still open (night %(night)s); close it first.")
                % {"name": current.name, "night": current.pk},
            )
        now = timezone.now()
        night = Night.objects.create(
            club=club,
            name=name or f"Night of {now:%Y-%m-%d}",
            entry_fee_minor=entry_fee_minor,
            opened_at=now,
            opened_by=_user_or_none(user),
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
            raise Problem(
                status=404,
                code="not_found",
                detail=gettext("No night %(night)s.") % {"night": night_id},
            )
        if night.status == NightStatus.CLOSED:
            raise Problem(
                status=409, code="night_closed", detail=gettext("The night is already closed.")
            )
        evening = _outside_tournaments(
            Game.objects.filter(club_id=night.club_id, created_at__gte=night.opened_at)
        ).exclude(pk__in=NightGame.objects.values("game_id"))
        NightGame.objects.bulk_create(
            [
                NightGame(night=night, game_id=game_id)
                for game_id in evening.values_list("pk", flat=True)
            ],
            ignore_conflicts=True,
        )
        playing = list(
            Game.objects.filter(
                pk__in=night.night_games.values("game_id"), status=GameStatus.IN_PROGRESS
            ).values_list("pk", flat=True)
        )
        if playing:
            raise Problem(
                status=409,
                code="games_in_progress",
                detail=gettext("Games %(games)s are still in progress; finish them first.")
                % {"games": playing},
            )
        night.status = NightStatus.CLOSED
        night.closed_at = timezone.now()
        night.closed_by = _user_or_none(user)
        night.save(update_fields=["status", "closed_at", "closed_by"])
        transaction.on_commit(lambda: _enqueue_settlement(night_id=night.pk))
    return night


def _enqueue_settlement(*, tournament_id: int | None = None, night_id: int | None = None):
    enqueue("settlements.settle_event_task", tournament_id, night_id)


# ---------------------------------------------------------------------------------------------
# Prize split


def check_prize_split(percentages, pointer: str = "/prize_split") -> list[int]:
    if not isinstance(percentages, list) or len(percentages) > MAX_PLACES:
        raise Problem(
            status=400,
            code="invalid_prize_split",
            pointer=pointer,
            detail=gettext(
                "A prize split is a list of at most %(places)s whole percentages, best place first."
            )
            % {"places": MAX_PLACES},
        )
    for index, value in enumerate(percentages):
        if isinstance(value, bool) or not isinstance(value, int) or not 0 < value <= 100:
            raise Problem(
                status=400,
                code="invalid_prize_split",
                pointer=f"{pointer}/{index}",
                detail=gettext("Place %(place)s: a whole percentage from 1 to 100.")
                % {"place": index + 1},
            )
    if sum(percentages) > 100:
        raise Problem(
            status=400,
            code="invalid_prize_split",
            pointer=pointer,
            detail=gettext("The percentages sum to %(sum)s, more than 100.")
            % {"sum": sum(percentages)},
        )
    return percentages


def set_prize_split(
    *,
    percentages: list[int],
    user,
    tournament_id: int | None = None,
    night_id: int | None = None,
    pointer: str = "/prize_split",
) -> PrizeSplit | None:
    """Set (or, with ``[]``, remove) the prize split of a tournament or a night (400
    ``invalid_prize_split`` at ``pointer`` for a place out of 1..100 or a sum over 100)."""
    check_prize_split(percentages, pointer)
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
    """Stakes, fees due (player -> fee), and the places of the entrants (entrant -> place, its
    players, its name) for the prizes."""
    stakes = tournament_stakes(tournament)
    fee = tournament.entry_fee_minor or 0
    fees = {player: fee for player in entered_players(tournament) if fee}
    rows = compute_standings(tournament)["standings"]
    places = {row["entrant"]["id"]: place_of(row) for row in rows}
    names = {row["entrant"]["id"]: row["entrant"]["name"] for row in rows}
    members: dict[int, list[int]] = defaultdict(list)
    for row in rows:
        if row["entrant"]["player"]:
            members[row["entrant"]["id"]].append(row["entrant"]["player"])
    team_of_entrant = {
        row["entrant"]["id"]: row["entrant"]["team"] for row in rows if row["entrant"]["team"]
    }
    if team_of_entrant:
        by_team: dict[int, list[int]] = defaultdict(list)
        for team, player in TeamMember.objects.filter(
            team_id__in=set(team_of_entrant.values())
        ).values_list("team_id", "player_id"):
            by_team[team].append(player)
        for entrant, team in team_of_entrant.items():
            members[entrant] = by_team[team]
    return stakes, fees, {"places": places, "members": dict(members), "names": names}, {}


def _night_parts(night: Night) -> tuple[dict, dict, dict, dict]:
    game_ids = list(night.night_games.values_list("game_id", flat=True))
    stakes = dict(
        LedgerEntry.objects.filter(game_id__in=game_ids)
        .order_by()
        .values_list("player_id")
        .annotate(net=Sum("amount_minor"))
        .values_list("player_id", "net")
    )
    wins: dict[int, int] = defaultdict(int)
    games = Game.objects.filter(pk__in=game_ids).prefetch_related("seats")
    for game in games:
        for seat in game.seats.all():
            won = game.status == GameStatus.FINISHED and seat.side == game.winner_side
            wins[seat.player_id] += 1 if won else 0
    fee = night.entry_fee_minor or 0
    fees = {player: fee for player in wins if fee}
    # Players level on games won share a place.
    places = {
        player: 1 + sum(1 for other in wins.values() if other > count)
        for player, count in wins.items()
    }
    names = dict(Player.objects.filter(pk__in=places).values_list("pk", "display_name"))
    standing = {
        "places": places,
        "members": {player: [player] for player in places},
        "names": names,
    }
    return stakes, fees, standing, {"games": len(game_ids)}


def _prizes(pot: int, percentages: list[int], standing: dict) -> tuple[dict, list[dict]]:
    """Player -> prize, and the prize groups in words' terms (places, names, amounts)."""
    groups = computation.prize_groups(pot, percentages, standing["places"])
    prizes: dict[int, int] = {}
    described = []
    for group in groups:
        for entrant, amount in group["shares"].items():
            for player, share in computation.split_among(
                amount, standing["members"].get(entrant, [])
            ).items():
                prizes[player] = prizes.get(player, 0) + share
        described.append(
            {
                "first": group["first"],
                "last": group["last"],
                "percent": group["percent"],
                "shares": [
                    [standing["names"].get(entrant, str(entrant)), amount]
                    for entrant, amount in group["shares"].items()
                ],
            }
        )
    return {player: amount for player, amount in prizes.items() if amount}, described


def between_players(club_id: int) -> bool:
    """The club's settle-up rule: everything between players (True) or the pot at the door."""
    return SettleUpRule.objects.filter(club_id=club_id, between_players=True).exists()


LINE_FIELDS = ("stakes", "entry_fee", "fee_status", "prize")


def _changes(before: list[dict], after: list[dict]) -> list[dict]:
    """What changed per party since the version before: ``{"player", "field", "before",
    "after"}`` for stakes, entry fee, how the fee was paid, and prize."""
    old = {line["player"]: line for line in before}
    new = {line["player"]: line for line in after}
    changes = []
    for party in sorted(set(old) | set(new), key=lambda party: (party is not None, party or 0)):
        for field in LINE_FIELDS:
            was = old.get(party, {}).get(field, 0 if field != "fee_status" else None)
            now = new.get(party, {}).get(field, 0 if field != "fee_status" else None)
            if was != now:
                changes.append({"player": party, "field": field, "before": was, "after": now})
    return changes


def settle_event(*, tournament_id: int | None = None, night_id: int | None = None):
    """Store the next settle-up version of a closed event, or nothing when nothing changed.

    The new version's transfers are the fewest that settle what is still owed once every
    transfer already paid is counted (``computation.plan_transfers``); the transfers of earlier
    versions still open are superseded by it (paid ones never change). Returns the new
    ``Settlement`` or None. 409 ``event_not_closed`` before the event closes. After the commit
    of a new version: its e-mails are queued, then it is announced (``settlements.changes``).
    """
    with transaction.atomic():
        event = _lock_event(tournament_id=tournament_id, night_id=night_id)
        closed = (
            event.status == TournamentStatus.CLOSED
            if tournament_id
            else event.status == NightStatus.CLOSED
        )
        if not closed:
            raise Problem(
                status=409,
                code="event_not_closed",
                detail=gettext("An event is settled once it is closed."),
            )
        if tournament_id:
            stakes, fees, standing, details = _tournament_parts(event)
            scope = {"tournament": event}
        else:
            stakes, fees, standing, details = _night_parts(event)
            scope = {"night": event}
        rule_between = between_players(event.club_id)
        marks = {mark.player_id: mark for mark in EntryFeePayment.objects.filter(**scope)}
        fees.update({player: mark.amount_minor for player, mark in marks.items()})
        fees = {player: amount for player, amount in fees.items() if amount}
        paid_at_door = (
            {}
            if rule_between
            else {
                player: mark.amount_minor
                for player, mark in marks.items()
                if mark.status in PAID_AT_DOOR and mark.amount_minor
            }
        )
        split = PrizeSplit.objects.filter(**scope).first()
        percentages = split.percentages if split else []
        pot = sum(fees.values())
        prizes, prize_groups = _prizes(pot, percentages, standing)
        targets = computation.targets_of(
            stakes=stakes,
            fees=fees,
            paid_at_door=paid_at_door,
            prizes=prizes,
            between_players=rule_between,
        )
        fingerprint = computation.fingerprint_of(targets)
        previous = list(Settlement.objects.filter(**scope).order_by("version"))
        if previous and previous[-1].fingerprint == fingerprint:
            return None
        # Locked: a transfer being marked paid meanwhile is read paid, never superseded.
        standing_transfers = list(
            SettlementTransfer.objects.select_for_update()
            .filter(settlement__in=previous, superseded_by__isnull=True)
            .order_by("pk")
        )
        paid = [
            (
                transfer.payer_id or computation.CLUB,
                transfer.payee_id or computation.CLUB,
                transfer.amount_minor,
            )
            for transfer in standing_transfers
            if transfer.paid_at is not None
        ]
        planned = computation.plan_transfers(targets, paid)
        settled = computation.settled_by(paid)
        nets = computation.nets_of(stakes=stakes, fees=fees, prizes=prizes)
        to_settle: dict[int, int] = defaultdict(int)
        for amounts in targets.values():
            for party, amount in amounts.items():
                to_settle[party] += amount
        parties = set(nets) | set(settled) | set(fees) | set(to_settle)
        if fees and not rule_between:
            parties.add(computation.CLUB)  # the pot's holder is a party to its transfers
        parties = sorted(parties)
        statuses = {player: mark.status for player, mark in marks.items()}
        lines = [
            {
                "player": party or None,
                "stakes": stakes.get(party, 0),
                "entry_fee": fees.get(party, 0),
                "fee_status": (
                    None
                    if party == computation.CLUB or not fees.get(party)
                    else statuses.get(party, FeeStatus.OWED)
                ),
                "prize": prizes.get(party, 0),
                "paid_at_door": (
                    sum(paid_at_door.values())
                    if party == computation.CLUB
                    else paid_at_door.get(party, 0)
                ),
                "net": nets.get(party, 0),
                "settled_before": settled.get(party, 0),
                "difference": to_settle.get(party, 0) - settled.get(party, 0),
            }
            for party in parties
        ]
        details.update(
            pot=pot,
            prize_split=percentages,
            prizes=prize_groups,
            places={str(key): value for key, value in standing["places"].items()},
            kept_by_club=nets.get(computation.CLUB, 0),
            rule=computation.ALL if rule_between else computation.POT,
            remainder_rule=REMAINDER_RULE,
            exactness=computation.EXACTNESS,
            changes=_changes(previous[-1].lines, lines) if previous else [],
            superseded=sum(1 for transfer in standing_transfers if transfer.paid_at is None),
            kept_paid=len(paid),
        )
        settlement = Settlement.objects.create(
            club_id=event.club_id,
            version=(previous[-1].version + 1) if previous else 1,
            lines=lines,
            details=details,
            fingerprint=fingerprint,
            **scope,
        )
        SettlementTransfer.objects.filter(
            pk__in=[transfer.pk for transfer in standing_transfers if transfer.paid_at is None]
        ).update(superseded_by=settlement)
        SettlementTransfer.objects.bulk_create(
            SettlementTransfer(
                settlement=settlement,
                payer_id=payer or None,
                payee_id=payee or None,
                amount_minor=amount,
                kind=kind,
            )
            for payer, payee, amount, kind in planned
        )
        # After the commit: the version's e-mails, then whoever listens (webhooks).
        settlement_id = settlement.pk
        transaction.on_commit(
            lambda: enqueue("settlements.send_settle_up_mails_task", settlement_id)
        )
        announce_settlement_stored(
            SettlementStored(
                settlement_id=settlement_id,
                club_id=settlement.club_id,
                version=settlement.version,
                tournament_id=settlement.tournament_id,
                night_id=settlement.night_id,
            )
        )
    return settlement


# ---------------------------------------------------------------------------------------------
# The pot at the door


def _fee_payers(event, *, tournament_id: int | None) -> set[int]:
    """Who may have an entry fee: a tournament's entered players (individuals and the members
    of team entrants, checked in or not); for a night, any active player of the club."""
    if tournament_id:
        rows = Entrant.objects.filter(tournament=event).values_list(
            "player_id", "team__team_members__player_id"
        )
        return {player for row in rows for player in row if player is not None}
    return set(Player.objects.filter(club_id=event.club_id).values_list("pk", flat=True))


def check_fee_status(status, pointer: str = "/status") -> str:
    if status not in FeeStatus.values:
        raise Problem(
            status=400,
            code="invalid_fee_status",
            pointer=pointer,
            detail=gettext("How the fee was taken: cash, card or owed."),
        )
    return status


def mark_entry_fee(
    *,
    user,
    player_id: int,
    status: str,
    amount_minor: int | None = None,
    tournament_id: int | None = None,
    night_id: int | None = None,
) -> EntryFeePayment:
    """Record how a player's entry fee was taken: in cash or by card at the door (into the
    club's pot), or owed (a transfer to the club in the settle-up).

    ``amount_minor`` defaults to the event's entry fee. A fee already paid at the door, or
    marked the same way again, is refused (409 ``fee_already_marked``, pointer ``/player``);
    owed may become paid. A club that settles everything between players has no pot (409
    ``no_pot``). After the event closed, a change queues a new settle-up version.
    """
    check_fee_status(status)
    if amount_minor is not None and (
        isinstance(amount_minor, bool) or not isinstance(amount_minor, int) or amount_minor < 0
    ):
        raise Problem(
            status=400,
            code="invalid_amount",
            pointer="/amount",
            detail=gettext("An entry fee is an amount of 0 or more."),
        )
    with transaction.atomic():
        event = _lock_event(tournament_id=tournament_id, night_id=night_id)
        if between_players(event.club_id):
            raise Problem(
                status=409,
                code="no_pot",
                pointer="/status",
                detail=gettext(
                    "This club settles everything between players: there is no pot at the door."
                ),
            )
        if player_id not in _fee_payers(event, tournament_id=tournament_id):
            raise Problem(
                status=400,
                code="not_entered",
                pointer="/player",
                detail=gettext("Player %(player)s is not entered here.") % {"player": player_id},
            )
        fee = event.entry_fee_minor
        if amount_minor is None:
            if not fee:
                raise Problem(
                    status=400,
                    code="required",
                    pointer="/amount",
                    detail=gettext("This event has no entry fee: give the amount."),
                )
            amount_minor = fee
        scope = {"tournament": event} if tournament_id else {"night": event}
        mark = (
            EntryFeePayment.objects.select_for_update().filter(player_id=player_id, **scope).first()
        )
        if mark is not None and (mark.status in PAID_AT_DOOR or mark.status == status):
            name = Player.objects.filter(pk=player_id).values_list("display_name", flat=True)
            raise Problem(
                status=409,
                code="fee_already_marked",
                pointer="/player",
                detail=gettext("%(name)s's entry fee is already marked: %(status)s.")
                % {"name": name.first(), "status": FeeStatus(mark.status).label},
            )
        now = timezone.now()
        if mark is None:
            mark = EntryFeePayment.objects.create(
                club_id=event.club_id,
                player_id=player_id,
                status=status,
                amount_minor=amount_minor,
                marked_at=now,
                marked_by=_user_or_none(user),
                **scope,
            )
        else:
            mark.status, mark.amount_minor = status, amount_minor
            mark.marked_at, mark.marked_by = now, _user_or_none(user)
            mark.save(update_fields=["status", "amount_minor", "marked_at", "marked_by"])
        closed = event.status == (TournamentStatus.CLOSED if tournament_id else NightStatus.CLOSED)
        if closed:
            transaction.on_commit(
                lambda: _enqueue_settlement(tournament_id=tournament_id, night_id=night_id)
            )
    return mark


def set_settle_up_rule(*, club: Club, between_players: bool) -> SettleUpRule:
    """The club's settle-up rule for the events settled from now on (stored versions keep
    theirs)."""
    if not isinstance(between_players, bool):
        raise Problem(
            status=400, code="invalid", pointer="/between_players", detail=gettext("true or false.")
        )
    rule, _ = SettleUpRule.objects.update_or_create(
        club=club, defaults={"between_players": between_players}
    )
    return rule


# ---------------------------------------------------------------------------------------------
# Paying


def mark_transfer_paid(*, transfer_id: int, user) -> SettlementTransfer:
    """Mark a transfer paid: its payer, its payee (their accounts) or an organiser of the club.

    Marking a paid transfer again changes nothing (the first who and when stay).
    """
    with transaction.atomic():
        transfer = (
            SettlementTransfer.objects.select_for_update(of=("self",))
            .select_related("settlement__club", "payer", "payee", "superseded_by")
            .filter(pk=transfer_id)
            .first()
        )
        if transfer is None or role_in(user, transfer.settlement.club) is None:
            raise Problem(
                status=404,
                code="not_found",
                detail=gettext("No transfer %(transfer)s.") % {"transfer": transfer_id},
            )
        parties = {
            person.user_id for person in (transfer.payer, transfer.payee) if person is not None
        }
        if user.pk not in parties and role_in(user, transfer.settlement.club) != Role.ORGANISER:
            raise Problem(
                status=403,
                code="not_a_party",
                detail=gettext("Only the payer, the payee or an organiser marks a transfer paid."),
            )
        if transfer.superseded_by_id is not None:
            raise Problem(
                status=409,
                code="transfer_superseded",
                pointer="/transfer",
                detail=gettext(
                    "This transfer was replaced by version %(version)s of "
                    "the settle-up; mark that version's transfers paid."
                )
                % {"version": transfer.superseded_by.version},
            )
        if transfer.paid_at is None:
            transfer.paid_at = timezone.now()
            transfer.paid_by = user
            transfer.save(update_fields=["paid_at", "paid_by"])
    return transfer


# ---------------------------------------------------------------------------------------------
# E-mail


def settle_up_text(settlement: Settlement, player: Player) -> str:
    """A player's settle-up of one version, in words (``settlements.words``), money in the
    club's currency (``games.money.format_money``), in the active language."""
    club = settlement.club
    line = next((line for line in settlement.lines if line["player"] == player.pk), None)
    names = dict(
        Player.objects.filter(club_id=settlement.club_id).values_list("pk", "display_name")
    )
    lines = [gettext("Hello %(name)s,") % {"name": player.display_name}, ""]
    if line is not None:
        status = line.get("fee_status")
        fee = format_money(line["entry_fee"], club)
        if status:
            fee = f"{fee} ({words.FEE_STATUSES[status]})"
        lines.append(
            gettext("Stakes %(stakes)s, entry fee %(fee)s, prize %(prize)s: your net is %(net)s.")
            % {
                "stakes": format_money(line["stakes"], club, signed=True),
                "fee": fee,
                "prize": format_money(line["prize"], club),
                "net": format_money(line["net"], club, signed=True),
            }
        )
    prize_lines = words.prize_lines(settlement.details, club)
    if prize_lines:
        lines += ["", *prize_lines]
    if settlement.version > 1:
        lines += [
            "",
            gettext(
                "This is version %(version)s of the settle-up; it replaces the "
                "transfers still open before it. What changed:"
            )
            % {"version": settlement.version},
            *words.change_lines(settlement.details, names, club),
        ]
    mine = [
        transfer
        for transfer in settlement.transfers.select_related("payer", "payee").order_by(
            *TRANSFER_ORDER
        )
        if player.pk in (transfer.payer_id, transfer.payee_id)
    ]
    if mine:
        lines.append("")
    for transfer in mine:
        lines.append(
            gettext("%(payer)s pays %(payee)s %(amount)s.")
            % {
                "payer": words.party_name(transfer.payer),
                "payee": words.party_name(transfer.payee, start=False),
                "amount": format_money(transfer.amount_minor, club),
            }
        )
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
    for mail_id in SettleUpMail.objects.filter(
        settlement=settlement, sent_at__isnull=True
    ).values_list("pk", flat=True):
        with transaction.atomic():
            mail = (
                SettleUpMail.objects.select_for_update(skip_locked=True)
                .select_related("player")
                .filter(pk=mail_id, sent_at__isnull=True)
                .first()
            )
            if mail is None:
                continue  # sent meanwhile, or being sent by another worker
            send_mail(
                subject=f"{settlement.club.name}: your settle-up",
                message=settle_up_text(settlement, mail.player),
                from_email=None,
                recipient_list=[mail.address],
            )
            # Between the hand-off to the mail server and this commit a killed worker would send
            # it again on retry: at least once, and exactly once when nothing dies in between.
            mail.sent_at = timezone.now()
            mail.save(update_fields=["sent_at"])
            sent += 1
    return sent


def _user_or_none(user):
    return user if getattr(user, "is_authenticated", False) else None
