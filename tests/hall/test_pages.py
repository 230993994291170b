"""The hall screen's pages and the console's hall box.

The TV's page by a hall link's token (the first screen rendered in it, strict CSP, no session),
a typed code, refusals counted as guesses; the words the modules show are the words the page
carries; the console's hall box makes and revokes the link, runs the clock and hides the leaders
through the services (htmx gets the box alone), and shows a refusal beside its field, storing
nothing.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from django.test import Client
from django.utils import translation

from hall.models import HallLink, HallSettings
from tests.hall.helpers import drive, make_hall_link, token_of
from tests.helpers import logged_in_client
from tests.tournaments.play_helpers import build_event
from tournaments.models import AuditEntry
from web.hall.strings import STRINGS, hall_strings

pytestmark = pytest.mark.django_db

STATIC = Path(__file__).resolve().parents[2] / "static" / "hall"
LOOKED_UP = re.compile(r'\bt\("((?:[^"\\]|\\.)*)"')


def _json_block(html: str, element_id: str):
    found = re.search(rf'<script id="{element_id}" type="application/json">(.*?)</script>', html)
    return json.loads(found.group(1))


def test_the_screen_page_carries_its_first_screen_and_no_inline_script():
    event = build_event(players=8)
    tournament_id = drive(event)
    link = make_hall_link(event, tournament_id)
    token = token_of(link)
    response = Client().get(f"/h/{token}/")
    assert response.status_code == 200
    html = response.content.decode()
    state = _json_block(html, "hall-state")
    assert state["panel"] == "waiting" and state["event"]["name"] == "Parish Drive"
    config = _json_block(html, "hall-config")
    assert config["api"] == f"/api/hall/{token}/"
    assert config["etag"] == Client().get(config["api"])["ETag"]
    assert "Find your seat" in _json_block(html, "hall-strings")
    assert '<script type="module" src="/static/hall/hall-page.js"></script>' in html
    assert "unsafe-inline" not in response["Content-Security-Policy"]
    assert response["Cache-Control"] == "private, no-cache"
    assert "sessionid" not in response.cookies


def test_a_typed_code_opens_its_screen_and_a_wrong_one_is_refused():
    event = build_event(players=8)
    tournament_id = drive(event)
    link = make_hall_link(event, tournament_id)
    opened = Client().get("/h/", {"code": link["code"].lower().replace("-", " ")})
    assert opened.status_code == 302
    assert opened["Location"].startswith("/h/") and opened["Location"] != "/h/"
    assert Client().get(opened["Location"]).status_code == 200
    wrong = Client().get("/h/", {"code": "ZZZZZ-ZZZZZ"})
    assert wrong.status_code == 200
    assert "No hall screen has this code" in wrong.content.decode()
    assert Client().get("/h/not-a-link/").status_code == 404


def test_the_strings_listed_are_the_strings_the_modules_look_up():
    sources = "\n".join(path.read_text() for path in sorted(STATIC.glob("*.js")))
    assert set(LOOKED_UP.findall(sources)) == set(STRINGS)
    assert len(STRINGS) == len(set(STRINGS))


def _console(event, tournament_id):
    return logged_in_client(event.world.users["organiser"]), (
        f"/clubs/{event.club.slug}/console/events/{tournament_id}/hall/"
    )


def test_the_console_box_makes_the_link_runs_the_clock_and_hides_the_leaders():
    event = build_event(players=8)
    tournament_id = drive(event)
    client, url = _console(event, tournament_id)
    page = client.get(f"/clubs/{event.club.slug}/console/events/{tournament_id}/")
    assert f'id="hall" hx-get="{url}" hx-trigger="load"' in page.content.decode()
    assert "Make the hall link" in client.get(url).content.decode()

    made = client.post(url, {"action": "make_link"})
    assert made.status_code == 302 and made["Location"].endswith("#hall")
    link = HallLink.objects.get(tournament_id=tournament_id, revoked_at__isnull=True)
    page = client.get(url).content.decode()
    shown = re.search(r'id="hall-url"[^>]*>([^<]+)</a>', page).group(1)
    assert shown.startswith("http://testserver/h/")
    assert Client().get(shown.replace("http://testserver", "")).status_code == 200
    assert "<svg" in page.split('id="hall"')[1]

    box = client.post(url, {"action": "start", "minutes": "15"}, headers={"HX-Request": "true"})
    assert box.status_code == 200
    html = box.content.decode()
    assert html.startswith('<section class="panel hall-box" id="hall"')
    assert 'data-state="running"' in html
    assert "15:00 left" in html or "14:59 left" in html
    assert client.post(url, {"action": "pause"}).status_code == 302
    assert HallSettings.objects.get(tournament_id=tournament_id).clock_state == "paused"
    client.post(url, {"action": "extend", "minutes": "5"})
    settings = HallSettings.objects.get(tournament_id=tournament_id)
    assert 1_190_000 < settings.clock_remaining_ms <= 1_200_000
    client.post(url, {"action": "hide_leaders"})
    assert HallSettings.objects.get(tournament_id=tournament_id).hide_leaders is True
    client.post(url, {"action": "revoke_link"})
    link.refresh_from_db()
    assert link.revoked_at is not None
    kinds = list(
        AuditEntry.objects.filter(tournament_id=tournament_id, kind__startswith="hall_")
        .order_by("pk")
        .values_list("kind", flat=True)
    )
    assert kinds == [
        "hall_link",
        "hall_clock",
        "hall_clock",
        "hall_clock",
        "hall_leaders",
        "hall_link",
    ]


@pytest.mark.parametrize(
    ("posted", "message"),
    [
        ({"action": "start", "minutes": "ten"}, "Give whole minutes from 1 to 240."),
        ({"action": "start", "minutes": "0"}, "Give whole minutes from 1 to 240."),
        ({"action": "pause"}, "The clock is not running."),
        ({"action": "wind"}, "Unknown action."),
    ],
)
def test_a_refusal_in_the_box_is_shown_and_stores_nothing(posted, message):
    event = build_event(players=8)
    tournament_id = drive(event)
    client, url = _console(event, tournament_id)
    refused = client.post(url, posted, headers={"HX-Request": "true"})
    assert refused.status_code in (400, 409)
    assert message in refused.content.decode()
    assert not HallSettings.objects.filter(tournament_id=tournament_id).exclude(version=1).exists()
    assert not AuditEntry.objects.filter(tournament_id=tournament_id, kind="hall_clock").exists()


def test_every_hall_string_has_a_french_translation_with_the_same_placeholders():
    placeholders = re.compile(r"%\(\w+\)s")
    with translation.override("fr"):
        french = hall_strings()
    # The same word in both languages is the only English left.
    same = {"Page %(page)s of %(count)s", "Table %(table)s", "Place %(place)s", "Points"}
    assert [text for text, shown in french.items() if shown == text and text not in same] == []
    for text, shown in french.items():
        assert sorted(placeholders.findall(text)) == sorted(placeholders.findall(shown)), text


def test_the_screen_page_speaks_french():
    event = build_event(players=8)
    tournament_id = drive(event)
    token = token_of(make_hall_link(event, tournament_id))
    html = Client(headers={"Accept-Language": "fr"}).get(f"/h/{token}/").content.decode()
    assert '<html lang="fr">' in html
    assert _json_block(html, "hall-strings")["Find your seat"] == "Trouvez votre place"
    assert "Bienvenue ! Le tirage s'affiche ici dès qu'il est publié." in html
