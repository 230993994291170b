"""A client generated from the schema runs the README's API tour against the live server.

What it proves: ``openapi-python-client`` (generated at test time into a temporary folder from
``/api/schema/``, nothing committed) builds a client that registers, logs in with the ``Token``
prefix, creates a club, players and teams, records a hand with an ``Idempotency-Key`` and
``number`` (the retry replays it), asks for legal plays, corrects the hand with ``If-Match``,
reads history and balances, runs a knockout's first round and its bracket, standings and
settlement, and lists, revokes and logs out devices: every answer parses into the generated
models (bare lists, nullable money, problem answers) with the status the tour expects.

What it does not do: cover every endpoint (the schemathesis test does).
"""

from __future__ import annotations

import importlib
import subprocess
import sys
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model

GENERATOR = str(Path(sys.executable).with_name("openapi-python-client"))


@pytest.fixture
def jink_client(live_server, tmp_path):
    import httpx

    schema = httpx.get(f"{live_server.url}/api/schema/?format=json").content
    (tmp_path / "schema.json").write_bytes(schema)
    (tmp_path / "config.yaml").write_text(
        "post_hooks: []\nproject_name_override: jink-client\npackage_name_override: jink_client\n"
    )
    subprocess.run(
        [
            GENERATOR,
            "generate",
            "--path",
            "schema.json",
            "--config",
            "config.yaml",
            "--meta",
            "none",
        ],
        cwd=tmp_path,
        check=True,
        capture_output=True,
        timeout=120,
    )
    sys.path.insert(0, str(tmp_path))
    try:
        yield importlib.import_module("jink_client")
    finally:
        sys.path.remove(str(tmp_path))
        for name in [name for name in sys.modules if name.startswith("jink_client")]:
            del sys.modules[name]


@pytest.mark.slow  # generates a client, then a live server: ~30 s
def test_the_readme_tour_through_the_generated_client(jink_client, live_server):
    from jink_client import AuthenticatedClient, Client
    from jink_client.api.auth import (
        auth_devices_list,
        logout,
        me,
        register,
        revoke_device,
        token,
    )
    from jink_client.api.clubs import (
        clubs_create,
        clubs_memberships_create,
        clubs_players_create,
        clubs_players_list,
        clubs_teams_create,
    )
    from jink_client.api.games import (
        clubs_balances,
        games_create,
        games_history,
        games_legal_plays,
        games_retrieve,
        hands_create,
        hands_update,
    )
    from jink_client.api.tournaments import (
        clubs_tournaments_create,
        tournaments_bracket,
        tournaments_entrants_create,
        tournaments_rounds_create,
        tournaments_settlement,
        tournaments_standings,
    )
    from jink_client.models import (
        ClubInputRequest,
        EntrantItemInputRequest,
        EntrantsInputRequest,
        GameInputRequest,
        HandRecordInputRequest,
        LegalPlaysInputRequest,
        MembershipInputRequest,
        PlayerInputRequest,
        RegisterInputRequest,
        TeamInputRequest,
        TokenInputRequest,
        TournamentInputRequest,
    )

    anonymous = Client(base_url=live_server.url)
    registered = register.sync_detailed(
        client=anonymous,
        body=RegisterInputRequest(
            username="nora", password="a long walk to Tramore", email="nora@example.org"
        ),
    )
    assert registered.status_code == 201
    login = token.sync(
        client=anonymous,
        body=TokenInputRequest(
            username="nora", password="a long walk to Tramore", device="bar tablet"
        ),
    )
    api = AuthenticatedClient(base_url=live_server.url, token=login.token, prefix="Token")

    club = clubs_create.sync(
        client=api,
        body=ClubInputRequest.from_dict(
            {
                "name": "Tramore Forty-Fives",
                "slug": "tramore",
                "currency": "EUR",
                "time_zone": "Europe/Dublin",
                "default_game": "45",
                "default_house_rules": {},
                "public_standings": True,
            }
        ),
    )
    assert club.slug == "tramore"
    names = [
        "Mary Byrne",
        "Seán Murphy",
        "Nora Walsh",
        "Liam Gallagher",
        "Aoife Kavanagh",
        "Tom Ryan",
        "Úna Dunne",
        "Mick Brennan",
    ]
    players = [
        clubs_players_create.sync("tramore", client=api, body=PlayerInputRequest(display_name=n))
        for n in names
    ]
    teams = [
        clubs_teams_create.sync(
            "tramore",
            client=api,
            body=TeamInputRequest(
                name=f"Table {i} pair", members=[players[i].id, players[i + 1].id]
            ),
        )
        for i in (0, 2, 4, 6)
    ]
    found = clubs_players_list.sync("tramore", client=api, search="walsh")
    assert [player.display_name for player in found.results] == ["Nora Walsh"]
    get_user_model().objects.create_user(username="scorekeeper", password="x")
    membership = clubs_memberships_create.sync(
        "tramore",
        client=api,
        body=MembershipInputRequest.from_dict({"username": "scorekeeper", "role": "scorekeeper"}),
    )
    assert membership.username == "scorekeeper"
    assert [m.club.slug for m in me.sync(client=api).memberships] == ["tramore"]

    game = games_create.sync(
        "tramore",
        client=api,
        idempotency_key="table-3-game-1",
        body=GameInputRequest.from_dict(
            {
                "game": "45",
                "seats": [p.id for p in players[:4]],
                "teams": [[0, 2], [1, 3]],
                "first_dealer": 0,
                "stake": "0.20",
            }
        ),
    )
    assert game.stake == "0.20"
    hand = {
        "number": 1,
        "dealer": 0,
        "trump": "S",
        "trick_winners": [0, 1, 1, 2, 2],
        "best_trump": {"seat": 2, "trick": 3},
    }
    first = hands_create.sync_detailed(
        game.id,
        client=api,
        idempotency_key="table-3-hand-1",
        body=HandRecordInputRequest.from_dict(hand),
    )
    assert first.status_code == 201
    assert first.parsed.totals.to_dict() == {"0": 20, "1": 10}
    again = hands_create.sync_detailed(
        game.id,
        client=api,
        idempotency_key="table-3-hand-1",
        body=HandRecordInputRequest.from_dict(hand),
    )
    assert (again.status_code, again.headers["Idempotent-Replayed"]) == (201, "true")
    conflict = hands_create.sync_detailed(
        game.id,
        client=api,
        idempotency_key="another-key",
        body=HandRecordInputRequest.from_dict(hand),
    )
    assert (conflict.status_code, conflict.parsed.code) == (409, "hand_conflict")
    plays = games_legal_plays.sync(
        game.id,
        client=api,
        body=LegalPlaysInputRequest.from_dict(
            {"hand": ["9C", "JS", "4H"], "trick": ["2S"], "trump": "S"}
        ),
    )
    # The jack of trumps may be withheld from the two of trumps led (renege privilege).
    assert plays.legal == ["9C", "JS", "4H"]
    read = games_retrieve.sync_detailed(game.id, client=api)
    not_modified = games_retrieve.sync_detailed(
        game.id, client=api, if_none_match=read.headers["ETag"]
    )
    assert not_modified.status_code == 304
    corrected = hands_update.sync_detailed(
        game.id,
        1,
        client=api,
        if_match=read.headers["ETag"],
        body=HandRecordInputRequest.from_dict(
            {
                "dealer": 0,
                "trump": "S",
                "trick_winners": [0, 0, 1, 2, 2],
                "best_trump": {"seat": 0, "trick": 0},
            }
        ),
    )
    assert corrected.status_code == 200
    stale = hands_update.sync_detailed(
        game.id,
        1,
        client=api,
        if_match=read.headers["ETag"],
        body=HandRecordInputRequest.from_dict({"dealer": 0, "misdeal": True}),
    )
    assert (stale.status_code, stale.parsed.code) == (412, "precondition_failed")
    assert games_history.sync(game.id, client=api).count >= 2
    assert clubs_balances.sync("tramore", client=api).currency == "EUR"

    cup = clubs_tournaments_create.sync(
        "tramore",
        client=api,
        body=TournamentInputRequest.from_dict(
            {
                "name": "Winter Cup",
                "game": "auction45",
                "format": "knockout",
                "entrant_kind": "team",
                "table_size": 2,
                "match_rule": "best_of",
                "match_games": 3,
                "stake": "1.00",
            }
        ),
    )
    assert (cup.stake, cup.entry_fee) == ("1.00", None)
    entrants = tournaments_entrants_create.sync(
        cup.id,
        client=api,
        body=EntrantsInputRequest(
            entrants=[
                EntrantItemInputRequest(team=teams[0].id, seed=1),
                EntrantItemInputRequest(team=teams[1].id, seed=2),
                EntrantItemInputRequest(team=teams[2].id),
                EntrantItemInputRequest(team=teams[3].id),
            ]
        ),
    )
    assert len(entrants) == 4
    drawn = tournaments_rounds_create.sync_detailed(cup.id, client=api)
    assert drawn.status_code == 201
    assert len(tournaments_bracket.sync(cup.id, client=api).rounds) >= 1
    assert len(tournaments_standings.sync(cup.id, client=api).standings) == 4
    assert tournaments_settlement.sync(cup.id, client=api).transfers == []

    devices = auth_devices_list.sync(client=api)
    assert [device.name for device in devices.results] == ["bar tablet"]
    other = token.sync(
        client=anonymous,
        body=TokenInputRequest(username="nora", password="a long walk to Tramore", device="phone"),
    )
    phone = next(d for d in auth_devices_list.sync(client=api).results if d.name == "phone")
    assert revoke_device.sync_detailed(phone.id, client=api).status_code == 204
    gone = AuthenticatedClient(base_url=live_server.url, token=other.token, prefix="Token")
    assert me.sync_detailed(client=gone).status_code == 401
    assert logout.sync_detailed(client=api).status_code == 204
    assert me.sync_detailed(client=api).status_code == 401
