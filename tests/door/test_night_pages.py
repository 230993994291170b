"""A club night's door and hall box with Django's test client: the organiser's door page (search,
a tap that checks in, the night's entry fee in one more tap, a new player), the night page's
live check-in list and hall box, and the players' own check-in from the night's door code.

What it proves: exact outcomes in the database and on the page, exact 4xx for bad input (an
unknown player, no name, a closed night, an unknown code), who may open the pages (organisers
only), and the polled list's and the search's fixed queries.
"""

from __future__ import annotations

import pytest
from django.core.cache import cache
from django.test import Client

from clubs.models import Player
from hall.models import HallLink, HallSettings
from settlements import attendance
from settlements.models import EntryFeePayment, NightAttendance
from settlements.services import close_night, open_night
from tests.helpers import logged_in_client
from tests.tournaments.play_helpers import build_event

pytestmark = pytest.mark.django_db

HTMX = {"HX-Request": "true"}
# The polled list: the session and its user, the club with the viewer's role, the night (4), who
# is here with their players and who checked them in (1)
NIGHT_CHECK_IN_LIST = 5
# A door search: the same four, the players matching and who of them is here (2)
NIGHT_DOOR_SEARCH = 6


@pytest.fixture(autouse=True)
def _fresh_counters():
    cache.clear()


@pytest.fixture
def event():
    return build_event(players=6)


def _night(event, **extra):
    return open_night(club=event.club, user=event.world.users["organiser"], name="Tuesday", **extra)


def _console(event, night) -> str:
    return f"/clubs/{event.club.slug}/console/nights/{night.pk}/"


def test_only_organisers_open_the_nights_door_list_and_hall_box(event):
    night = _night(event)
    base = _console(event, night)
    for url in (f"{base}door/", f"{base}door/search/?q=pl", f"{base}check-in/", f"{base}hall/"):
        assert Client().get(url).status_code == 302, url
        assert logged_in_client(event.world.users["player"]).get(url).status_code == 403, url
        assert logged_in_client(event.world.users["organiser"]).get(url).status_code == 200, url


def test_a_tap_checks_in_and_one_more_marks_the_nights_fee(event):
    night = _night(event, entry_fee_minor=500)
    organiser = logged_in_client(event.world.users["organiser"])
    url = f"{_console(event, night)}door/"
    page = organiser.get(url).content.decode()
    assert "Door — Tuesday" in page and "Back to the night" in page
    found = organiser.get(f"{url}search/?q=player 0").content.decode()
    assert found.count('<button type="submit" class="door-name') == 6
    assert "not entered" not in found
    tapped = organiser.post(
        url, {"action": "check_in", "player": event.players[3].pk}, headers=HTMX
    )
    body = tapped.content.decode()
    assert tapped.status_code == 200
    assert "Player 04 is checked in." in body
    assert 'name="status" value="cash"' in body
    row = NightAttendance.objects.get(night=night)
    assert (row.player_id, row.at, row.by) == (
        event.players[3].pk,
        "door",
        event.world.users["organiser"],
    )
    paid = organiser.post(
        url, {"action": "fee", "player": event.players[3].pk, "status": "cash"}, headers=HTMX
    )
    assert "Player 04: entry fee paid in cash." in paid.content.decode()
    fee = EntryFeePayment.objects.get(night=night, player=event.players[3])
    assert (fee.status, fee.amount_minor) == ("cash", 500)
    again = organiser.post(url, {"action": "check_in", "player": event.players[3].pk}, headers=HTMX)
    assert "Player 04 was already checked in." in again.content.decode()
    assert 'value="cash"' not in again.content.decode()
    assert NightAttendance.objects.count() == 1
    later = organiser.post(url, {"action": "check_in", "player": event.players[4].pk}, headers=HTMX)
    assert 'value="later"' in later.content.decode()
    left = organiser.post(
        url, {"action": "fee", "player": event.players[4].pk, "status": "later"}, headers=HTMX
    )
    assert "Checked in; the entry fee is left for later." in left.content.decode()
    assert EntryFeePayment.objects.count() == 1


def test_a_new_player_is_added_and_checked_in_and_bad_input_refused(event):
    night = _night(event)
    organiser = logged_in_client(event.world.users["organiser"])
    url = f"{_console(event, night)}door/"
    added = organiser.post(url, {"action": "new_player", "name": "Úna Walsh"}, headers=HTMX)
    assert "Úna Walsh is checked in." in added.content.decode()
    una = Player.objects.get(display_name="Úna Walsh")
    assert NightAttendance.objects.get(night=night).player == una
    nameless = organiser.post(url, {"action": "new_player", "name": " "}, headers=HTMX)
    assert (nameless.status_code, "Give a name." in nameless.content.decode()) == (400, True)
    unknown = organiser.post(url, {"action": "check_in", "player": "99999"}, headers=HTMX)
    assert unknown.status_code == 400
    assert "No active player 99999 in this club." in unknown.content.decode()
    assert NightAttendance.objects.count() == 1
    close_night(night_id=night.pk, user=event.world.users["organiser"])
    closed = organiser.post(url, {"action": "check_in", "player": event.players[0].pk})
    assert closed.status_code == 409
    assert "Tuesday is closed: nobody checks in any more." in closed.content.decode()
    assert "The night is closed: nobody checks in any more." in closed.content.decode()
    assert NightAttendance.objects.count() == 1


def test_the_night_page_loads_its_check_in_list_and_hall_box(event, django_assert_num_queries):
    night = _night(event)
    organiser = logged_in_client(event.world.users["organiser"])
    base = _console(event, night)
    page = organiser.get(base).content.decode()
    assert f'hx-get="{base}check-in/" hx-trigger="load"' in page
    assert f'hx-get="{base}hall/" hx-trigger="load"' in page
    assert f'href="{base}door/"' in page
    empty = organiser.get(f"{base}check-in/").content.decode()
    assert "Nobody has checked in yet." in empty
    assert f'hx-get="{base}check-in/" hx-trigger="every 3s"' in empty
    attendance.check_in_night_player(night_id=night.pk, player_id=event.players[1].pk, user=None)
    attendance.check_in_night_player(
        night_id=night.pk, player_id=event.players[0].pk, user=None, at="phone"
    )
    with django_assert_num_queries(NIGHT_CHECK_IN_LIST):
        live = organiser.get(f"{base}check-in/").content.decode()
    assert "Checked in (2)" in live
    assert live.index("Player 02") < live.index("Player 01")  # in the order they came
    assert "own phone" in live and "at the door" in live
    with django_assert_num_queries(NIGHT_DOOR_SEARCH):
        organiser.get(f"{base}door/search/?q=pl")


def test_the_hall_box_makes_the_link_runs_the_clock_and_hides_the_leaders(event):
    night = _night(event)
    organiser = logged_in_client(event.world.users["organiser"])
    url = f"{_console(event, night)}hall/"
    made = organiser.post(url, {"action": "make_link"}, headers=HTMX).content.decode()
    assert "The hall link is made: open it on the hall&#x27;s TV." in made
    link = HallLink.objects.get(night=night, revoked_at__isnull=True)
    assert 'id="hall-url"' in made and f'hx-post="{url}"' in made
    assert "it ends with the night." in made and "<h3>Clock</h3>" in made
    started = organiser.post(url, {"action": "start", "minutes": "15"}, headers=HTMX)
    assert "Running: 1" in started.content.decode()  # 14:59 or 15:00 left
    hidden = organiser.post(url, {"action": "hide_leaders"})
    assert (hidden.status_code, hidden["Location"]) == (302, f"{_console(event, night)}#hall")
    settings = HallSettings.objects.get(night=night)
    assert (settings.clock_state, settings.hide_leaders, settings.tournament_id) == (
        "running",
        True,
        None,
    )
    bad = organiser.post(url, {"action": "start", "minutes": "0"}, headers=HTMX)
    assert bad.status_code == 400
    organiser.post(url, {"action": "revoke_link"}, headers=HTMX)
    link.refresh_from_db()
    assert link.revoked_at is not None


def test_a_phone_checks_in_at_the_night_with_its_door_code(event):
    night = _night(event)
    organiser = logged_in_client(event.world.users["organiser"])
    door_page = organiser.post(f"{_console(event, night)}door/", {"action": "door_code"})
    assert "A new door code is live" in door_page.content.decode()
    poster = organiser.get(f"{_console(event, night)}door/poster/").content.decode()
    assert "<h1>Tuesday</h1>" in poster and "<svg" in poster
    _code, token = attendance.create_night_door_code(night_id=night.pk, user=None)
    url = f"/door/{token}/"
    phone = Client()
    first = phone.get(url)
    assert first.status_code == 200 and "<h1>Tuesday</h1>" in first.content.decode()
    names = phone.get(f"{url}names/?q=player 02").content.decode()
    assert "I am Player 02" in names
    picked = phone.post(url, {"action": "pick", "player": event.players[1].pk})
    assert (picked.status_code, picked["Location"]) == (302, url)
    done = phone.post(url, {"action": "check_in"})
    assert "You are checked in, Player 02." in done.content.decode()
    row = NightAttendance.objects.get(night=night)
    assert (row.player_id, row.at, row.by) == (event.players[1].pk, "phone", None)
    again = phone.post(url, {"action": "check_in"})
    assert "You were already checked in, Player 02." in again.content.decode()
    assert "You are checked in." in phone.get(url).content.decode()
    close_night(night_id=night.pk, user=event.world.users["organiser"])
    assert phone.get(url).status_code == 404
