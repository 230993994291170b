"""The exchange format in the console: the night's and the event's pages link their exchange
file, which downloads; the import page takes the file, says what it did and lists the import; a
bad file is listed problem by problem with its place, nothing stored."""

from __future__ import annotations

import json

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from settlements.models import Night
from tests.exchange.helpers import row_counts
from tests.exchange.matrix import small_night_document
from tests.helpers import logged_in_client
from tests.tournaments.play_helpers import build_event

pytestmark = pytest.mark.django_db


def _upload(client, slug, body: bytes):
    return client.post(
        f"/clubs/{slug}/console/imports/",
        {"file": SimpleUploadedFile("night.exchange.json", body, "application/json")},
    )


def test_download_from_the_night_page_and_import_on_the_import_page():
    home = build_event(players=2)
    night = Night.objects.create(
        club=home.club, name="Quiet night", status="closed", opened_at="2026-12-01T19:00Z"
    )
    client = logged_in_client(home.world.users["organiser"])
    page = client.get(f"/clubs/{home.club.slug}/console/nights/{night.pk}/")
    link = f"/clubs/{home.club.slug}/console/nights/{night.pk}/exchange/"
    assert link in page.content.decode()
    download = client.get(link)
    assert download["Content-Disposition"] == (
        f'attachment; filename="{home.club.slug}-night-{night.pk}.exchange.json"'
    )
    document = json.loads(download.content)
    assert (document["format"], document["night"]["name"]) == ("jink-exchange", "Quiet night")

    away = build_event(players=0, slug="federation")
    organiser = logged_in_client(away.world.users["organiser"])
    assert (
        "/console/imports/" in organiser.get(f"/clubs/{away.club.slug}/console/").content.decode()
    )
    response = _upload(organiser, away.club.slug, download.content)
    imported = Night.objects.get(club=away.club)
    assert response.status_code == 302
    assert response["Location"] == f"/clubs/{away.club.slug}/console/nights/{imported.pk}/"
    again = _upload(organiser, away.club.slug, download.content)
    assert again.status_code == 302
    page = organiser.get(f"/clubs/{away.club.slug}/console/imports/")
    text = page.content.decode()
    assert text.count(f"/console/nights/{imported.pk}/") == 2
    assert "unchanged" in text and "created" in text


def test_an_event_page_links_its_exchange_file():
    home = build_event(players=4)
    tournament = home.create_tournament(name="Cup", game="25", format="round_robin", table_size=2)
    client = logged_in_client(home.world.users["organiser"])
    link = f"/clubs/{home.club.slug}/console/events/{tournament['id']}/exchange/"
    assert (
        link
        in client.get(
            f"/clubs/{home.club.slug}/console/events/{tournament['id']}/"
        ).content.decode()
    )
    document = json.loads(client.get(link).content)
    assert (document["origin"]["kind"], document["event"]["name"]) == ("event", "Cup")


@pytest.mark.parametrize(
    ("body", "status", "shown"),
    [
        (b"{not json", 400, "The file is not JSON"),
        (json.dumps({"format": "jink-exchange"}).encode(), 400, "<code>/</code>"),
        (
            json.dumps({**small_night_document(), "players": [{"id": 1, "name": ""}]}).encode(),
            400,
            "<code>/players/0/name</code>",
        ),
    ],
)
def test_a_bad_file_is_listed_with_its_places_and_nothing_is_stored(body, status, shown):
    away = build_event(players=0, slug="federation")
    organiser = logged_in_client(away.world.users["organiser"])
    before = row_counts()
    response = _upload(organiser, away.club.slug, body)
    assert response.status_code == status
    assert "Nothing was imported" in response.content.decode()
    assert shown in response.content.decode()
    assert row_counts() == before


def test_the_import_page_and_its_problems_in_french():
    away = build_event(players=0, slug="federation")
    organiser = logged_in_client(away.world.users["organiser"])
    url = f"/clubs/{away.club.slug}/console/imports/"
    page = organiser.get(url, headers={"accept-language": "fr"}).content.decode()
    assert "Importer des résultats" in page and "Aucune importation pour l'instant." in page
    document = small_night_document()
    document["night"]["fees"] = [{"player": 99, "status": "cash", "amount": "2.00"}]
    response = organiser.post(
        url,
        {
            "file": SimpleUploadedFile(
                "night.json", json.dumps(document).encode(), "application/json"
            )
        },
        headers={"accept-language": "fr"},
    )
    text = response.content.decode()
    assert response.status_code == 400
    assert "Rien n'a été importé" in text
    assert "Le fichier n&#x27;est pas un document d&#x27;échange valide (version 1)." in text
    assert "<code>/night/fees/0/player</code>" in text
    assert "Aucun joueur du fichier n&#x27;a cet identifiant." in text
