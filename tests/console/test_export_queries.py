"""The exports cost a fixed number of queries however big the event or the club's history:
the event's JSON archive and CSV, and the club's, at two sizes (pinned with
``django_assert_num_queries``)."""

from __future__ import annotations

import datetime
import json

import pytest

from tests.helpers import logged_in_client
from tests.tournaments.play_helpers import build_event, win_game

pytestmark = pytest.mark.django_db

# The session and its user (2), the club with the viewer's role (1), the tournament (1), then
# the archive's reads: the entrants, the rounds with their matches and slots, the games with
# seats, sides and hands, the players and teams, the standings (their matches and slots as plain
# rows) and the stored settle-up (its versions, and their transfers and names once stored; the
# fees taken at the door) — none per round, per game, per player or per transfer. The club's
# export reads its nights too (their games once there are nights).
EXPORT_QUERIES = 27
CLUB_EXPORT_QUERIES = 28


def _event(pairs: int):
    """A 45 drive of ``pairs`` pairs, round 1 drawn, released and every game played."""
    event = build_event(players=0, teams=pairs)
    tournament = event.create_tournament(
        name="Drive",
        game="45",
        format="drive",
        entrant_kind="team",
        table_size=2,
        round_count=3,
        stake="0.50",
        auto_advance=False,
        entrants=[{"team": team.pk} for team in event.teams[:pairs]],
    )
    round_one = event.draw(tournament["id"])
    for match in round_one["matches"]:
        win_game(event, match["games"][0]["id"], 0)
    event.draw(tournament["id"])
    browser = logged_in_client(event.world.users["organiser"])
    return event, tournament, browser


@pytest.mark.parametrize("pairs", [4, 8])
@pytest.mark.parametrize(
    "path",
    ["events/{id}/export/", "events/{id}/export/?format=csv", "export/", "export/?format=csv"],
)
def test_every_export_costs_the_same_at_two_sizes(pairs, path, django_assert_num_queries):
    event, tournament, browser = _event(pairs)
    url = f"/clubs/{event.club.slug}/console/" + path.format(id=tournament["id"])
    with django_assert_num_queries(
        EXPORT_QUERIES if path.startswith("events/") else CLUB_EXPORT_QUERIES
    ):
        response = browser.get(url)
        body = response.getvalue()  # the club's export is streamed: read as it is sent
    assert response.status_code == 200
    games = 2 * (pairs // 2)  # rounds 1 and 2, one game a table
    if "csv" in path:
        assert len(body.decode().strip().splitlines()) == 1 + 2 * games
    else:
        assert len(json.loads(body)["games"]) == games


def test_the_club_archive_streamed_is_the_archive_json_dumps_writes(monkeypatch):
    """Streamed in pages of two games, the club's archive is byte for byte ``json.dumps`` of
    ``club_archive`` (``indent=1``), and its CSV the rows of ``games_csv_rows``."""
    from django.core.serializers.json import DjangoJSONEncoder

    from exchange import archive, archive_csv

    event, _tournament, browser = _event(8)
    monkeypatch.setattr(archive, "GAMES_PAGE", 2)
    monkeypatch.setattr(
        archive.timezone, "now", lambda: datetime.datetime(2026, 1, 1, tzinfo=datetime.UTC)
    )
    whole = archive.club_archive(event.club)
    assert len(whole["games"]) == 8
    streamed = browser.get(f"/clubs/{event.club.slug}/console/export/").getvalue().decode()
    assert streamed == json.dumps(whole, cls=DjangoJSONEncoder, indent=1, ensure_ascii=False)
    text = browser.get(f"/clubs/{event.club.slug}/console/export/?format=csv").getvalue()
    assert text.decode().splitlines()[1:] == [
        ",".join(str(cell) for cell in row) for row in archive_csv.games_csv_rows(whole)
    ]
