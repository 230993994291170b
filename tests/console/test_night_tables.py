"""A club night's tables from the console, with Django's test client: start a game at a table by
the players' names, each refusal beside its field with the form keeping what was chosen, the
tables and the game now at each, every table's link in one step, the QR sheet with one link
revoked alone, and the open night's page costing the same however many tables it shows.
"""

from __future__ import annotations

import re

import pytest
from django.test import Client

from games.models import Game
from settlements.models import NightGame
from settlements.services import open_night
from table_links.models import TableLink
from tests.helpers import count_queries, logged_in_client
from tests.tournaments.play_helpers import build_event, win_game

pytestmark = pytest.mark.django_db

# The open night's page: the session and its user (2), the club with the viewer's role (1), the
# night, the club's active players (the start form), the tables with their games (2: games,
# seats with players), the club's settle-up rule, how many tables have a link, the prize split,
# the settle-up versions (none yet: no transfers to fetch); no fees without an entry fee
OPEN_NIGHT_PAGE = 11


def _organiser(event) -> Client:
    return logged_in_client(event.world.users["organiser"])


def _night_url(event, night) -> str:
    return f"/clubs/{event.club.slug}/console/nights/{night.pk}/"


def _start(client, url, table, players, **extra):
    form = {
        "action": "start_game",
        "table": str(table),
        "game": "25",
        "sides": "alone",
        "first_dealer": "",
        "stake": "",
    }
    for place, player in enumerate(players, start=1):
        form[f"place_{place}"] = str(player.pk)
    form.update(extra)
    return client.post(url, form)


def _field_problems(page: str, element_id: str, end: str = "</form>") -> str:
    """The text of the page from the element ``element_id`` to the end of its form."""
    start = page.index(f'id="{element_id}"')
    return page[start : page.index(end, start)]


def test_a_game_is_started_at_a_table_of_the_night_and_the_tables_get_their_links():
    event = build_event(players=6)
    night = open_night(club=event.club, user=event.world.users["organiser"], name="Tuesday")
    client = _organiser(event)
    url = _night_url(event, night)
    first, second, third, fourth, fifth, sixth = event.players

    page = client.get(url).content.decode()
    # Every control has its label; the players are chosen by name.
    for field in ("table", "game", "sides", "first_dealer", "stake", "place_1", "place_6"):
        assert f'<label for="id_{field}">' in page, field
    assert f'<option value="{first.pk}">Player 01</option>' in page
    assert 'name="table" value="1"' in page  # the first free table
    assert "No game has started at a table yet." in page

    # A partnership game at table 2: Player 01 and 03 against 02 and 04, Player 02 deals first.
    started = _start(
        client,
        url,
        2,
        [first, second, third, fourth],
        sides="partners",
        first_dealer=str(second.pk),
        stake="0.50",
        game="45",
    )
    assert started.status_code == 302
    game = Game.objects.get()
    assert (game.variant, game.first_dealer, game.stake_minor, game.side_of_seat) == (
        "45",
        1,
        50,
        [0, 1, 0, 1],
    )
    assert NightGame.objects.get(game=game).table_number == 2
    page = client.get(url).content.decode()
    assert (
        f"Game {game.pk} started at table 2: Player 01 &amp; Player 03 v Player 02 &amp; "
        "Player 04. The table&#x27;s tablet opens it by itself."
    ) in page
    card = _field_problems(page, "night-table-2", "</article>")
    assert "Player 01 &amp; Player 03 <strong>0</strong>" in card
    assert f"Game {game.pk}: hand 1" in card

    # Table 2 is busy: refused beside the table, nothing stored, the choices kept.
    busy = _start(client, url, 2, [fifth, sixth], first_dealer=str(sixth.pk))
    assert busy.status_code == 409
    page = busy.content.decode()
    form = _field_problems(page, "start-game-form")
    assert (
        f"Table 2 is still playing game {game.pk} (Player 01 &amp; Player 03 v Player 02 "
        "&amp; Player 04): finish it first, or choose another table."
    ) in form
    assert re.search(rf'<option value="{fifth.pk}" selected>Player 05</option>', form)
    assert re.search(rf'<option value="{sixth.pk}" selected>Player 06</option>', form)
    # A first dealer who is not at the table, and pairs of an odd number of players: refused
    # beside their fields, in names.
    stray = _start(client, url, 3, [fifth, sixth], first_dealer=str(first.pk))
    assert stray.status_code == 400
    assert "Player 01 is not at this table: choose one of its players." in _field_problems(
        stray.content.decode(), "id_first_dealer"
    )
    odd = _start(client, url, 3, [fifth, sixth, first], sides="pairs")
    assert odd.status_code == 400
    assert "Partners need an even number of players, four or more; 3 are chosen." in (
        _field_problems(odd.content.decode(), "id_sides")
    )
    twice = _start(client, url, 3, [fifth, fifth])
    assert twice.status_code == 400
    assert "is seated twice" in _field_problems(twice.content.decode(), "places")
    assert Game.objects.count() == 1

    # Every table's link in one step: the tables used so far (2) by default.
    made = client.post(url, {"action": "table_links", "tables": ""}, follow=True)
    assert "2 table links made: print the QR sheet." in made.content.decode()
    more = client.post(url, {"action": "table_links", "tables": "3"}, follow=True)
    assert "1 table link made: print the QR sheet." in more.content.decode()
    bad = client.post(url, {"action": "table_links", "tables": "100"})
    assert bad.status_code == 400
    assert "Give a number of tables from 1 to 99." in _field_problems(
        bad.content.decode(), "night-table-links"
    )
    sheet_url = f"{url}table-links/"
    sheet = client.get(sheet_url)
    assert sheet["Cache-Control"] == "private, no-store"
    page = sheet.content.decode()
    assert page.count('class="table-tent"') == 3 and page.count("<svg") == 3
    assert "Table QR sheet: Tuesday" in page
    first_link, second_link, third_link = TableLink.objects.filter(night=night).order_by(
        "table_number"
    )
    assert client.post(sheet_url, {"revoke": str(second_link.pk)}).status_code == 302
    assert list(
        TableLink.objects.filter(night=night, revoked_at__isnull=True)
        .order_by("table_number")
        .values_list("table_number", flat=True)
    ) == [1, 3]
    assert client.get(sheet_url).content.decode().count('class="table-tent"') == 2
    # Another event's link is not this night's: 404, nothing revoked.
    assert client.post(sheet_url, {"revoke": str(second_link.pk + 99)}).status_code == 404

    # The club's table-links page lists the night's tables without an expiry.
    links_page = client.get(f"/clubs/{event.club.slug}/table-links/").content.decode()
    assert links_page.count("open until its event or night closes") == 2
    assert "Tuesday, table 1" in links_page

    # The night closes: no start form, no links section.
    win_game(event, game.pk, side=0)
    assert client.post(url, {"action": "close"}).status_code == 302
    page = client.get(url).content.decode()
    assert 'id="start-game-form"' not in page and 'id="night-table-links"' not in page
    closed = _start(client, url, 1, [fifth, sixth])
    assert closed.status_code == 409
    assert "Tuesday is closed: it starts no more games." in closed.content.decode()


@pytest.mark.parametrize("tables", [1, 4])
def test_the_open_night_page_costs_the_same_however_many_tables(tables):
    event = build_event(players=8)
    organiser = event.world.users["organiser"]
    night = open_night(club=event.club, user=organiser, name="Tuesday")
    client = _organiser(event)
    url = _night_url(event, night)
    for table in range(1, tables + 1):
        pair = event.players[2 * (table - 1) : 2 * table]
        assert _start(client, url, table, pair).status_code == 302
    counted = count_queries(client.get, url)
    assert counted.response.content.decode().count('class="table-card"') == tables
    assert counted.count == OPEN_NIGHT_PAGE, counted.sql
