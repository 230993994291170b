"""Nights, prize splits, stored settle-up versions, marking paid and the e-mails, through the
services (the console's pages and the API call these), with games played through the games API.

Every game here is won in one hand from nothing (25's "25 from zero"): the stake is doubled,
so a game at 0.20 moves 0.40 from each loser.
"""

from __future__ import annotations

import threading

import pytest
from django.core import mail
from django.db import connection
from django.test import TestCase

from accounts.mail_settings import results_mail_token
from config.problems import Problem
from games.services import correct_hand
from settlements import mails, services, settle_up
from settlements.models import NightGame, Settlement, SettlementTransfer
from settlements.selectors import list_night_game_ids
from tests.accounts.helpers import with_verified_address
from tests.clubs.factories import make_user
from tests.tournaments.play_helpers import build_event, start_game, win_game, win_match


def transfers_of(settlement) -> list[tuple]:
    return list(
        settlement.transfers.order_by("-amount_minor", "payer_id").values_list(
            "payer_id", "payee_id", "amount_minor"
        )
    )


def run_on_commit(function, **kwargs):
    with TestCase.captureOnCommitCallbacks(execute=True):
        return function(**kwargs)


@pytest.fixture
def night_event(db):
    event = build_event(players=4)
    organiser = event.world.users["organiser"]
    night = services.open_night(
        club=event.club, user=organiser, name="Friday", entry_fee_minor=500, prize_split=[70, 30]
    )
    return event, night


def test_a_closed_night_settles_stakes_fees_and_prizes_once(night_event):
    event, night = night_event
    ann, bill, cait, dan = event.players
    organiser = event.world.users["organiser"]
    # At the door: Ann pays in cash, Bill by card, Cait owes; Dan is never marked (owes too).
    services.mark_entry_fee(user=organiser, night_id=night.pk, player_id=ann.pk, status="cash")
    services.mark_entry_fee(user=organiser, night_id=night.pk, player_id=bill.pk, status="card")
    services.mark_entry_fee(user=organiser, night_id=night.pk, player_id=cait.pk, status="owed")
    first = start_game(event, [ann, bill])
    second = start_game(event, [cait, dan])
    third = start_game(event, [ann, cait])
    win_game(event, first, 0)  # Ann +0.40, Bill -0.40
    win_game(event, second, 0)  # Cait +0.40, Dan -0.40
    win_game(event, third, 0)  # Ann +0.40, Cait -0.40
    with pytest.raises(Problem) as refused:
        settle_up.settle_event(night_id=night.pk)
    assert refused.value.code == "event_not_closed"

    run_on_commit(services.close_night, night_id=night.pk, user=organiser)

    assert set(NightGame.objects.filter(night=night).values_list("game_id", flat=True)) == {
        first,
        second,
        third,
    }
    (settlement,) = Settlement.objects.filter(night=night)  # stored by the task on commit
    assert settlement.version == 1
    # Pot 4 x 5.00 = 20.00: Ann won two games (1st: 14.00), Cait one (2nd: 6.00).
    by_player = {line["player"]: line for line in settlement.lines}
    assert {
        player: (
            line["stakes"],
            line["entry_fee"],
            line["fee_status"],
            line["prize"],
            line["paid_at_door"],
            line["net"],
            line["difference"],
        )
        for player, line in by_player.items()
    } == {
        None: (0, 0, None, 0, 1000, 0, -1000),
        ann.pk: (80, 500, "cash", 1400, 500, 980, 1480),
        bill.pk: (-40, 500, "card", 0, 500, -540, -40),
        cait.pk: (0, 500, "owed", 600, 0, 100, 100),
        dan.pk: (-40, 500, "owed", 0, 0, -540, -540),
    }
    # The club pays the prizes from the pot (it holds the 10.00 paid at the door and receives
    # Dan's fee); the stakes are settled between players; no entry fee goes player to player.
    assert transfers_of(settlement) == [
        (None, ann.pk, 1400),
        (dan.pk, None, 500),
        (None, cait.pk, 100),
        (bill.pk, ann.pk, 40),
        (dan.pk, ann.pk, 40),
    ]
    assert sorted(settlement.transfers.values_list("kind", flat=True)) == [
        "pot",
        "pot",
        "pot",
        "stakes",
        "stakes",
    ]
    # Again, and the task again: nothing more is owed, nothing is stored.
    assert settle_up.settle_event(night_id=night.pk) is None
    assert Settlement.objects.filter(night=night).count() == 1
    # Each player with an address got their own settle-up; sending again sends nothing.
    assert mail.outbox == []  # nobody has an e-mail address yet


def test_a_correction_after_the_night_nets_what_is_still_open(night_event):
    event, night = night_event
    ann, bill, *_ = event.players
    game = start_game(event, [ann, bill])
    win_game(event, game, 0)
    organiser = event.world.users["organiser"]
    run_on_commit(services.close_night, night_id=night.pk, user=organiser)
    (first,) = Settlement.objects.filter(night=night)
    # Ann: +0.40 stakes; 10.00 pot: 7.00 first (Ann), 3.00 second (Bill); both fees owed.
    assert transfers_of(first) == [
        (bill.pk, None, 200),
        (None, ann.pk, 200),
        (bill.pk, ann.pk, 40),
    ]
    stakes = first.transfers.get(kind="stakes")
    settle_up.mark_transfer_paid(transfer_id=stakes.pk, user=organiser)

    # The hand is corrected: Bill took every trick. Ann now owes what Bill was owed.
    with TestCase.captureOnCommitCallbacks(execute=True):
        correct_hand(
            game_id=game,
            number=1,
            user=event.world.users["scorekeeper"],
            record={"dealer": 0, "trump": "S", "trick_winners": [1] * 5},
            if_match=None,
        )
    # The correction's announcement (games.changes) queued the new version on commit; the sweep
    # then finds nothing more to settle.
    from settlements.tasks import sweep_settlements_task

    second = Settlement.objects.get(night=night, version=2)
    assert sweep_settlements_task.apply().get() == 0
    # The paid 0.40 stays; Ann pays it back and Bill's 0.40: one transfer of 0.80. The open
    # transfers of version 1 are replaced, never left open beside version 2's.
    assert transfers_of(second) == [
        (ann.pk, None, 200),
        (None, bill.pk, 200),
        (ann.pk, bill.pk, 80),
    ]
    assert [
        (
            transfer.payer_id,
            transfer.payee_id,
            transfer.amount_minor,
            transfer.paid_at is None,
            transfer.superseded_by_id,
        )
        for transfer in first.transfers.order_by("-amount_minor", "payer_id")
    ] == [
        (bill.pk, None, 200, True, second.pk),
        (None, ann.pk, 200, True, second.pk),
        (bill.pk, ann.pk, 40, False, None),
    ]
    assert {
        line["player"]: (line["settled_before"], line["difference"]) for line in second.lines
    } == {
        None: (0, 0),
        ann.pk: (40, -280),
        bill.pk: (-40, 280),
    }
    assert second.details["changes"] == [
        {"player": ann.pk, "field": "stakes", "before": 40, "after": -40},
        {"player": ann.pk, "field": "prize", "before": 700, "after": 300},
        {"player": bill.pk, "field": "stakes", "before": -40, "after": 40},
        {"player": bill.pk, "field": "prize", "before": 300, "after": 700},
    ]
    assert (second.details["superseded"], second.details["kept_paid"]) == (2, 1)
    # A superseded transfer cannot be marked paid; nothing is stored.
    replaced = first.transfers.get(payer=None)
    with pytest.raises(Problem) as refused:
        settle_up.mark_transfer_paid(transfer_id=replaced.pk, user=organiser)
    assert (refused.value.status_code, refused.value.code, refused.value.errors[0]["pointer"]) == (
        409,
        "transfer_superseded",
        "/transfer",
    )
    replaced.refresh_from_db()
    assert replaced.paid_at is None


def test_marking_paid_by_payer_payee_or_organiser_only_and_once(night_event):
    event, night = night_event
    ann, bill, cait, _ = event.players
    ann_user, bill_user, cait_user = (
        with_verified_address(make_user(name, email=f"{name}@example.org"))
        for name in ("ann", "bill", "cait")
    )
    for player, user in ((ann, ann_user), (bill, bill_user), (cait, cait_user)):
        player.user = user
        player.save()
        event.world.club.memberships.create(user=user, role="player")
    game = start_game(event, [ann, bill])
    win_game(event, game, 0)
    run_on_commit(services.close_night, night_id=night.pk, user=event.world.users["organiser"])
    transfer = SettlementTransfer.objects.get(settlement__night=night, kind="stakes")
    with pytest.raises(Problem) as refused:
        settle_up.mark_transfer_paid(transfer_id=transfer.pk, user=cait_user)
    assert (refused.value.status_code, refused.value.code) == (403, "not_a_party")
    with pytest.raises(Problem) as hidden:
        settle_up.mark_transfer_paid(transfer_id=transfer.pk, user=event.world.users["outsider"])
    assert hidden.value.status_code == 404
    paid = settle_up.mark_transfer_paid(transfer_id=transfer.pk, user=bill_user)
    assert (paid.paid_by, paid.paid_at is not None) == (bill_user, True)
    again = settle_up.mark_transfer_paid(
        transfer_id=transfer.pk, user=event.world.users["organiser"]
    )
    assert (again.paid_by, again.paid_at) == (bill_user, paid.paid_at)
    # The e-mails: Ann and Bill were parties with addresses (Cait played nothing), once each.
    assert sorted(message.to[0] for message in mail.outbox) == [
        "ann@example.org",
        "bill@example.org",
    ]
    to_ann = next(message for message in mail.outbox if message.to == ["ann@example.org"])
    assert to_ann.subject == "The Local: your results at Friday"
    assert to_ann.body == (
        "Hello Player 01,\n\nYour results at Friday (The Local):\nPlace 1 of 2\n"
        "1 game played, 1 won, 25 points\nRating +3.43, now 3.43\nSeason table: 1 of 2\n\n"
        "Stakes +€0.40, entry fee €5.00 (owed), prize €7.00: your net is "
        "+€2.40.\n\nFirst place: 70% of the €10.00 pot, €7.00 (Player 01)\n"
        "Second place: 30% of the €10.00 pot, €3.00 (Player 02)\n\n"
        "The club pays Player 01 €2.00.\nPlayer 02 pays Player 01 €0.40.\n\n-- \n"
        "You get this after each event you play. Turn these messages off:\n"
        f"http://localhost:8000/mail/results-off/{results_mail_token(ann_user.pk)}/\n"
    )
    settlement = transfer.settlement
    assert mails.send_settle_up_mails(settlement_id=settlement.pk) == 0
    assert len(mail.outbox) == 2


def test_one_open_night_per_club_and_a_night_closes_once(night_event):
    event, night = night_event
    organiser = event.world.users["organiser"]
    with pytest.raises(Problem) as refused:
        services.open_night(club=event.club, user=organiser)
    assert refused.value.code == "night_open"
    game = start_game(event, event.players[:2])
    assert list_night_game_ids(night=night) == [game]  # while open: the club's games since
    with pytest.raises(Problem) as playing:
        services.close_night(night_id=night.pk, user=organiser)
    assert (playing.value.code, str(playing.value.detail)) == (
        "games_in_progress",
        f"Games [{game}] are still in progress; finish them first.",
    )
    assert not NightGame.objects.exists()  # refused: nothing stored


@pytest.mark.parametrize(
    "split, pointer",
    [
        ([60, 50], "/prize_split"),
        ([0], "/prize_split/0"),
        (["50"], "/prize_split/0"),
        ("50", "/prize_split"),
    ],
)
def test_a_bad_prize_split_is_refused_naming_the_place(night_event, split, pointer):
    event, night = night_event
    with pytest.raises(Problem) as refused:
        services.set_prize_split(night_id=night.pk, percentages=split, user=None)
    assert (refused.value.code, refused.value.errors[0]["pointer"]) == (
        "invalid_prize_split",
        pointer,
    )


@pytest.mark.django_db(transaction=True)
def test_settling_concurrently_stores_one_version():
    event = build_event(players=2)
    organiser = event.world.users["organiser"]
    night = services.open_night(club=event.club, user=organiser)
    game = start_game(event, event.players)
    win_game(event, game, 1)
    services.close_night(night_id=night.pk, user=organiser)  # on commit: settles in process
    Settlement.objects.all().delete()
    barrier = threading.Barrier(4)
    results = []

    def settle():
        barrier.wait()
        try:
            results.append(settle_up.settle_event(night_id=night.pk))
        finally:
            connection.close()

    threads = [threading.Thread(target=settle) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(result is not None for result in results) == [False, False, False, True]
    (settlement,) = Settlement.objects.filter(night=night)
    assert transfers_of(settlement) == [(event.players[0].pk, event.players[1].pk, 40)]


@pytest.mark.django_db
def test_closing_a_tournament_stores_its_settlement_with_the_prize_split():
    event = build_event(players=4)
    tournament_id = event.create_tournament(
        name="Cup",
        game="25",
        format="knockout",
        stake="0.20",
        entry_fee="5.00",
        entrants=[
            {"player": player.pk, "seed": index + 1} for index, player in enumerate(event.players)
        ],
    )["id"]
    services.set_prize_split(
        tournament_id=tournament_id, percentages=[60, 30], user=event.world.users["organiser"]
    )
    # This club has no pot at the door: fees and prizes settle between players.
    settle_up.set_settle_up_rule(club=event.club, between_players=True)
    semis = event.draw(tournament_id)["matches"]
    win_match(event, tournament_id, semis[0]["id"], 0)  # 1 beats 4
    win_match(event, tournament_id, semis[1]["id"], 0)  # 2 beats 3
    (final,) = event.rounds(tournament_id)[1]["matches"]
    win_match(event, tournament_id, final["id"], 1)  # 2 beats 1
    assert Settlement.objects.count() == 0
    event.ok("post", f"/api/tournaments/{tournament_id}/close/")

    (settlement,) = Settlement.objects.filter(tournament_id=tournament_id)
    one, two, three, four = (player.pk for player in event.players)
    # Pot 20.00: 2 wins (12.00), 1 second (6.00); 3 and 4 tie third: the 2.00 left (10 %)
    # stays with the club. Stakes: 1 +0.40 -0.40, 2 +0.40 +0.40, 3 -0.40, 4 -0.40.
    assert {
        line["player"]: (line["stakes"], line["prize"], line["net"]) for line in settlement.lines
    } == {
        None: (0, 0, 200),
        one: (0, 600, 100),
        two: (80, 1200, 780),
        three: (-40, 0, -540),
        four: (-40, 0, -540),
    }
    assert transfers_of(settlement) == [
        (three, two, 540),
        (four, two, 240),
        (four, None, 200),
        (four, one, 100),
    ]
