"""One story about the money: a club night with fees taken at the door, ties sharing the prize,
a transfer paid, then a correction after the close (a second version) — and the JSON archive,
the settle-up CSV, the API and the console's page all tell it transfer by transfer as the
stored versions do. The archive is checked against its JSON Schema (docs/archive.schema.json).
"""

from __future__ import annotations

import csv
import io
import json
import re
from html import unescape
from pathlib import Path

import jsonschema
import pytest
from django.conf import settings
from django.test import TestCase

from games.services import correct_hand
from settlements import services, settle_up
from settlements.models import Settlement, SettlementTransfer
from tests.helpers import logged_in_client
from tests.tournaments.play_helpers import build_event, win_game

pytestmark = pytest.mark.django_db

SCHEMA = json.loads((Path(settings.BASE_DIR) / "docs" / "archive.schema.json").read_text())


def _start(event, seats) -> int:
    body = {
        "game": "25",
        "seats": [player.pk for player in seats],
        "first_dealer": 0,
        "stake": "0.20",
    }
    return event.ok(
        "post", f"/api/clubs/{event.club.slug}/games/", body, status=201, role="scorekeeper"
    )["id"]


def _corrected_partly_paid_night():
    event = build_event(players=3)
    ann, bill, cait = event.players
    organiser = event.world.users["organiser"]
    night = services.open_night(
        club=event.club, user=organiser, name="Friday", entry_fee_minor=500, prize_split=[60, 40]
    )
    services.mark_entry_fee(user=organiser, night_id=night.pk, player_id=ann.pk, status="cash")
    services.mark_entry_fee(user=organiser, night_id=night.pk, player_id=bill.pk, status="owed")
    first = _start(event, [ann, bill])
    win_game(event, first, 0)  # Ann beats Bill
    win_game(event, _start(event, [cait, ann]), 0)  # Cait beats Ann
    with TestCase.captureOnCommitCallbacks(execute=True):
        services.close_night(night_id=night.pk, user=organiser)
    (version_one,) = Settlement.objects.filter(night=night)
    # Ann and Cait won a game each: they share first and second, 60% + 40% of 15.00.
    assert version_one.details["prizes"] == [
        {"first": 1, "last": 2, "percent": 100, "shares": [["Player 01", 750], ["Player 03", 750]]},
    ]
    paid = version_one.transfers.get(payer=None, payee=ann)  # the club pays Ann her prize
    settle_up.mark_transfer_paid(transfer_id=paid.pk, user=organiser)
    with TestCase.captureOnCommitCallbacks(execute=True):  # Bill won the first game after all
        correct_hand(
            game_id=first,
            number=1,
            user=event.world.users["scorekeeper"],
            record={"dealer": 0, "trump": "S", "trick_winners": [1] * 5},
            if_match=None,
        )
    assert Settlement.objects.filter(night=night).count() == 2
    return event, night


def _stored(night) -> list[tuple]:
    """Every transfer of every version, as the database holds it."""
    rows = []
    for settlement in Settlement.objects.filter(night=night).order_by("version"):
        for transfer in SettlementTransfer.objects.filter(settlement=settlement).select_related(
            "payer", "payee", "paid_by", "superseded_by"
        ):
            rows.append(
                (
                    settlement.version,
                    transfer.pk,
                    transfer.payer.display_name if transfer.payer else "The club",
                    transfer.payee.display_name if transfer.payee else "The club",
                    f"{transfer.amount_minor // 100}.{transfer.amount_minor % 100:02d}",
                    transfer.kind,
                    "paid"
                    if transfer.paid_at
                    else ("superseded" if transfer.superseded_by_id else "open"),
                    transfer.superseded_by.version if transfer.superseded_by_id else None,
                    transfer.paid_by.username if transfer.paid_by_id else None,
                )
            )
    return sorted(rows)


def test_the_archive_the_csv_the_api_and_the_page_agree_with_the_stored_versions():
    event, night = _corrected_partly_paid_night()
    stored = _stored(night)
    # Version 2 replaced version 1's open transfers; the paid one stayed as it was.
    assert [
        (row[0], row[2], row[3], row[4], row[5], row[6], row[8])
        for row in stored
        if row[0] == 1 and row[6] != "superseded"
    ] == [
        (1, "The club", "Player 01", "7.50", "pot", "paid", "the-local-organiser"),
    ]
    # Ann gives back the prize she was paid; Bill and Cait now share it, less their fees owed.
    assert sorted((row[2], row[3], row[4], row[5]) for row in stored if row[0] == 2) == [
        ("Player 01", "Player 02", "0.40", "stakes"),
        ("Player 01", "Player 03", "0.40", "stakes"),
        ("Player 01", "The club", "7.50", "pot"),
        ("The club", "Player 02", "2.50", "pot"),
        ("The club", "Player 03", "2.50", "pot"),
    ]
    browser = logged_in_client(event.world.users["organiser"])
    base = f"/clubs/{event.club.slug}/console/"

    archive = json.loads(browser.get(base + "export/").getvalue())
    jsonschema.validate(archive, SCHEMA, format_checker=jsonschema.FormatChecker())
    (exported,) = archive["nights"]
    from_archive = sorted(
        (
            version["version"],
            transfer["id"],
            transfer["payer"]["name"],
            transfer["payee"]["name"],
            transfer["amount"],
            transfer["kind"],
            transfer["status"],
            transfer["superseded_by"],
            transfer["paid_by"],
        )
        for version in exported["settlement"]["versions"]
        for transfer in version["transfers"]
    )
    assert from_archive == stored
    assert exported["settlement"]["versions"] == event.ok(
        "get", f"/api/nights/{night.pk}/settlements/"
    )
    assert [
        (fee["player"]["name"], fee["status"], fee["amount"])
        for fee in exported["settlement"]["fees"]
    ] == [
        ("Player 01", "cash", "5.00"),
        ("Player 02", "owed", "5.00"),
    ]

    text = browser.get(base + "export/?format=csv&part=settle-up").getvalue().decode()
    header, *rows = list(csv.reader(io.StringIO(text)))
    assert header == [
        "event_kind",
        "event",
        "event_name",
        "version",
        "transfer",
        "payer",
        "payee",
        "amount",
        "currency",
        "kind",
        "status",
        "superseded_by",
        "paid_at",
        "paid_by",
    ]
    from_csv = sorted(
        (
            int(row[3]),
            int(row[4]),
            row[5],
            row[6],
            row[7],
            row[9],
            row[10],
            int(row[11]) if row[11] else None,
            row[13] or None,
        )
        for row in rows
    )
    assert from_csv == stored
    assert {(row[0], row[1], row[2], row[8]) for row in rows} == {
        ("night", str(night.pk), "Friday", "EUR")
    }

    page = browser.get(f"{base}nights/{night.pk}/").content.decode()
    for _version, pk, payer, payee, amount, _kind, status, replaced_by, _who in stored:
        item = re.search(rf'id="transfer-{pk}">(.*?)</li>', page, re.S).group(1)
        words = " ".join(unescape(re.sub(r"<[^>]+>", " ", item)).split())
        assert words.startswith(
            f"{payer} pays {payee.replace('The club', 'the club')} €{amount}"
        ), words
        if status == "paid":
            assert "paid" in words and "(the-local-organiser)" in words
        elif status == "superseded":
            assert f"replaced by version {replaced_by}" in words
        else:
            assert "Mark paid" in words


def test_the_event_archive_follows_the_schema_too():
    event = build_event(players=4)
    tournament = event.create_tournament(
        name="Cup",
        game="25",
        format="knockout",
        stake="0.20",
        entry_fee="5.00",
        entrants=[
            {"player": player.pk, "seed": index + 1} for index, player in enumerate(event.players)
        ],
    )
    event.ok(
        "post",
        f"/api/tournaments/{tournament['id']}/fees/",
        {"player": event.players[0].pk, "status": "card"},
        status=201,
    )
    browser = logged_in_client(event.world.users["organiser"])
    archive = json.loads(
        browser.get(f"/clubs/{event.club.slug}/console/events/{tournament['id']}/export/").content
    )
    jsonschema.validate(archive, SCHEMA, format_checker=jsonschema.FormatChecker())
    (exported,) = archive["events"]
    assert exported["settlement"]["versions"] == []  # not closed: nothing stored yet
    assert [(fee["player"]["id"], fee["status"]) for fee in exported["settlement"]["fees"]] == [
        (event.players[0].pk, "card")
    ]
    # A document that breaks the schema is refused (the check can fail).
    exported["settlement"]["fees"][0]["status"] = "cheque"
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(archive, SCHEMA)


def test_the_season_balance_on_the_player_page_the_balances_page_and_the_export():
    event, night = _corrected_partly_paid_night()
    ann, bill, cait = event.players
    browser = logged_in_client(event.world.users["organiser"])
    # Ann: stakes -0.80, fee 5.00 (paid at the door), no prize after the correction: -5.80.
    # The club paid her 7.50 (version 1's prize) that she now owes back, with 0.40 to each of
    # Bill and Cait: 8.30 still open. Bill and Cait: +0.40 stakes + 7.50 prize - 5.00 fee owed.
    text = browser.get(
        f"/clubs/{event.club.slug}/console/export/?format=csv&part=balances"
    ).content.decode()
    header, *rows = list(csv.reader(io.StringIO(text)))
    assert header == [
        "year",
        "player",
        "player_name",
        "event_kind",
        "event",
        "event_name",
        "settled_at",
        "net",
        "paid_at_door",
        "paid",
        "received",
        "open",
        "running",
        "running_open",
        "currency",
    ]
    assert [row[1:6] + row[7:] for row in rows] == [
        [
            str(ann.pk),
            "Player 01",
            "night",
            str(night.pk),
            "Friday",
            "-5.80",
            "5.00",
            "0.00",
            "7.50",
            "-8.30",
            "-5.80",
            "-8.30",
            "EUR",
        ],
        [
            str(bill.pk),
            "Player 02",
            "night",
            str(night.pk),
            "Friday",
            "2.90",
            "0.00",
            "0.00",
            "0.00",
            "2.90",
            "2.90",
            "2.90",
            "EUR",
        ],
        [
            str(cait.pk),
            "Player 03",
            "night",
            str(night.pk),
            "Friday",
            "2.90",
            "0.00",
            "0.00",
            "0.00",
            "2.90",
            "2.90",
            "2.90",
            "EUR",
        ],
    ]
    page = browser.get(f"/clubs/{event.club.slug}/players/{ann.pk}/").content.decode()
    table = re.search(r'<table id="season-money".*?</table>', page, re.S).group(0)
    cells = [
        " ".join(unescape(re.sub(r"<[^>]+>", " ", cell)).split())
        for cell in re.findall(r"<t[hd][^>]*>(.*?)</t[hd]>", table, re.S)
    ]
    assert cells[6:] == ["Friday", "-€5.80", "€0.00", "€7.50", "-€8.30", "-€5.80"]
    assert "Still open over the season: -€8.30" in page
    balances = browser.get(f"/clubs/{event.club.slug}/balances/").content.decode()
    table = re.search(r'<table id="season-table".*?</table>', balances, re.S).group(0)
    cells = [
        " ".join(unescape(re.sub(r"<[^>]+>", " ", cell)).split())
        for cell in re.findall(r"<t[hd][^>]*>(.*?)</t[hd]>", table, re.S)
    ]
    assert cells[5:] == [
        "Player 01",
        "-€5.80",
        "€0.00",
        "€7.50",
        "-€8.30",
        "Player 02",
        "+€2.90",
        "€0.00",
        "€0.00",
        "+€2.90",
        "Player 03",
        "+€2.90",
        "€0.00",
        "€0.00",
        "+€2.90",
    ]


def test_the_season_balance_reads_the_events_first_settled_in_its_year_only():
    """A night settled on New Year's Eve and corrected in January belongs to the old season,
    with its correction; the new season neither lists it nor reads its versions."""
    import datetime

    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from settlements.selectors import season_balances

    event, night = _corrected_partly_paid_night()
    ann = event.players[0]
    year = datetime.datetime.now(datetime.UTC).year
    new_years_eve = datetime.datetime(year - 1, 12, 31, 23, 0, tzinfo=datetime.UTC)
    Settlement.objects.filter(night=night, version=1).update(created_at=new_years_eve)

    with CaptureQueriesContext(connection) as queries:
        this_season = season_balances(club=event.club, year=year, player_id=ann.pk)
    assert this_season["events"] == [] and this_season["players"] == {}
    # The versions alone: none is of this season, so no transfer is read (reading every version
    # of the club's history made it two, the second for the old night's transfers).
    assert len(queries) == 1
    last_season = season_balances(club=event.club, year=year - 1, player_id=ann.pk)
    assert [item["key"] for item in last_season["events"]] == [("night", night.pk)]
    (row,) = last_season["players"][ann.pk]
    assert (row["net"], row["paid_at_door"], row["received"], row["open"]) == (
        -580,
        500,
        750,
        -830,
    )
