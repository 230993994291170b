"""Games of a tournament match: rules and stake from the tournament, the match told after commit
when the result changes, and corrections refused when tournaments says the match is locked.

Games does not know tournaments: these go through the hooks tournaments registers in settings
(``tournaments.game_hooks``: the match link, the progress subscriber and the correction check)."""

from __future__ import annotations

import pytest
from django.utils import timezone

import tournaments.game_hooks
from config.problems import Problem
from tests.clubs.factories import make_club
from tests.games.helpers_db import database_snapshot
from tournaments.models import Match, MatchGame, Round, Tournament
from tournaments.tasks import match_progress_task


def make_match(club, *, game="25", house_rules=None, stake_minor=None) -> Match:
    tournament = Tournament.objects.create(
        club=club,
        name="Winter drive",
        game=game,
        format="knockout",
        house_rules=house_rules or {},
        stake_minor=stake_minor,
        lots_seed=7,
    )
    # Drawn in the open (released at once): a round not yet released is a private draw, whose
    # games only the organisers see (tests/pages/test_private_draws.py).
    round_ = Round.objects.create(tournament=tournament, number=1, released_at=timezone.now())
    return Match.objects.create(tournament=tournament, round=round_, table=1)


@pytest.fixture
def notified(monkeypatch):
    calls: list[int] = []

    def enqueue(task, match_id):
        assert task == match_progress_task.name == "tournaments.match_progress_task"
        calls.append(match_id)

    monkeypatch.setattr(tournaments.game_hooks, "enqueue", enqueue)
    return calls


@pytest.mark.django_db
def test_a_match_game_takes_the_tournament_rules_and_stake(table):
    match = make_match(table.club, house_rules={"target": 30}, stake_minor=50)
    game = table.new_game("25", 3, tournament_match=match.pk)
    assert game["tournament_match"] == match.pk
    assert MatchGame.objects.get(game_id=game["id"]).match_id == match.pk
    assert table.client().get(f"/api/games/{game['id']}/").json()["tournament_match"] == match.pk
    assert game["house_rules"]["target"] == 30
    assert game["stake"] == "0.50"
    # The game's own overrides still win, and so does its own stake.
    game = table.new_game(
        "25", 3, tournament_match=match.pk, house_rules={"target": 35}, stake="0.10"
    )
    assert (game["house_rules"]["target"], game["stake"]) == (35, "0.10")


@pytest.mark.django_db
def test_a_match_of_another_club_or_game_is_refused(table):
    elsewhere = make_match(make_club("elsewhere"))
    forty_five = make_match(table.club, game="45")
    before = database_snapshot()
    for match in (elsewhere, forty_five):
        response = table.client().post(
            f"/api/clubs/{table.club.slug}/games/",
            {"game": "25", "seats": table.player_ids(3), "tournament_match": match.pk},
            format="json",
        )
        assert response.status_code == 400
        assert response.json()["errors"][0] == {
            "code": "invalid_tournament_match",
            "detail": response.json()["detail"],
            "pointer": "/tournament_match",
        }
    assert database_snapshot() == before


@pytest.mark.django_db
def test_the_match_is_told_after_commit_when_the_result_changes(
    table, notified, django_capture_on_commit_callbacks
):
    match = make_match(table.club)
    game = table.new_game(
        "25", 4, teams=[[0, 2], [1, 3]], first_dealer=3, tournament_match=match.pk
    )
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        table.post_hand(game["id"], {"dealer": 3, "trump": "S", "trick_winners": [0, 1, 1, 2, 2]})
    # A plain hand: no subscriber has work for it (no webhook here), so config.announce keeps
    # nothing and registers no callback; nothing decided yet, so the match is not told.
    assert (len(callbacks), notified) == (0, [])
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        response = table.post_hand(
            game["id"], {"dealer": 0, "trump": "H", "trick_winners": [1, 3, 0, 2]}
        )
    assert response.json()["game"]["status"] == "finished"
    assert notified == [match.pk]
    etag = table.client().get(f"/api/games/{game['id']}/")["ETag"]
    with django_capture_on_commit_callbacks(execute=True):
        table.client().delete(f"/api/games/{game['id']}/hands/2/", headers={"If-Match": etag})
    assert notified == [match.pk, match.pk]  # reopened: the match must know


@pytest.mark.django_db
def test_a_refused_request_tells_nobody(table, notified, django_capture_on_commit_callbacks):
    match = make_match(table.club)
    game = table.new_game("25", 3, tournament_match=match.pk)
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        response = table.post_hand(game["id"], {"dealer": 2, "misdeal": True})
    assert response.status_code == 400
    assert (callbacks, notified) == ([], [])


@pytest.mark.django_db
def test_a_correction_tournaments_refuses_is_not_stored(table, monkeypatch, notified):
    match = make_match(table.club)
    game = table.new_game(
        "25", 4, teams=[[0, 2], [1, 3]], first_dealer=3, tournament_match=match.pk
    )
    table.post_hand(game["id"], {"dealer": 3, "trump": "S", "trick_winners": [0, 1, 1, 2, 2]})
    table.post_hand(game["id"], {"dealer": 0, "trump": "H", "trick_winners": [1, 3, 0, 2]})
    asked = []

    def make_way_for_correction(
        *,
        game_id,
        match_id,
        tournament_id,
        new_winner_side,
        reset_dependents,
        user,
        winner_changes,
    ):
        assert (match_id, tournament_id) == (match.pk, match.tournament_id)
        asked.append((game_id, new_winner_side, reset_dependents, user.username))
        if winner_changes and not reset_dependents:
            raise Problem(code="match_locked", detail="The next match has begun.")

    monkeypatch.setattr(tournaments.game_hooks, "make_way_for_correction", make_way_for_correction)
    etag = table.client().get(f"/api/games/{game['id']}/")["ETag"]
    flipped = {"dealer": 0, "trump": "H", "trick_winners": [1, 3, 1]}
    before = database_snapshot()
    response = table.client().put(
        f"/api/games/{game['id']}/hands/2/", flipped, format="json", headers={"If-Match": etag}
    )
    assert (response.status_code, response.json()["code"]) == (409, "match_locked")
    assert database_snapshot() == before
    response = table.client("organiser").put(
        f"/api/games/{game['id']}/hands/2/?reset_dependents=true",
        flipped,
        format="json",
        headers={"If-Match": etag},
    )
    assert response.status_code == 200
    assert response.json()["outcome"]["winner_after"] == 1
    assert asked == [
        (game["id"], 1, False, "the-local-scorekeeper"),
        (game["id"], 1, True, "the-local-organiser"),
    ]
    # A correction that leaves the winner alone asks too (a closed tournament refuses it to all
    # but an organiser), saying the winner stays; this open one lets it pass.
    etag = response["ETag"]
    response = table.client().put(
        f"/api/games/{game['id']}/hands/1/",
        {"dealer": 3, "trump": "D", "trick_winners": [0, 1, 1, 2, 2]},
        format="json",
        headers={"If-Match": etag},
    )
    assert response.status_code == 200
    assert asked[2:] == [(game["id"], 1, False, "the-local-scorekeeper")]
