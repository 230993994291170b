"""The results message after an event: each player's night, and what they pay or receive.

What it does: ``send_settle_up_mails`` sends each player of a settle-up version with an e-mail
address one message (``EmailMultiAlternatives``: plain text and HTML,
``templates/mails/results.txt`` and ``results.html``) in their language
(``accounts.mail_settings.mail_language``): their place, games played and won and points, their
rating's change and season position (``settlements.results.event_results``), then their
settle-up in words (``settle_up_lines``: money in the club's currency; a later version says what
changed). Once per version: a row per player and version (``SettleUpMail``), claimed under a
lock, so two workers never send the same row and a task run twice sends nothing more (a worker
killed between the mail server's hand-off and the commit sends it again on retry: at least
once). A player who turned the results off (the signed link at the foot of each message,
``accounts.mail_settings``), or whose address is not verified (``accounts.verification``:
``mail_refused`` is the one filter), gets no row; one who turns them off before their row is
sent has it dropped.

What it does not do: store versions (``settlements.settle_up``, which queues these mails after the
commit of a new version through ``settlements.send_settle_up_mails_task``) or choose the words of
the settle-up lines (``settlements.words``).

Terms: see ``settlements.models``; *version*: one stored ``Settlement`` of an event.
"""

from __future__ import annotations

from django.conf import settings
from django.core.mail import EmailMultiAlternatives
from django.db import transaction
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import formats, timezone, translation
from django.utils.translation import gettext, ngettext

from accounts.mail_settings import mail_language, results_mail_token
from accounts.verification import mail_refused
from clubs.models import Player
from games.money import format_money
from settlements import words
from settlements.models import Settlement, SettleUpMail
from settlements.results import event_results
from settlements.selectors import TRANSFER_ORDER


def settle_up_lines(settlement: Settlement, player: Player) -> list[str]:
    """A player's settle-up of one version, in words (``settlements.words``), money in the
    club's currency (``games.money.format_money``), in the active language."""
    club = settlement.club
    line = next((line for line in settlement.lines if line["player"] == player.pk), None)
    names = dict(
        Player.objects.filter(club_id=settlement.club_id).values_list("pk", "display_name")
    )
    lines = []
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
    return lines


def result_lines(figures: dict) -> list[str]:
    """A player's night in lines, in the active language."""
    lines = []
    if figures.get("place"):
        lines.append(
            gettext("Place %(place)s of %(total)s")
            % {"place": figures["place"], "total": figures["of"]}
        )
    lines.append(
        ngettext(
            "%(played)s game played, %(won)s won, %(points)s points",
            "%(played)s games played, %(won)s won, %(points)s points",
            figures["played"],
        )
        % figures
    )
    if figures.get("rating_change") is not None:
        change = figures["rating_change"]
        sign = "+" if change >= 0 else "-"
        lines.append(
            gettext("Rating %(change)s, now %(rating)s")
            % {
                "change": sign + formats.number_format(abs(change), 2),
                "rating": formats.number_format(figures["rating"], 2),
            }
        )
    if figures.get("season_place"):
        lines.append(
            gettext("Season table: %(place)s of %(total)s")
            % {"place": figures["season_place"], "total": figures["season_size"]}
        )
    return lines


def _message(settlement: Settlement, results, mail: SettleUpMail) -> EmailMultiAlternatives:
    player = mail.player
    off_url = settings.JINK_SITE_URL + reverse(
        "pages:results_mail_off", kwargs={"token": results_mail_token(player.user_id)}
    )
    with translation.override(mail_language(player.user)):
        context = {
            "greeting": gettext("Hello %(name)s,") % {"name": player.display_name},
            "intro": gettext("Your results at %(event)s (%(club)s):")
            % {"event": results.name, "club": settlement.club.name},
            "results": result_lines(results.players.get(player.pk, {"played": 0})),
            "settle_up": settle_up_lines(settlement, player),
            "off_text": gettext("You get this after each event you play. Turn these messages off:"),
            "off_url": off_url,
        }
        subject = gettext("%(club)s: your results at %(event)s") % {
            "club": settlement.club.name,
            "event": results.name,
        }
        text = render_to_string("mails/results.txt", context)
        html = render_to_string("mails/results.html", context)
    message = EmailMultiAlternatives(
        subject=subject,
        body=text,
        to=[mail.address],
        headers={"List-Unsubscribe": f"<{off_url}>"},
    )
    message.attach_alternative(html, "text/html")
    return message


def send_settle_up_mails(*, settlement_id: int) -> int:
    """Send each player of the version their results message, once; returns how many now."""
    settlement = (
        Settlement.objects.select_related("club", "tournament", "night")
        .filter(pk=settlement_id)
        .first()
    )
    if settlement is None:
        return 0
    results = event_results(settlement)
    players = list(
        Player.objects.filter(pk__in=list(results.players), user__email__gt="").select_related(
            "user"
        )
    )
    off = mail_refused(player.user_id for player in players)
    for player in players:
        if player.user_id not in off:
            SettleUpMail.objects.get_or_create(
                settlement=settlement, player=player, defaults={"address": player.user.email}
            )
    sent = 0
    for mail_id in SettleUpMail.objects.filter(
        settlement=settlement, sent_at__isnull=True
    ).values_list("pk", flat=True):
        with transaction.atomic():
            mail = (
                SettleUpMail.objects.select_for_update(skip_locked=True, of=("self",))
                .select_related("player__user")
                .filter(pk=mail_id, sent_at__isnull=True)
                .first()
            )
            if mail is None:
                continue  # sent meanwhile, or being sent by another worker
            if mail_refused([mail.player.user_id]):
                mail.delete()  # turned off (or the address changed) since the row was made
                continue
            _message(settlement, results, mail).send()
            # Between the hand-off to the mail server and this commit a killed worker would send
            # it again on retry: at least once, and exactly once when nothing dies in between.
            mail.sent_at = timezone.now()
            mail.save(update_fields=["sent_at"])
            sent += 1
    return sent
