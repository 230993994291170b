"""A private draw stays private on every read path until the organiser releases the round.

A tournament with ``private_draws`` draws its rounds unreleased: the games started for their
matches exist for the club's organisers only. For everybody else (the player seated in such a
game, a scorekeeper, an outsider of a public club) the games API's list leaves them out, its
detail, hands, history and legal plays answer 404, the game page and its poll answer 404, the
club, player and ``/me/`` pages neither list nor count them, and the event page's tag of a
player does not change when the private round is drawn or played (an organiser's does). After
the release everything shows.
"""

from __future__ import annotations

import pytest
from django.test import Client

from tests.tournaments.play_helpers import build_event, win_game

pytestmark = pytest.mark.django_db


@pytest.fixture
def private_round():
    """A public club, a swiss event of four with private draws, its first round drawn (not
    released) and its first table's game won by side 0; ``Player 01`` is linked to the club's
    player user and sits at that table."""
    event = build_event(players=4, public=True, slug="private-draws")
    first = event.players[0]
    first.user = event.world.users["player"]
    first.save(update_fields=["user"])
    tournament = event.create_tournament(
        name="Private",
        game="25",
        format="swiss",
        round_count=2,
        private_draws=True,
        entrants=[{"player": player.pk} for player in event.players],
    )
    drawn = event.draw(tournament["id"])
    assert drawn["released_at"] is None
    match = next(
        match
        for match in drawn["matches"]
        if first.pk in {slot.get("player") for slot in _slots(event, match)}
    )
    game_id = match["games"][0]["id"]
    win_game(event, game_id, 0, role="organiser")
    return event, tournament, game_id


def _slots(event, match):
    from tournaments.models import Entrant

    entrants = Entrant.objects.filter(pk__in=[slot["entrant"] for slot in match["entrants"]])
    return [{"player": entrant.player_id} for entrant in entrants]


def _page_client(event, role):
    client = Client()
    if event.world.users[role] is not None:
        client.force_login(event.world.users[role])
    return client


def _release(event, tournament):
    event.ok("post", f"/api/tournaments/{tournament['id']}/rounds/1/release/")


@pytest.mark.parametrize(
    ("role", "status"),
    [
        ("anonymous", 404),
        ("outsider", 404),
        ("player", 404),
        ("scorekeeper", 404),
        ("organiser", 200),
    ],
)
@pytest.mark.parametrize(
    "path", ["", "hands/", "hands/1/", "history/"], ids=["detail", "hands", "hand", "history"]
)
def test_the_games_api_hides_a_private_draws_game_from_all_but_organisers(
    private_round, role, status, path
):
    event, tournament, game_id = private_round

    assert event.call("get", f"/api/games/{game_id}/{path}", role=role).status_code == status
    _release(event, tournament)
    assert event.call("get", f"/api/games/{game_id}/{path}", role=role).status_code == 200


@pytest.mark.parametrize(
    ("role", "listed"),
    [("anonymous", False), ("player", False), ("scorekeeper", False), ("organiser", True)],
)
def test_the_games_api_list_leaves_a_private_draws_game_out(private_round, role, listed):
    event, tournament, game_id = private_round
    url = f"/api/clubs/{event.club.slug}/games/"

    ids = [game["id"] for game in event.ok("get", url, role=role)["results"]]
    assert (game_id in ids) is listed
    _release(event, tournament)
    assert game_id in [game["id"] for game in event.ok("get", url, role=role)["results"]]


def test_a_scorekeeper_can_neither_ask_about_nor_write_to_a_private_draws_game(private_round):
    event, _tournament, game_id = private_round
    hand = {"dealer": 0, "trump": "S", "trick_winners": [0, 1, 0, 1, 0]}

    asked = event.call("post", f"/api/games/{game_id}/legal-plays/", {}, role="scorekeeper")
    written = event.call("post", f"/api/games/{game_id}/hands/", hand, role="scorekeeper")
    assert (asked.status_code, written.status_code) == (404, 404)


@pytest.mark.parametrize(
    ("role", "status"),
    [("anonymous", 404), ("player", 404), ("scorekeeper", 404), ("organiser", 200)],
)
def test_the_game_page_and_its_poll_hide_a_private_draws_game(private_round, role, status):
    event, tournament, game_id = private_round
    client = _page_client(event, role)
    url = f"/clubs/{event.club.slug}/games/{game_id}/"

    assert client.get(url).status_code == status
    assert client.get(url, headers={"if-none-match": "*"}).status_code == (
        404 if status == 404 else 304
    )
    _release(event, tournament)
    assert client.get(url).status_code == 200


@pytest.mark.parametrize(("role", "played"), [("player", 0), ("organiser", 1)])
def test_the_player_page_counts_a_private_draws_game_for_organisers_only(
    private_round, role, played
):
    event, tournament, game_id = private_round
    client = _page_client(event, role)
    url = f"/clubs/{event.club.slug}/players/{event.players[0].pk}/"

    response = client.get(url)
    assert response.context["results"]["played"] == played
    assert response.context["results"]["won"] + response.context["results"]["lost"] == played
    assert (f"/games/{game_id}/" in response.content.decode()) is bool(played)
    _release(event, tournament)
    assert client.get(url).context["results"]["played"] == 1


def test_me_and_the_club_page_leave_a_private_draws_game_out_for_a_player(private_round):
    event, tournament, game_id = private_round
    client = _page_client(event, "player")
    link = f"/clubs/{event.club.slug}/games/{game_id}/"

    assert link not in client.get("/me/").content.decode()
    assert link not in client.get(f"/clubs/{event.club.slug}/").content.decode()
    assert (
        link in _page_client(event, "organiser").get(f"/clubs/{event.club.slug}/").content.decode()
    )
    _release(event, tournament)
    assert link in client.get("/me/").content.decode()
    assert link in client.get(f"/clubs/{event.club.slug}/").content.decode()


def test_an_organisers_event_tag_differs_from_a_players_while_a_round_is_private():
    event = build_event(players=4, public=True, slug="private-tags")
    tournament = event.create_tournament(
        name="Private",
        game="25",
        format="swiss",
        round_count=2,
        private_draws=True,
        entrants=[{"player": player.pk} for player in event.players],
    )
    url = f"/clubs/{event.club.slug}/tournaments/{tournament['id']}/"
    player, organiser = _page_client(event, "player"), _page_client(event, "organiser")
    drawn = event.draw(tournament["id"])
    before = {"player": player.get(url)["ETag"], "organiser": organiser.get(url)["ETag"]}
    assert before["organiser"] != before["player"]

    # A hand in the private round (no match decided: the standings stay as they were).
    event.ok(
        "post",
        f"/api/games/{drawn['matches'][0]['games'][0]['id']}/hands/",
        {"dealer": 0, "trump": "S", "trick_winners": [0, 1, 0, 1, 0]},
        status=201,
    )

    # The player's old tag still holds (nothing they may see changed): 304, nothing leaks.
    assert player.get(url, headers={"if-none-match": before["player"]}).status_code == 304
    # The organiser's tag moved with the private round, and differs from the player's.
    assert organiser.get(url, headers={"if-none-match": before["organiser"]}).status_code == 200
    assert organiser.get(url)["ETag"] != player.get(url)["ETag"]
    _release(event, tournament)
    assert player.get(url, headers={"if-none-match": before["player"]}).status_code == 200


# Names: a rename changes the tag of every live page that shows the name.


@pytest.mark.parametrize("what", ["player", "team", "club"])
def test_a_rename_changes_the_event_and_game_pages_tags(what):
    from clubs import services as club_services
    from clubs.models import Team

    event = build_event(players=0, teams=2, public=True, slug="renames")
    tournament = event.create_tournament(
        name="Pairs",
        game="45",
        format="swiss",
        round_count=1,
        entrant_kind="team",
        table_size=2,
        entrants=[{"team": team.pk} for team in event.teams],
    )
    drawn = event.draw(tournament["id"])
    game_id = drawn["matches"][0]["games"][0]["id"]
    pages = [f"/clubs/renames/tournaments/{tournament['id']}/", f"/clubs/renames/games/{game_id}/"]
    reader = _page_client(event, "player")
    tags = {url: reader.get(url)["ETag"] for url in pages}
    assert all(
        reader.get(url, headers={"if-none-match": tags[url]}).status_code == 304 for url in pages
    )

    team = Team.objects.get(pk=event.teams[0].pk)
    if what == "player":
        club_services.update_player(player=team.members.first(), display_name="Úna Renamed")
        new_name = "Úna Renamed"
    elif what == "team":
        club_services.update_team(team=team, name="The Renamed Pair")
        new_name = "The Renamed Pair"
    else:
        club_services.update_club(club=event.club, name="The Renamed Club")
        new_name = "The Renamed Club"

    for url in pages:
        response = reader.get(url, headers={"if-none-match": tags[url]})
        assert response.status_code == 200, url
        assert response["ETag"] != tags[url]
        assert new_name in response.content.decode(), url


def test_an_unchanged_name_keeps_the_tag():
    from clubs import services as club_services

    event = build_event(players=2, public=True, slug="same-name")
    url = "/clubs/same-name/"
    before = event.club.names_version
    club_services.update_player(player=event.players[0], display_name=event.players[0].display_name)
    event.club.refresh_from_db()
    assert event.club.names_version == before
    club_services.update_player(player=event.players[0], display_name="Someone Else")
    event.club.refresh_from_db()
    assert (event.club.names_version, Client().get(url).status_code) == (before + 1, 200)


def test_standings_count_a_private_round_only_once_it_is_released(private_round):
    event, tournament, _ = private_round
    path = f"/api/tournaments/{tournament['id']}/standings/"

    def played(role):
        rows = event.ok("get", path, role=role)["standings"]
        return sorted((row["entrant"]["name"], row["matches_played"]) for row in rows)

    names = sorted(str(player) for player in event.players)
    # The first table's match is decided, but its round is not released: nobody, not even the
    # organiser's standings, counts it yet.
    assert played("player") == played("organiser") == [(name, 0) for name in names]
    _release(event, tournament)
    after = dict(played("player"))
    assert sorted(after.values()) == [0, 0, 1, 1]
    assert played("organiser") == sorted(after.items())
