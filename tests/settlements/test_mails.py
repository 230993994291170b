"""The results message after an event: one per player and settle-up version, in their language,
plain text and HTML, off from its own link.

A club night (fee 5.00, prizes 70/30) where Ann beats Bill once; both have accounts with an
e-mail address, Ann's language is French. Closing the night stores version 1 and sends each of
them one message (the task run again sends nothing); a correction (Bill took every trick) stores
version 2 and sends a new one saying what changed; Ann turns the messages off from her link (a
page that asks first) and gets nothing after that; a forged link is a 404.
"""

from __future__ import annotations

import pytest
from django.core import mail
from django.test import Client, TestCase

from accounts.mail_settings import remember_language, results_mail_token
from accounts.models import MailSettings
from games.services import correct_hand
from settlements import services
from settlements.models import Settlement, SettleUpMail
from settlements.tasks import send_settle_up_mails_task
from tests.accounts.helpers import with_verified_address
from tests.clubs.factories import make_user
from tests.tournaments.play_helpers import build_event, start_game, win_game

pytestmark = pytest.mark.django_db


def run_on_commit(function, **kwargs):
    with TestCase.captureOnCommitCallbacks(execute=True):
        return function(**kwargs)


@pytest.fixture
def night_played():
    """The night closed (version 1 sent): (event, night, game id, Ann's user, Bill's user)."""
    event = build_event(players=4)
    organiser = event.world.users["organiser"]
    night = services.open_night(
        club=event.club, user=organiser, name="Friday", entry_fee_minor=500, prize_split=[70, 30]
    )
    ann, bill, *_ = event.players
    users = []
    for player, name in ((ann, "ann"), (bill, "bill")):
        user = with_verified_address(make_user(name, email=f"{name}@example.org"))
        player.user = user
        player.save()
        event.world.club.memberships.create(user=user, role="player")
        users.append(user)
    remember_language(user=users[0], language="fr")
    game = start_game(event, [ann, bill])
    win_game(event, game, 0)
    run_on_commit(services.close_night, night_id=night.pk, user=organiser)
    return event, night, game, *users


def off_url(user) -> str:
    return f"http://localhost:8000/mail/results-off/{results_mail_token(user.pk)}/"


def correct(event, game):
    with TestCase.captureOnCommitCallbacks(execute=True):
        correct_hand(
            game_id=game,
            number=1,
            user=event.world.users["scorekeeper"],
            record={"dealer": 0, "trump": "S", "trick_winners": [1] * 5},
            if_match=None,
        )


def test_each_player_gets_one_message_in_their_language_in_text_and_html(night_played):
    event, night, game, ann_user, bill_user = night_played
    assert sorted((message.to, message.subject) for message in mail.outbox) == [
        (["ann@example.org"], "The Local : vos résultats à Friday"),
        (["bill@example.org"], "The Local: your results at Friday"),
    ]
    to_ann, to_bill = sorted(mail.outbox, key=lambda message: message.to)
    assert to_bill.body.splitlines() == [
        "Hello Player 02,",
        "",
        "Your results at Friday (The Local):",
        "Place 2 of 2",
        "1 game played, 0 won, 0 points",
        "Rating -1.83, now -1.83",
        "Season table: 2 of 2",
        "",
        "Stakes -€0.40, entry fee €5.00 (owed), prize €3.00: your net is -€2.40.",
        "",
        "First place: 70% of the €10.00 pot, €7.00 (Player 01)",
        "Second place: 30% of the €10.00 pot, €3.00 (Player 02)",
        "",
        "Player 02 pays the club €2.00.",
        "Player 02 pays Player 01 €0.40.",
        "",
        "-- ",
        "You get this after each event you play. Turn these messages off:",
        off_url(bill_user),
    ]
    assert to_ann.body.splitlines()[:7] == [
        "Bonjour Player 01,",
        "",
        "Vos résultats à Friday (The Local) :",
        "Rang 1 sur 2",
        "1 partie jouée, 1 gagnée, 25 points",
        "Cote +3,43, maintenant 3,43",
        "Classement de la saison : 1 sur 2",
    ]
    assert to_ann.body.splitlines()[-1] == off_url(ann_user)
    assert to_ann.extra_headers["List-Unsubscribe"] == f"<{off_url(ann_user)}>"
    ((html, kind),) = to_ann.alternatives
    assert kind == "text/html"
    assert '<html lang="fr">' in html
    assert "<li>Rang 1 sur 2</li><li>1 partie jouée, 1 gagnée, 25 points</li>" in html
    assert f'<a href="{off_url(ann_user)}">' in html
    # Once per version: the task again sends nothing.
    settlement = Settlement.objects.get(night=night)
    assert send_settle_up_mails_task.apply(args=(settlement.pk,)).get() == 0
    assert len(mail.outbox) == 2
    assert SettleUpMail.objects.filter(settlement=settlement, sent_at__isnull=False).count() == 2


def test_a_corrected_version_sends_a_new_message_saying_what_changed(night_played):
    event, night, game, ann_user, bill_user = night_played
    mail.outbox.clear()
    correct(event, game)
    assert Settlement.objects.filter(night=night).count() == 2
    to_bill = next(message for message in mail.outbox if message.to == ["bill@example.org"])
    assert len(mail.outbox) == 2
    lines = to_bill.body.splitlines()
    assert lines[3:5] == ["Place 1 of 2", "1 game played, 1 won, 25 points"]
    assert (
        "This is version 2 of the settle-up; it replaces the transfers still open before it. "
        "What changed:"
    ) in lines


def test_turned_off_from_the_link_no_more_messages(night_played):
    event, night, game, ann_user, bill_user = night_played
    client = Client()
    path = off_url(ann_user).removeprefix("http://localhost:8000")
    asked = client.get(path)
    assert asked.status_code == 200
    assert b'id="mail-off-confirm"' in asked.content
    assert not MailSettings.objects.filter(user=ann_user, results_mail=False).exists()
    done = client.post(path)
    assert done.status_code == 200
    assert b"Done: you will get no more results by e-mail." in done.content
    assert MailSettings.objects.get(user=ann_user).results_mail is False
    assert MailSettings.objects.get(user=ann_user).language == "fr"  # kept
    assert client.get(path.replace("/results-off/", "/results-off/x")).status_code == 404
    mail.outbox.clear()
    correct(event, game)
    assert [message.to for message in mail.outbox] == [["bill@example.org"]]


def test_the_language_switch_sets_a_logged_in_accounts_mail_language(night_played):
    event, night, game, ann_user, bill_user = night_played
    client = Client()
    client.force_login(bill_user)
    response = client.post("/i18n/setlang/", {"language": "fr", "next": "/me/"})
    assert (response.status_code, response["Location"]) == (302, "/me/")
    assert MailSettings.objects.get(user=bill_user).language == "fr"
    Client().post("/i18n/setlang/", {"language": "en", "next": "/"})  # anonymous: nothing kept
    assert MailSettings.objects.get(user=bill_user).language == "fr"
    mail.outbox.clear()
    correct(event, game)
    to_bill = next(message for message in mail.outbox if message.to == ["bill@example.org"])
    assert to_bill.subject == "The Local : vos résultats à Friday"


def test_a_tournaments_message_gives_the_entrants_place(db):
    from tests.tournaments.play_helpers import win_match

    event = build_event(players=4)
    for index, player in enumerate(event.players):
        player.user = with_verified_address(
            make_user(f"p{index + 1}", email=f"p{index + 1}@example.org")
        )
        player.save()
    tournament_id = event.create_tournament(
        name="Cup",
        game="25",
        format="knockout",
        entry_fee="5.00",
        entrants=[
            {"player": player.pk, "seed": index + 1} for index, player in enumerate(event.players)
        ],
    )["id"]
    semis = event.draw(tournament_id)["matches"]
    win_match(event, tournament_id, semis[0]["id"], 0)  # 1 beats 4
    win_match(event, tournament_id, semis[1]["id"], 0)  # 2 beats 3
    (final,) = event.rounds(tournament_id)[1]["matches"]
    win_match(event, tournament_id, final["id"], 1)  # 2 beats 1
    with TestCase.captureOnCommitCallbacks(execute=True):
        event.ok("post", f"/api/tournaments/{tournament_id}/close/")
    places = {
        message.to[0]: message.body.splitlines()[3:5]
        for message in mail.outbox
        if message.subject == "The Local: your results at Cup"
    }
    assert places == {
        "p1@example.org": ["Place 2 of 4", "2 games played, 1 won, 25 points"],
        "p2@example.org": ["Place 1 of 4", "2 games played, 2 won, 50 points"],
        "p3@example.org": ["Place 3 of 4", "1 game played, 0 won, 0 points"],
        "p4@example.org": ["Place 3 of 4", "1 game played, 0 won, 0 points"],
    }
