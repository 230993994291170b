"""The settle-up e-mails: each party of a settle-up version, told in words what they pay or receive.

What it does: ``send_settle_up_mails`` gives each party of a version with an e-mail address their
own settle-up (``settle_up_text``: in words, money in the club's currency), once (a row per
player and version, claimed under a lock, so two workers never send the same row; a worker killed
between the mail server's hand-off and the commit sends it again on retry: at least once).

What it does not do: store versions (``settlements.settle_up``, which queues these mails after the
commit of a new version through ``settlements.send_settle_up_mails_task``) or choose the words of
the lines (``settlements.words``).

Terms: see ``settlements.models``; *version*: one stored ``Settlement`` of an event.
"""

from __future__ import annotations

from django.core.mail import send_mail
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext

from clubs.models import Player
from games.money import format_money
from settlements import words
from settlements.models import Settlement, SettleUpMail
from settlements.selectors import TRANSFER_ORDER


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
