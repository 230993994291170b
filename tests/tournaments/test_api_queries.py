"""Query counts of the tournaments API's reads: fixed, however many rounds and matches there are.

Each endpoint is read by a player of the club in a knockout of 4 and of 8 entrants (2 and 3
rounds) after the first round is decided; the counts are pinned and must be the same for both.
"""

from __future__ import annotations

import pytest

from tests.helpers import count_queries
from tests.tournaments.play_helpers import build_event, win_match

pytestmark = pytest.mark.django_db

# Endpoint -> queries (authentication and the club's role lookup included).
EXPECTED = {
    "list": 5,
    "detail": 4,
    "entrants": 5,
    "rounds": 8,
    "matches": 8,
    "match": 7,
    "bracket": 9,
    "standings": 3,  # the stored snapshot: token, then tournament + club + role + snapshot
}


@pytest.mark.parametrize("size", [4, 8])
def test_reads_cost_a_fixed_number_of_queries(size):
    event = build_event(players=size)
    tournament = event.create_tournament(
        name="Cup",
        game="25",
        format="knockout",
        entrants=[
            {"player": player.pk, "seed": index + 1} for index, player in enumerate(event.players)
        ],
    )
    tournament_id = tournament["id"]
    round_one = event.draw(tournament_id)
    for match in round_one["matches"]:
        win_match(event, tournament_id, match["id"], 0)
    urls = {
        "list": f"/api/clubs/{event.club.slug}/tournaments/",
        "detail": f"/api/tournaments/{tournament_id}/",
        "entrants": f"/api/tournaments/{tournament_id}/entrants/",
        "rounds": f"/api/tournaments/{tournament_id}/rounds/",
        "matches": f"/api/tournaments/{tournament_id}/matches/",
        "match": f"/api/matches/{round_one['matches'][0]['id']}/",
        "bracket": f"/api/tournaments/{tournament_id}/bracket/",
        "standings": f"/api/tournaments/{tournament_id}/standings/",
    }
    client = event.client("player")
    counts = {}
    for name, url in urls.items():
        counts[name] = count_queries(client.get, url).count
    assert counts == EXPECTED
    # The 304 of the standings costs the same single query after the token check.
    etag = client.get(urls["standings"]).headers["ETag"]
    counted = count_queries(
        client.get, urls["standings"], headers={"If-None-Match": etag}, status=304
    )
    assert counted.count == 3
