"""The door's pages with Django's test client: the organiser's door page (search, a tap that
checks in, the fee in one more tap, a new player), the event page's live check-in list, and the
players' own check-in from a door code (pick once, the phone remembers, "Check me in").

What it proves: exact outcomes in the database and on the page, exact 4xx for bad input (an
unknown player, no name, a bad action, an unknown or revoked door code, too many guesses, a forged
cookie), and who may open the door page (organisers only).
"""

from __future__ import annotations

import pytest
from django.core.cache import cache
from django.test import Client, override_settings

from clubs.models import Player
from settlements.models import EntryFeePayment
from tests.door.test_services import _drive
from tests.helpers import count_queries, logged_in_client
from tests.tournaments.play_helpers import build_event
from tournaments import door
from tournaments.models import AuditEntry, Entrant

pytestmark = pytest.mark.django_db

HTMX = {"HX-Request": "true"}
# Queries of the polled check-in list and of a door search, however many players
CHECK_IN_LIST = 5
DOOR_SEARCH = 6


@pytest.fixture(autouse=True)
def _fresh_counters():
    cache.clear()


@pytest.fixture
def event():
    return build_event(players=6)


def _door_url(event, tournament) -> str:
    return f"/clubs/{event.club.slug}/console/events/{tournament.pk}/door/"


def test_only_organisers_open_the_door_page(event):
    tournament = _drive(event, [])
    url = _door_url(event, tournament)
    assert Client().get(url).status_code == 302
    assert logged_in_client(event.world.users["player"]).get(url).status_code == 403
    page = logged_in_client(event.world.users["organiser"]).get(url)
    assert page.status_code == 200
    assert b'<label for="door-q">' in page.content


def test_two_letters_show_the_names_and_a_tap_checks_in(event):
    tournament = _drive(event, [{"player": event.players[0].pk}], entry_fee="5.00")
    organiser = logged_in_client(event.world.users["organiser"])
    url = _door_url(event, tournament)
    assert b"door-name" not in organiser.get(f"{url}search/?q=p").content
    found = organiser.get(f"{url}search/?q=player 0").content.decode()
    assert found.count('<button type="submit" class="door-name') == 6
    tapped = organiser.post(
        url, {"action": "check_in", "player": event.players[3].pk}, headers=HTMX
    )
    body = tapped.content.decode()
    assert tapped.status_code == 200
    assert "Player 04 is entered and checked in." in body
    assert 'name="status" value="cash"' in body
    assert Entrant.objects.get(tournament=tournament, player=event.players[3]).is_present
    paid = organiser.post(
        url, {"action": "fee", "player": event.players[3].pk, "status": "card"}, headers=HTMX
    )
    assert "Player 04: entry fee paid by card." in paid.content.decode()
    assert 'id="door-q"' in paid.content.decode()
    fee = EntryFeePayment.objects.get(tournament=tournament, player=event.players[3])
    assert (fee.status, fee.amount_minor) == ("card", 500)
    again = organiser.post(url, {"action": "check_in", "player": event.players[3].pk}, headers=HTMX)
    assert "Player 04 was already checked in." in again.content.decode()
    assert 'value="cash"' not in again.content.decode()
    assert Entrant.objects.filter(tournament=tournament, player=event.players[3]).count() == 1


def test_a_new_player_is_added_and_checked_in(event):
    tournament = _drive(event, [])
    organiser = logged_in_client(event.world.users["organiser"])
    response = organiser.post(
        _door_url(event, tournament), {"action": "new_player", "name": "Mary Byrne"}, headers=HTMX
    )
    assert "Mary Byrne is entered and checked in." in response.content.decode()
    player = Player.objects.get(club=event.club, display_name="Mary Byrne")
    assert Entrant.objects.get(tournament=tournament, player=player).is_present


@pytest.mark.parametrize(
    ("data", "status", "text"),
    [
        ({"action": "check_in", "player": "999999"}, 400, "No active player 999999"),
        ({"action": "check_in", "player": "x"}, 400, "Pick one from the list."),
        ({"action": "new_player", "name": " "}, 400, "Give a name."),
        ({"action": "new_player", "name": "Player 01"}, 400, "Player 01"),
        ({"action": "fee", "player": "1", "status": "gold"}, 400, "cash, card or owed"),
        ({"action": "dance"}, 400, "Unknown action."),
    ],
)
def test_bad_input_is_refused_beside_the_search(event, data, status, text):
    tournament = _drive(event, [], entry_fee="5.00")
    before = Entrant.objects.count(), Player.objects.count()
    response = logged_in_client(event.world.users["organiser"]).post(
        _door_url(event, tournament), data, headers=HTMX
    )
    assert response.status_code == status
    assert text in response.content.decode()
    assert (Entrant.objects.count(), Player.objects.count()) == before


def test_the_event_page_polls_its_check_in_list(event):
    tournament = _drive(event, [{"player": player.pk} for player in event.players[:2]])
    Entrant.objects.filter(tournament=tournament).update(is_present=False)
    organiser = logged_in_client(event.world.users["organiser"])
    console = f"/clubs/{event.club.slug}/console/events/{tournament.pk}/"
    page = organiser.get(console).content.decode()
    assert f'hx-get="{console}check-in/" hx-trigger="every 3s"' in page
    door.check_in_player(tournament_id=tournament.pk, player_id=event.players[1].pk, user=None)
    live = organiser.get(f"{console}check-in/").content.decode()
    entrant = Entrant.objects.get(tournament=tournament, player=event.players[1])
    assert f'value="{entrant.pk}" id="present-{entrant.pk}" checked' in live
    assert "Entrants (2, 1 here)" in live


# The players' own phones --------------------------------------------------------------------


def _phone_url(event, tournament) -> str:
    _code, token = door.create_door_code(
        tournament_id=tournament.pk, user=event.world.users["organiser"]
    )
    return f"/door/{token}/"


def test_a_phone_picks_a_name_once_then_checks_in(event):
    tournament = _drive(event, [{"player": event.players[0].pk}])
    Entrant.objects.filter(tournament=tournament).update(is_present=False)
    url = _phone_url(event, tournament)
    phone = Client()
    first = phone.get(url)
    assert first.status_code == 200 and b'<label for="door-q">' in first.content
    names = phone.get(f"{url}names/?q=player 01").content.decode()
    assert "I am Player 01" in names
    picked = phone.post(url, {"action": "pick", "player": event.players[0].pk})
    assert (picked.status_code, picked["Location"]) == (302, url)
    assert "Check me in" in phone.get(url).content.decode()  # remembered
    done = phone.post(url, {"action": "check_in"})
    assert "You are checked in, Player 01." in done.content.decode()
    assert Entrant.objects.get(tournament=tournament, player=event.players[0]).is_present
    again = phone.post(url, {"action": "check_in"})
    assert "You were already checked in, Player 01." in again.content.decode()
    (audit,) = AuditEntry.objects.filter(tournament=tournament, kind="check_in")
    assert audit.details["at"] == "phone"


def test_a_signed_in_player_with_this_is_me_needs_no_pick(event):
    tournament = _drive(event, [])
    user = event.world.users["player"]
    Player.objects.filter(pk=event.players[2].pk).update(user=user)
    url = _phone_url(event, tournament)
    phone = logged_in_client(user)
    assert "You are <strong>Player 03</strong>" in phone.get(url).content.decode()
    phone.post(url, {"action": "check_in"})
    assert Entrant.objects.get(tournament=tournament, player=event.players[2]).is_present


def test_a_forged_cookie_is_nobody_and_bad_picks_are_refused(event):
    tournament = _drive(event, [])
    url = _phone_url(event, tournament)
    phone = Client()
    phone.cookies[f"jink_door_{event.club.pk}"] = str(event.players[0].pk)
    assert "You are" not in phone.get(url).content.decode()
    refused = phone.post(url, {"action": "check_in"})
    assert (refused.status_code, "Pick your name first." in refused.content.decode()) == (400, True)
    bad = phone.post(url, {"action": "pick", "player": "999999"})
    assert bad.status_code == 400
    assert phone.post(url, {"action": "sing"}).status_code == 400
    assert not Entrant.objects.filter(tournament=tournament).exists()


@override_settings(DOOR_PICKS=2)
def test_one_network_picks_a_limited_number_of_names(event):
    tournament = _drive(event, [])
    url = _phone_url(event, tournament)
    statuses = [
        Client().post(url, {"action": "pick", "player": player.pk}).status_code
        for player in event.players[:3]
    ]
    assert statuses == [302, 302, 429]


@override_settings(TABLE_CODE_GUESSES=2)
def test_unknown_or_revoked_codes_count_as_guesses(event):
    tournament = _drive(event, [])
    url = _phone_url(event, tournament)
    door.revoke_door_codes(tournament_id=tournament.pk, user=None)
    phone = Client()
    assert phone.get(url).status_code == 404
    assert phone.get("/door/not-a-code/").status_code == 404
    refused = phone.get("/door/not-a-code/")
    assert (refused.status_code, refused["Retry-After"].isdigit()) == (429, True)


def test_the_door_speaks_french(event):
    tournament = _drive(event, [{"player": event.players[0].pk}])
    organiser = logged_in_client(event.world.users["organiser"])
    french = {"HTTP_ACCEPT_LANGUAGE": "fr"}
    page = organiser.get(_door_url(event, tournament), **french).content.decode()
    assert "Tapez deux ou trois lettres du nom" in page
    assert "Créer le code d'entrée" in page
    names = organiser.get(f"{_door_url(event, tournament)}search/?q=pl", **french)
    assert "Nouveau joueur : nom complet" in names.content.decode()
    url = _phone_url(event, tournament)
    phone = Client()
    assert "Tapez deux ou trois lettres de votre nom" in phone.get(url, **french).content.decode()
    assert "Je suis Player 01" in phone.get(f"{url}names/?q=pl", **french).content.decode()
    phone.post(url, {"action": "pick", "player": event.players[0].pk}, **french)
    done = phone.post(url, {"action": "check_in"}, **french).content.decode()
    assert "Vous étiez déjà pointé, Player 01." in done


def test_the_polled_list_and_the_search_cost_fixed_queries(event):
    tournament = _drive(event, [{"player": player.pk} for player in event.players])
    organiser = logged_in_client(event.world.users["organiser"])
    console = f"/clubs/{event.club.slug}/console/events/{tournament.pk}/"
    # the session and its user, the club with the viewer's role, the tournament (4); the
    # entrants (1); the fees: the club's settle-up rule, the players, the marks (0 without a fee)
    assert count_queries(organiser.get, f"{console}check-in/").count == CHECK_IN_LIST
    for player in event.players[:3]:
        door.check_in_player(tournament_id=tournament.pk, player_id=player.pk, user=None)
    assert count_queries(organiser.get, f"{console}check-in/").count == CHECK_IN_LIST
    # the same four, then the players matching and their entries (2)
    assert count_queries(organiser.get, f"{console}door/search/?q=pl").count == DOOR_SEARCH


def test_the_door_code_lives_until_a_time_on_the_clubs_clock(event):
    from zoneinfo import ZoneInfo

    type(event.club).objects.filter(pk=event.club.pk).update(time_zone="America/Halifax")
    tournament = _drive(event, [])
    code, _token = door.create_door_code(tournament_id=tournament.pk, user=None)
    until = code.expires_at.astimezone(ZoneInfo("America/Halifax")).strftime("%H:%M")
    page = logged_in_client(event.world.users["organiser"]).get(_door_url(event, tournament))
    assert f"It works until {until} or the event's close" in page.content.decode()
