"""The exchange round trip between two databases, as between two sites: a night played in the
test database (its settle-up stored, its games rated), exported through the API
(``GET /api/nights/{id}/exchange/``), imported into a new, empty PostgreSQL database (migrated
by ``manage.py migrate``; its club and organiser made there) by ``manage.py import_exchange``
(the service the API's import uses): the second database holds the same games and hands, the
same season table (games, wins, points, places, net stakes per player), the same last settle-up
(its lines and transfers) and the same ratings (each player's, step by step). The same file
imported again: "unchanged", not a row more. An event (a knockout with its third-place
match, prize split, fee and stakes) makes the same trip: the same draw, match figures, games and
hands, standings and last settle-up there.

Slow (a migrate of the second database, a Django process per step). The second database is
dropped at the end, whatever happened.
"""

from __future__ import annotations

import json

import pytest

from settlements.models import Night
from tests.exchange.helpers import event_outcome, night_outcome, played_cup, played_night
from tests.second_database import manage, second_database
from tests.tournaments.play_helpers import build_event
from tournaments.models import Tournament

pytestmark = [pytest.mark.django_db, pytest.mark.slow]

MAKE_CLUB = """
from clubs.models import Role
from tests.clubs.factories import make_club, make_membership, make_user
make_membership(make_club("federation"), make_user("secretary"), Role.ORGANISER)
"""
READ_NIGHT = """
import json
from settlements.models import Night
from tests.exchange.helpers import night_outcome, row_counts
night = Night.objects.get(pk={night})
print(json.dumps({{"club": night.club.slug, "status": night.status, "name": night.name,
                  "outcome": night_outcome(night), "counts": row_counts()}}))
"""


def _run(name: str, *args: str) -> str:
    process = manage(name, *args)
    assert process.returncode == 0, process.stderr[-3000:]
    return process.stdout.strip().splitlines()[-1] if process.stdout.strip() else ""


def test_a_night_exported_and_imported_into_another_database(tmp_path):
    home = build_event(players=4)
    night = played_night(home)
    here = night_outcome(Night.objects.get(pk=night["id"]))
    assert len(here["games"]) == 3 and len(here["standings"]) == 4
    assert len(here["ratings"]) == 4 and here["settle_up"][2]  # rated, with transfers
    response = home.call("get", f"/api/nights/{night['id']}/exchange/")
    assert response.status_code == 200, response.content[:500]
    exchange_file = tmp_path / "friday.exchange.json"
    exchange_file.write_bytes(response.content)

    with second_database("exchange") as name:
        _run(name, "migrate", "--no-input", "-v", "0")
        _run(name, "shell", "-c", MAKE_CLUB)
        command = ("import_exchange", "federation", str(exchange_file), "--user", "secretary")
        first = json.loads(_run(name, *command))
        assert (first["outcome"], first["by"]) == ("created", "secretary")
        assert first["summary"]["players"] == {"created": 4, "matched": 0, "renamed": 0}
        there = json.loads(_run(name, "shell", "-c", READ_NIGHT.format(night=first["night"])))
        assert (there["club"], there["status"], there["name"]) == (
            "federation",
            "closed",
            "Friday drive",
        )
        assert there["outcome"]["games"] == here["games"]
        assert there["outcome"]["standings"] == here["standings"]
        assert there["outcome"]["settle_up"] == here["settle_up"]
        assert there["outcome"]["ratings"] == here["ratings"]

        again = json.loads(_run(name, *command))
        assert (again["outcome"], again["night"]) == ("unchanged", first["night"])
        after = json.loads(_run(name, "shell", "-c", READ_NIGHT.format(night=first["night"])))
        assert after == there


READ_EVENT = """
import json
from tournaments.models import Tournament
from tests.exchange.helpers import event_outcome, row_counts
tournament = Tournament.objects.get(pk={tournament})
print(json.dumps({{"club": tournament.club.slug, "name": tournament.name,
                  "outcome": event_outcome(tournament), "counts": row_counts(),
                  "tournaments": Tournament.objects.count()}}))
"""


def test_an_event_exported_and_imported_into_another_database(tmp_path):
    home = build_event(players=4)
    tournament_id = played_cup(home)
    here = event_outcome(Tournament.objects.get(pk=tournament_id))
    assert here["status"] == "closed" and len(here["draw"]) == 4 and here["settle_up"][2]
    response = home.call("get", f"/api/tournaments/{tournament_id}/exchange/")
    assert response.status_code == 200, response.content[:500]
    exchange_file = tmp_path / "cup.exchange.json"
    exchange_file.write_bytes(response.content)

    with second_database("exchange_event") as name:
        _run(name, "migrate", "--no-input", "-v", "0")
        _run(name, "shell", "-c", MAKE_CLUB)
        command = ("import_exchange", "federation", str(exchange_file), "--user", "secretary")
        first = json.loads(_run(name, *command))
        assert (first["outcome"], first["night"]) == ("created", None)
        read = READ_EVENT.format(tournament=first["event"])
        there = json.loads(_run(name, "shell", "-c", read))
        assert (there["club"], there["name"], there["tournaments"]) == (
            "federation",
            "Winter cup",
            1,
        )
        assert there["outcome"] == here

        again = json.loads(_run(name, *command))
        assert (again["outcome"], again["event"]) == ("unchanged", first["event"])
        assert json.loads(_run(name, "shell", "-c", read)) == there
