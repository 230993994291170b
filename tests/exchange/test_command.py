"""``manage.py import_exchange``: the API's import from the command line (docs/exchange.md).

What it proves: a night's file imports as the named organiser ("created", then "unchanged", as
the API answers); an unknown club, a user who is not an organiser of the club, a missing file,
a file that is not JSON and a file the checks refuse are each refused with a message saying so
(the checks' problems with their codes and pointers), nothing stored. The same import between
two databases: tests/exchange/test_two_databases.py.
"""

from __future__ import annotations

import json
from io import StringIO

import pytest
from django.core.management import CommandError, call_command
from django.test import TestCase

from clubs.models import Role
from exchange.models import ImportRecord
from tests.clubs.factories import make_membership, make_user
from tests.exchange.helpers import federation, played_night, row_counts
from tests.tournaments.play_helpers import build_event

pytestmark = pytest.mark.django_db


def _import(*args: str) -> dict:
    out = StringIO()
    with TestCase.captureOnCommitCallbacks(execute=True):
        call_command("import_exchange", *args, stdout=out)
    return json.loads(out.getvalue())


def test_a_file_imports_as_the_organiser_and_again_unchanged(tmp_path):
    home = build_event(players=4)
    night = played_night(home)
    path = tmp_path / "night.exchange.json"
    path.write_bytes(home.call("get", f"/api/nights/{night['id']}/exchange/").content)
    away = federation()
    organiser = away.world.users["organiser"].username
    first = _import(away.club.slug, str(path), "--user", organiser)
    assert (first["outcome"], first["by"], first["summary"]["games"]) == (
        "created",
        organiser,
        {"count": 3, "changed": 3},
    )
    counts = row_counts()
    again = _import(away.club.slug, str(path), "--user", organiser)
    assert (again["outcome"], again["night"]) == ("unchanged", first["night"])
    assert row_counts() == counts


def test_refusals_say_why_and_store_nothing(tmp_path):
    away = federation()
    organiser = away.world.users["organiser"].username
    scorekeeper = away.world.users["scorekeeper"].username
    make_membership(away.club, make_user("elsewhere"), Role.PLAYER)
    bad = tmp_path / "bad.exchange.json"
    bad.write_text(json.dumps({"format": "jink-exchange", "version": 1}))
    not_json = tmp_path / "not.json"
    not_json.write_text("{")
    before = row_counts()
    refusals = [
        (("no-such-club", str(bad), "--user", organiser), "No club no-such-club."),
        ((away.club.slug, str(bad), "--user", scorekeeper), "is not an organiser of"),
        ((away.club.slug, str(bad), "--user", "elsewhere"), "is not an organiser of"),
        ((away.club.slug, str(tmp_path / "missing.json"), "--user", organiser), "No file"),
        ((away.club.slug, str(not_json), "--user", organiser), "is not JSON"),
        ((away.club.slug, str(bad), "--user", organiser), "exchange_invalid: "),
    ]
    for args, message in refusals:
        with pytest.raises(CommandError, match=message):
            call_command("import_exchange", *args, stdout=StringIO())
    with pytest.raises(CommandError) as refused:
        call_command("import_exchange", away.club.slug, str(bad), "--user", organiser)
    lines = str(refused.value).splitlines()
    assert lines[:2] == [
        "exchange_invalid: The file is not a valid exchange document (version 1).",
        "  (the file): exchange_invalid: 'exported_at' is a required property",
    ]
    assert len(lines) == 10  # the nine missing members, each said
    assert row_counts() == before and not ImportRecord.objects.exists()
