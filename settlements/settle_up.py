"""The settle-up of an event: the club's settle-up rule, the versions of an event's settle-up,
and paying their transfers.

What it does:
- ``set_settle_up_rule`` / ``between_players``: the club's rule, the pot at the door (default) or
  everything between players, for the events settled from then on (stored versions keep theirs).
- ``settle_event``: with the event's row lock (``lock_event``), computes what every party is to
  receive through transfers now (stakes, entry fees and how they were taken, prizes by place:
  ``computation.targets_of``), counts what the transfers already paid moved, and stores a new
  ``Settlement`` version with the fewest transfers settling what is still owed
  (``computation.plan_transfers``); the earlier versions' transfers still open are superseded
  by it, paid ones never change. Nothing is stored when nothing changed, so running it twice, or
  concurrently, stores one version, and a correction after the night stores a version that nets
  (nobody pays twice). Each version keeps what changed since the one before. After the commit
  of a new version it announces it (``settlements.changes``, written in the version's own
  transaction): ``settlements.subscribers`` queues the version's e-mails
  (``send_settle_up_mails_task``), webhooks send ``settlement.ready``.
- ``mark_transfer_paid``: the payer, the payee (their linked accounts) or an organiser; who and
  when are kept; marking again changes nothing; a superseded transfer is refused.

What it does not do: open or close nights, set prize splits or take entry fees
(``settlements.services``), write the e-mails (``settlements.mails``), check club roles for the API
(views do; ``mark_transfer_paid`` checks the parties because a player may mark their own
transfer), or compute (``settlements.computation``).

Terms: see ``settlements.models`` and ``settlements.computation``; *event*: a tournament or a
club night; *version*: one stored ``Settlement`` of an event.
"""

from __future__ import annotations

from collections import defaultdict

from django.db import transaction
from django.db.models import Sum
from django.utils import timezone
from django.utils.translation import gettext, gettext_noop

from clubs.models import Club, Player, Role, TeamMember
from clubs.permissions import role_in
from config.problems import Problem
from games.models import Game, GameStatus, LedgerEntry
from settlements import computation
from settlements.changes import SettlementStored, announce_settlement_stored
from settlements.models import (
    PAID_AT_DOOR,
    EntryFeePayment,
    FeeStatus,
    Night,
    NightStatus,
    PrizeSplit,
    Settlement,
    SettlementTransfer,
    SettleUpRule,
)
from tournaments.models import Tournament, TournamentStatus
from tournaments.running_balances import entered_players, tournament_stakes
from tournaments.standings import compute_standings, place_of

# How prizes are rounded, stored in English with each settle-up; the console shows it translated.
REMAINDER_RULE = gettext_noop(
    "each place gets its percentage of the pot, rounded down to the smallest coin; players "
    "level share the places they span evenly, rounded down; a coin left over goes to the prize "
    "winners one at a time, best place first"
)


# ---------------------------------------------------------------------------------------------
# The club's settle-up rule


def between_players(club_id: int) -> bool:
    """The club's settle-up rule: everything between players (True) or the pot at the door."""
    return SettleUpRule.objects.filter(club_id=club_id, between_players=True).exists()


def set_settle_up_rule(*, club: Club, between_players: bool) -> SettleUpRule:
    """The club's settle-up rule for the events settled from now on (stored versions keep
    theirs)."""
    if not isinstance(between_players, bool):
        raise Problem(code="invalid", pointer="/between_players", detail=gettext("true or false."))
    rule, _ = SettleUpRule.objects.update_or_create(
        club=club, defaults={"between_players": between_players}
    )
    return rule


# ---------------------------------------------------------------------------------------------
# Settling


def lock_event(*, tournament_id: int | None, night_id: int | None):
    """The event (a tournament or a night, exactly one named), locked for the transaction
    (404 ``not_found`` when there is none)."""
    if (tournament_id is None) == (night_id is None):
        raise ValueError("name exactly one event: a tournament or a night")
    model = Tournament if tournament_id is not None else Night
    event = model.objects.select_for_update().filter(pk=tournament_id or night_id).first()
    if event is None:
        raise Problem(code="not_found", detail=gettext("No such event."))
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
        event = lock_event(tournament_id=tournament_id, night_id=night_id)
        closed = (
            event.status == TournamentStatus.CLOSED
            if tournament_id
            else event.status == NightStatus.CLOSED
        )
        if not closed:
            raise Problem(
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
        # Kept in this transaction (config.announce's outbox), delivered after the commit: the
        # version's e-mails (settlements.subscribers), then whoever else listens (webhooks).
        announce_settlement_stored(
            SettlementStored(
                settlement_id=settlement.pk,
                club_id=settlement.club_id,
                version=settlement.version,
                tournament_id=settlement.tournament_id,
                night_id=settlement.night_id,
            )
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
            .select_related("settlement__club", "payer", "payee", "superseded_by")
            .filter(pk=transfer_id)
            .first()
        )
        if transfer is None or role_in(user, transfer.settlement.club) is None:
            raise Problem(
                code="not_found",
                detail=gettext("No transfer %(transfer)s.") % {"transfer": transfer_id},
            )
        parties = {
            person.user_id for person in (transfer.payer, transfer.payee) if person is not None
        }
        if user.pk not in parties and role_in(user, transfer.settlement.club) != Role.ORGANISER:
            raise Problem(
                code="not_a_party",
                detail=gettext("Only the payer, the payee or an organiser marks a transfer paid."),
            )
        if transfer.superseded_by_id is not None:
            raise Problem(
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
