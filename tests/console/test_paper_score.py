"""The live board's paper score: a table that kept paper gives each side's final score; the
engine checks it (rules_engine.paper) and the games service records it like any hand."""

from __future__ import annotations

import pytest
from django.test import Client

from games.models import Game
from tests.tournaments.play_helpers import build_event, win_game

pytestmark = pytest.mark.django_db


def _board(pairs: int = 4):
    event = build_event(players=0, teams=8)
    tournament = event.create_tournament(
        name="Drive", game="45", format="drive", entrant_kind="team", table_size=2,
        round_count=3, stake="0.50", private_draws=True,
        entrants=[{"team": team.pk} for team in event.teams[:pairs]])
    event.draw(tournament["id"])
    client = Client()
    client.force_login(event.world.users["organiser"])
    url = f"/clubs/{event.club.slug}/console/events/{tournament['id']}/board/"
    match = event.rounds(tournament["id"])[0]["matches"][0]
    return event, client, url, Game.objects.get(pk=match["games"][0]["id"])


def _paper(game: Game, *scores, **extra) -> dict:
    body = {"action": "paper", "round": "1", "game": str(game.pk), "version": str(game.version)}
    body.update({f"paper_score_{side}": str(score) for side, score in enumerate(scores)})
    body.update(extra)
    return body


def test_a_paper_score_finishes_a_game_without_hands():
    event, client, url, game = _board()
    response = client.post(url, _paper(game, 45, 30))
    assert response.status_code == 302
    game.refresh_from_db()
    assert (game.status, game.winner_side, game.totals, game.hands_played) == (
        "finished", 0, [45, 30], 1)
    hand = game.hands.get()
    assert hand.record == {"dealer": game.first_dealer, "paper_score": [45, 30]}
    assert hand.result["kind"] == "paper"
    assert hand.entered_by == event.world.users["organiser"]
    # Recorded through the games service: its history names who entered it.
    assert hand.history.get().history_user == event.world.users["organiser"]


def test_an_impossible_score_is_refused_beside_its_field_and_nothing_is_stored():
    _, client, url, game = _board()
    response = client.post(url, _paper(game, 45, 32))
    assert response.status_code == 400
    page = response.content.decode()
    assert 'name="paper_score_1" value="32" aria-invalid="true"' in page
    assert "side 1&#x27;s score 32 is not a multiple of 5" in page
    assert 'name="paper_score_0" value="45">' in page  # the good field is not flagged
    missing = client.post(url, _paper(game, 45, ""))
    assert missing.status_code == 400
    assert "Write this side" in missing.content.decode()
    game.refresh_from_db()
    assert (game.hands_played, game.status, game.version) == (0, "in_progress", 1)


def test_a_finished_game_is_corrected_after_a_confirmation_saying_what_changes():
    event, client, url, game = _board()
    win_game(event, game.pk, 0, role="organiser")  # 30-0, then 60-0 (the draw is private)
    game.refresh_from_db()
    assert (game.totals, game.hands_played) == ([60, 0], 2)
    asked = client.post(url, _paper(game, 45, 20))
    assert asked.status_code == 200
    page = asked.content.decode()
    assert "Replace the result with the paper score?" in page
    assert "Hand 2 becomes the paper score." in page
    assert "60 → <strong>45</strong> (winner)" in page and "0 → <strong>20</strong>" in page
    game.refresh_from_db()
    assert (game.totals, game.version) == ([60, 0], 3)  # nothing changed yet
    done = client.post(url, _paper(game, 45, 20, confirm="yes"))
    assert done.status_code == 302
    game.refresh_from_db()
    assert (game.totals, game.winner_side, game.hands_played) == ([45, 20], 0, 2)
    assert game.hands.get(number=2).result["points"] == {"0": 15, "1": 20}
    assert game.hands.get(number=1).result["kind"] == "played"


def test_a_paper_score_the_earlier_hands_rule_out_is_refused_before_asking():
    event, client, url, game = _board()
    win_game(event, game.pk, 0, role="organiser")  # the draw is private
    game.refresh_from_db()
    response = client.post(url, _paper(game, 25, 45))  # side 0 had 30 before the last hand
    assert response.status_code == 400
    assert "below the 30 it already had" in response.content.decode()
    game.refresh_from_db()
    assert game.totals == [60, 0]
