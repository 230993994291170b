"""The live board's paper score: a table that kept paper gives each side's final score; the
engine checks it (rules_engine.paper) and the games service records it like any hand."""

from __future__ import annotations

import pytest

from games.models import Game
from tests.helpers import logged_in_client
from tests.tournaments.play_helpers import build_event, win_game

pytestmark = pytest.mark.django_db


def _board(pairs: int = 4):
    event = build_event(players=0, teams=8)
    tournament = event.create_tournament(
        name="Drive",
        game="45",
        format="drive",
        entrant_kind="team",
        table_size=2,
        round_count=3,
        stake="0.50",
        private_draws=True,
        entrants=[{"team": team.pk} for team in event.teams[:pairs]],
    )
    event.draw(tournament["id"])
    client = logged_in_client(event.world.users["organiser"])
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
        "finished",
        0,
        [45, 30],
        1,
    )
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
    # In names, beside its table (not "side 1"): the side's players.
    side = " &amp; ".join(
        seat.player.display_name for seat in game.ordered_seats() if seat.side == 1
    )
    assert f"{side}&#x27;s score 32 is not a multiple of 5" in page
    assert "side 1" not in page
    assert page.index('id="problem-1"') > page.index('id="hand-form-1"')
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


def _hand(game: Game, **fields) -> dict:
    body = {"action": "hand", "round": "1", "game": str(game.pk), "version": str(game.version)}
    body.update(fields)
    return body


def test_in_a_confirm_hands_club_the_organisers_entry_stands_as_the_acceptance():
    event, client, url, game = _board()
    event.club.confirm_hands = True
    event.club.save()
    organiser = event.world.users["organiser"]
    # A hand by the form's fields alone (no accepting player: the form has none).
    hand = _hand(
        game,
        dealer=str(game.next_dealer),
        trump="H",
        trick_0="0",
        trick_1="0",
        trick_2="1",
        trick_3="0",
        trick_4="1",
        best_trump_seat="0",
        best_trump_trick="1",
    )
    assert client.post(url, hand).status_code == 302
    game.refresh_from_db()
    first = game.hands.get(number=1)
    assert (first.accepted_by_organiser, first.confirmed_by, first.entered_by) == (
        organiser,
        None,
        organiser,
    )
    assert first.history.get().accepted_by_organiser_id == organiser.pk
    # And a final score from the paper sheet.
    assert client.post(url, _paper(game, 45, 30)).status_code == 302
    game.refresh_from_db()
    assert game.status == "finished"
    assert game.hands.get(number=2).accepted_by_organiser == organiser
    # The game's audit says so, version by version.
    history = event.ok("get", f"/api/games/{game.pk}/history/")["results"]
    assert [
        entry["accepted_by_organiser"]["username"] for entry in history if entry["object"] == "hand"
    ] == [organiser.get_username()] * 2


def test_a_refused_hand_is_shown_beside_its_table_in_names_and_keeps_what_was_typed():
    event, client, url, game = _board()
    names = [seat.player.display_name for seat in game.ordered_seats()]
    wrong = (game.next_dealer + 1) % 2
    response = client.post(
        url,
        _hand(
            game,
            dealer=str(wrong),
            trump="D",
            trick_0="1",
            trick_1="0",
            trick_2="1",
            best_trump_seat="1",
            best_trump_trick="2",
        ),
    )
    assert response.status_code == 400
    page = response.content.decode()
    beside = page[page.index('id="problem-1"') :]
    assert beside.index(
        f"{names[wrong]} does not deal hand 1: {names[game.next_dealer]} does."
    ) < beside.index("</div>")
    assert "seat " not in page.split('id="hand-forms"')[1].split('id="problem-1"')[1][:300]
    form = page[page.index('id="hand-form-1"') : page.index('id="paper-form-1"')]
    assert f'<option value="{wrong}" selected>{names[wrong]}</option>' in form
    assert '<option value="D" selected>' in form
    assert 'name="trick_2"><option value="">—</option><option value="0">' in form
    best = form[form.index('name="best_trump_seat"') :]
    assert best.index(f'<option value="1" selected>{names[1]}</option>') < best.index("</select>")
    assert '<option value="2" selected>2</option>' in form  # the best trump's trick


def test_a_finished_game_offers_its_hands_by_dealer_name_and_no_next_hand():
    event, client, url, game = _board()
    win_game(event, game.pk, 0, role="organiser")
    game.refresh_from_db()
    page = client.get(url).content.decode()
    form = page[page.index('id="hand-form-1"') : page.index('id="paper-form-1"')]
    assert "Next hand" not in form
    dealer = game.ordered_seats()[game.hands.get(number=2).dealer].player.display_name
    assert f'<option value="2" selected>Correct hand 2 (dealt by {dealer})</option>' in form
    assert "dealt by seat" not in page
    # A side's name and its score are apart.
    side = " &amp; ".join(
        seat.player.display_name for seat in game.ordered_seats() if seat.side == 0
    )
    assert (
        f'<span class="side-name">{side}</span> <span class="total" data-side="0">60</span>' in page
    )


def test_the_qr_sheet_lists_every_tables_link_and_revokes_one_alone():
    from table_links.models import TableLink

    event, client, _url, game = _board()
    tournament = game.match_link.match.tournament
    event_url = f"/clubs/{event.club.slug}/console/events/{tournament.pk}/"
    made = client.post(event_url, {"action": "table_links"}, follow=True)
    assert "2 table links made" in made.content.decode()
    sheet = client.get(f"{event_url}table-links/")
    assert sheet["Cache-Control"] == "private, no-store"
    page = sheet.content.decode()
    assert page.count('class="table-tent"') == 2 and page.count("<svg") == 2
    first, second = TableLink.objects.filter(tournament=tournament).order_by("table_number")
    assert client.post(f"{event_url}table-links/", {"revoke": str(first.pk)}).status_code == 302
    first.refresh_from_db()
    second.refresh_from_db()
    assert first.revoked_at is not None and second.revoked_at is None
    assert client.get(f"{event_url}table-links/").content.decode().count('class="table-tent"') == 1
    # Making the links again replaces only the revoked one.
    client.post(event_url, {"action": "table_links"})
    assert TableLink.objects.filter(tournament=tournament, revoked_at__isnull=True).count() == 2
    assert TableLink.objects.filter(tournament=tournament).count() == 3
