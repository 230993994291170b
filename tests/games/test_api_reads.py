"""Reading games: the club list and its filters, one game, legal plays, balances, the admin."""

from __future__ import annotations

import datetime

import pytest

from games.models import Game, Hand
from tests.clubs.factories import build_world
from tests.games.helpers import Table, build_table


@pytest.mark.django_db
def test_created_game_echoes_its_frozen_rules_seating_and_stake(table):
    table.club.default_game = "25"
    table.club.default_house_rules = {"renege_privilege": ["5"]}
    table.club.save()
    game = table.new_game(
        "25",
        4,
        teams=[[0, 2], [1, 3]],
        first_dealer=3,
        stake="0.25",
        house_rules={"ace_of_hearts_follows_hearts": True},
    )
    # Club default (renege_privilege) and the game's own override, frozen in full.
    assert game["house_rules"]["renege_privilege"] == ["5"]
    assert game["house_rules"]["ace_of_hearts_follows_hearts"] is True
    assert game["house_rules"]["target"] == 25
    assert game["stake"] == "0.25"
    assert game["currency"] == "EUR"
    assert [seat["player"]["id"] for seat in game["seats"]] == table.player_ids(4)
    assert [side["seats"] for side in game["sides"]] == [[0, 2], [1, 3]]
    assert (game["next_dealer"], game["winner"], game["hands_played"]) == (3, None, 0)
    assert Game.objects.get(pk=game["id"]).stake_minor == 25
    # The club's defaults are for its default game only.
    other = table.new_game("45", 3)
    assert other["house_rules"]["renege_privilege"] == ["5", "J", "AH"]
    # Later changes to the club's rules do not reach a game already started.
    table.club.default_house_rules = {}
    table.club.save()
    stored = table.client().get(f"/api/games/{game['id']}/").json()
    assert stored["house_rules"]["renege_privilege"] == ["5"]


@pytest.mark.django_db
def test_game_list_filters(table):
    first = table.new_game("25", 4, teams=[[0, 2], [1, 3]], first_dealer=3)
    second = table.new_game("45", [table.players[5].pk, *table.player_ids(2)])
    table.post_hand(first["id"], {"dealer": 3, "trump": "S", "trick_winners": [0, 1, 1, 2, 2]})
    table.post_hand(first["id"], {"dealer": 0, "trump": "H", "trick_winners": [1, 3, 0, 2]})
    # The first game was started late on 1 March in Dublin (summer time not yet: UTC+0) and
    # the second just after midnight on 2 March.
    Game.objects.filter(pk=first["id"]).update(
        created_at=datetime.datetime(2026, 3, 1, 23, 30, tzinfo=datetime.UTC)
    )
    Game.objects.filter(pk=second["id"]).update(
        created_at=datetime.datetime(2026, 3, 2, 0, 10, tzinfo=datetime.UTC)
    )
    client = table.client("player")
    url = f"/api/clubs/{table.club.slug}/games/"

    def ids(query: str) -> list[int]:
        response = client.get(url + query)
        assert response.status_code == 200, response.json()
        return [game["id"] for game in response.json()["results"]]

    assert ids("") == [second["id"], first["id"]]
    assert ids("?status=finished") == [first["id"]]
    assert ids("?status=in_progress") == [second["id"]]
    assert ids(f"?player={table.players[5].pk}") == [second["id"]]
    assert ids(f"?player={table.players[0].pk}") == [second["id"], first["id"]]
    assert ids("?game=25") == [first["id"]]
    assert ids("?date=2026-03-01") == [first["id"]]
    assert ids("?date=2026-03-02") == [second["id"]]
    assert ids("?date_from=2026-03-02") == [second["id"]]
    assert ids("?date_to=2026-03-01") == [first["id"]]
    assert ids("?ordering=created_at") == [first["id"], second["id"]]
    response = client.get(url + "?status=won")
    assert response.status_code == 400
    assert response.json()["errors"][0]["pointer"] == "/status"


@pytest.mark.django_db
def test_dates_are_days_in_the_club_time_zone(table):
    table.club.time_zone = "America/Halifax"  # UTC-4 in July
    table.club.save()
    game = table.new_game("25", 3)
    Game.objects.filter(pk=game["id"]).update(
        created_at=datetime.datetime(2026, 7, 2, 2, 0, tzinfo=datetime.UTC)
    )
    response = table.client().get(f"/api/clubs/{table.club.slug}/games/?date=2026-07-01")
    assert [found["id"] for found in response.json()["results"]] == [game["id"]]


@pytest.mark.django_db
def test_other_clubs_games_are_not_found_and_public_clubs_are_readable():
    private = build_table()
    game = private.new_game("25", 3)
    public_world = build_world(public=True, slug="open-house")
    public = Table(world=public_world, players=list(public_world.players))
    public_game = public.new_game("25", 3)
    anonymous = public.client("anonymous")
    assert anonymous.get(f"/api/games/{public_game['id']}/").status_code == 200
    assert anonymous.get(f"/api/games/{public_game['id']}/hands/").status_code == 200
    assert anonymous.get("/api/clubs/open-house/games/").status_code == 200
    assert anonymous.get(f"/api/games/{game['id']}/").status_code == 404
    # The public club's scorekeeper is nobody in the private club.
    assert public.client().get(f"/api/games/{game['id']}/").status_code == 404
    assert public.client().get(f"/api/games/{game['id']}/history/").status_code == 404
    assert public.client().get("/api/clubs/the-local/games/").status_code == 404
    # Money stays with members even in a public club.
    assert anonymous.get(f"/api/games/{public_game['id']}/ledger/").status_code == 401
    assert anonymous.get("/api/clubs/open-house/balances/").status_code == 401
    assert private.client().get("/api/clubs/open-house/balances/").status_code == 403


@pytest.mark.django_db
def test_legal_plays(table):
    game = table.new_game("25", 4, teams=[[0, 2], [1, 3]])
    url = f"/api/games/{game['id']}/legal-plays/"
    client = table.client("player")

    response = client.post(
        url, {"hand": ["KH", "5S", "2C"], "trick": ["QH"], "trump": "S"}, format="json"
    )
    assert response.status_code == 200
    assert response.json() == {
        "trump": "S",
        "legal": ["KH", "5S"],
        "illegal": [
            {"card": "2C", "reason": "hearts were led and the hand held KH: follow suit or trump"}
        ],
    }
    # A trump led: the five may be withheld when a lower trump is led; so all three are legal.
    response = client.post(
        url, {"hand": ["5S", "KD", "2C"], "trick": ["3S"], "turn_up": "4S"}, format="json"
    )
    assert response.json()["legal"] == ["5S", "KD", "2C"]
    # To lead, anything goes; every spelling of the cards is accepted, answers are canonical.
    response = client.post(url, {"hand": ["5♠", "kd", "TC"], "trump": "♠"}, format="json")
    assert response.json() == {"trump": "S", "legal": ["5S", "KD", "10C"], "illegal": []}


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("body", "code", "pointer"),
    [
        ({"hand": ["KH", "ZZ"], "trick": [], "trump": "S"}, "invalid_card", "/hand/1"),
        ({"hand": ["KH"], "trick": ["KH"], "trump": "S"}, "duplicate_card", "/trick/0"),
        ({"hand": ["KH"], "trick": [], "trump": "X"}, "invalid_trump", "/trump"),
        ({"hand": ["KH"], "trick": []}, "invalid_record", ""),
        ({"hand": ["KH"], "trick": [], "trump": "S", "turn_up": "2S"}, "invalid_record", None),
        (
            {"hand": ["KH"], "trick": ["2H", "3H", "4H", "5H"], "trump": "S"},
            "invalid_record",
            "/trick",
        ),
        ({"hand": ["KH"], "trump": "S", "colour": "red"}, "unknown_field", "/colour"),
    ],
)
def test_legal_plays_refusals(table, body, code, pointer):
    game = table.new_game("25", 4, teams=[[0, 2], [1, 3]])
    response = table.client().post(f"/api/games/{game['id']}/legal-plays/", body, format="json")
    assert response.status_code == 400, response.json()
    error = response.json()["errors"][0]
    assert error["code"] == code
    if pointer is not None:
        assert error["pointer"] == pointer


@pytest.mark.django_db
def test_hands_list_is_in_order_with_who_entered_them(table):
    game = table.new_game("25", 3)
    table.post_hand(game["id"], {"dealer": 0, "misdeal": True})
    table.post_hand(
        game["id"], {"dealer": 0, "trump": "D", "trick_winners": [1, 1, 2, 0, 0]}, role="organiser"
    )
    hands = table.client("player").get(f"/api/games/{game['id']}/hands/").json()
    assert hands["count"] == 2
    assert [
        (hand["number"], hand["kind"], hand["entered_by"]["username"]) for hand in hands["results"]
    ] == [
        (1, "misdeal", "the-local-scorekeeper"),
        (2, "played", "the-local-organiser"),
    ]
    assert hands["results"][1]["totals"] == {"0": 10, "1": 10, "2": 5}
    one = table.client("player").get(f"/api/games/{game['id']}/hands/2/").json()
    assert one == hands["results"][1]


@pytest.mark.django_db
def test_admin_pages_of_games(table, admin_client):
    game = table.new_game("25", 4, teams=[[0, 2], [1, 3]], stake="0.20")
    table.post_hand(game["id"], {"dealer": 0, "misdeal": True})
    for url in (
        "/admin/games/game/",
        f"/admin/games/game/{game['id']}/change/",
        f"/admin/games/game/{game['id']}/history/",
        "/admin/games/hand/",
        "/admin/games/ledgerentry/",
        "/admin/games/idempotencyrecord/",
    ):
        assert admin_client.get(url).status_code == 200, url
    # The audit history is readable in the admin: who changed the game or hand, and why.
    game_history = admin_client.get(f"/admin/games/game/{game['id']}/history/")
    assert "hand 1 recorded" in game_history.text
    assert "the-local-scorekeeper" in game_history.text
    hand = Hand.objects.get(game_id=game["id"], number=1)
    hand_history = admin_client.get(f"/admin/games/hand/{hand.pk}/history/")
    assert hand_history.status_code == 200
    assert "hand 1 recorded" in hand_history.text


@pytest.mark.django_db
def test_the_admin_shows_games_hands_and_the_ledger_but_never_writes_them(table, admin_client):
    from games.models import IdempotencyRecord

    game = table.new_game("25", 4, teams=[[0, 2], [1, 3]], stake="0.20")
    table.post_hand(game["id"], {"dealer": 0, "misdeal": True}, **{"Idempotency-Key": "k1"})
    hand = Hand.objects.get(game_id=game["id"], number=1)
    record = IdempotencyRecord.objects.get(key="k1")
    refused = [
        "/admin/games/game/add/",
        f"/admin/games/game/{game['id']}/delete/",
        "/admin/games/hand/add/",
        f"/admin/games/hand/{hand.pk}/delete/",
        "/admin/games/ledgerentry/add/",
        "/admin/games/idempotencyrecord/add/",
    ]
    assert {url: admin_client.get(url).status_code for url in refused} == dict.fromkeys(
        refused, 403
    )
    # A change page shows the row without a save button; an idempotency record may be deleted.
    change_page = admin_client.get(f"/admin/games/hand/{hand.pk}/change/")
    assert change_page.status_code == 200
    assert 'name="_save"' not in change_page.text
    delete_page = admin_client.get(f"/admin/games/idempotencyrecord/{record.pk}/delete/")
    assert delete_page.status_code == 200


@pytest.mark.django_db
def test_the_demo_games(table):
    from games.demo import load_demo_games

    games = load_demo_games(table.club, user=table.world.users["scorekeeper"])
    assert [(game.variant, game.status, game.winner_side) for game in games] == [
        ("25", "finished", 0),
        ("45", "in_progress", None),
    ]
    assert games[1].totals == [30, 30]
    assert load_demo_games(table.club, user=table.world.users["scorekeeper"]) == []
    assert Game.objects.filter(club=table.club).count() == 2
