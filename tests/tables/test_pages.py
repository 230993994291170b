"""The table app's pages without a browser: table links made and revoked through the page, the
code form, the service worker's headers, and the query counts of the score pages (pinned: the
same for a game of one hand and of seven).
"""

from __future__ import annotations

import pytest
from django.test import Client

from games import services
from games.models import Game
from table_links.models import TableLink
from table_links.services import create_table_link
from tests.helpers import logged_in_client

pytestmark = pytest.mark.django_db

HAND = {
    "dealer": 3,
    "trump": "S",
    "trick_winners": [0, 1, 0, 0, 1],
    "best_trump": {"seat": 0, "trick": 0},
}


def _game(table):
    game = table.new_game(
        "45", 4, teams=[[0, 2], [1, 3]], first_dealer=3, house_rules={"target": 500}
    )
    return game["id"]


def test_an_organiser_makes_and_revokes_a_link_on_the_page(table):
    game_id = _game(table)
    client = logged_in_client(table.world.users["organiser"])
    url = f"/clubs/{table.club.slug}/table-links/"
    page = client.get(url)
    assert (
        f'<option value="{game_id}">Game {game_id} (Forty-Five)</option>' in page.content.decode()
    )
    made = client.post(url, {"game": str(game_id), "match": ""})
    assert made.status_code == 200
    html = made.content.decode()
    link = TableLink.objects.get()
    assert "<svg" in html and "QR code of the table link" in html
    assert "This is the only time the code is shown." in html
    assert made["Cache-Control"] == "private, no-store"
    revoked = client.post(url, {"revoke": str(link.pk)}, follow=True)
    assert "The link is revoked: it opens nothing any more." in revoked.content.decode()
    link.refresh_from_db()
    assert link.revoked_at is not None
    nothing = client.post(url, {"game": "", "match": ""}, follow=True)
    assert "Give either game or match: the table the link opens." in nothing.content.decode()
    assert TableLink.objects.count() == 1


def test_the_code_form_sends_the_tablet_to_its_table(table):
    game_id = _game(table)
    _, _, code = create_table_link(
        club=table.club, user=table.world.users["organiser"], game_id=game_id
    )
    typed = f"{code[:5].lower()}-{code[5:]}"
    response = Client().get("/t/", {"code": typed})
    assert response.status_code == 302 and response["Location"] == f"/t/{code}/"
    wrong = Client().get("/t/", {"code": "0000000000"})
    assert "No table has this code" in wrong.content.decode()


def test_the_service_worker_is_served_for_the_whole_site():
    response = Client().get("/table-worker.js")
    assert response["Service-Worker-Allowed"] == "/"
    assert response["Content-Type"] == "text/javascript; charset=utf-8"
    assert response.content.decode().startswith(
        'const SHELL = ["/static/css/jink.css", "/static/table/table.css", '
        '"/static/table/score-page.js", "/static/table/score.js", "/static/table/words.js", '
        '"/static/table/draft.js", "/static/table/api.js", "/static/table/sync.js", '
        '"/static/table/outbox.js", "/static/table/views.js", "/static/table/cards.js"];'
    )


# Session and user; club (with the viewer's role); the game with its seats and sides (3); its
# hands. The link page: the link; the table's games; the game with seats and sides (3); hands.
SCORE_PAGE = 2 + 1 + 3 + 1
LINK_PAGE = 1 + 1 + 3 + 1


def test_the_score_pages_cost_a_fixed_number_of_queries(table, django_assert_num_queries):
    game_id = _game(table)
    organiser = table.world.users["organiser"]
    _, token, _ = create_table_link(club=table.club, user=organiser, game_id=game_id)
    scorer = logged_in_client(table.world.users["scorekeeper"])
    for hands in (1, 7):
        while Game.objects.get(pk=game_id).hands_played < hands:
            number = Game.objects.get(pk=game_id).hands_played
            services.record_hand(
                game_id=game_id, user=organiser, record=dict(HAND, dealer=(3 + number) % 4)
            )
        with django_assert_num_queries(SCORE_PAGE):
            response = scorer.get(f"/clubs/{table.club.slug}/games/{game_id}/score/")
        assert response.status_code == 200
        with django_assert_num_queries(LINK_PAGE):
            response = Client().get(f"/t/{token}/")
        assert response.status_code == 200


# Session and user; the club (with the viewer's role); its links (with their games and matches);
# the games in progress; the tournament tables in progress.
LINKS_PAGE = 2 + 1 + 1 + 1 + 1


def test_the_links_page_costs_a_fixed_number_of_queries(table, django_assert_num_queries):
    organiser = table.world.users["organiser"]
    client = logged_in_client(organiser)
    url = f"/clubs/{table.club.slug}/table-links/"
    for count in (1, 4):
        while TableLink.objects.count() < count:
            create_table_link(club=table.club, user=organiser, game_id=_game(table))
        with django_assert_num_queries(LINKS_PAGE):
            response = client.get(url)
        assert response.status_code == 200
        assert response.content.decode().count("open until") == count


def test_guessing_codes_is_limited_per_address_and_window(table, settings, monkeypatch):
    settings.TABLE_CODE_GUESSES = 3
    settings.TABLE_CODE_WINDOW_SECONDS = 600
    clock = [1_800_000_000.0 + 100]  # 100 s into a window (1_800_000_000 is a multiple of 600)
    monkeypatch.setattr("table_links.guessing.time.time", lambda: clock[0])
    game_id = _game(table)
    _, token, code = create_table_link(
        club=table.club, user=table.world.users["organiser"], game_id=game_id
    )
    guesser = Client(REMOTE_ADDR="203.0.113.7")
    # The three wrong look-ups allowed: two codes typed, one made-up link.
    for wrong in ("0000000000", "1111111111"):
        answer = guesser.get("/t/", {"code": wrong})
        assert answer.status_code == 200 and "No table has this code" in answer.content.decode()
    # A right code does not count: it opens its table.
    assert guesser.get("/t/", {"code": code}).status_code == 302
    assert guesser.get("/t/2222222222/").status_code == 404
    # The fourth wrong look-up, and any look-up after it in this window, are refused.
    for refused in (
        guesser.get("/t/", {"code": "3333333333"}),
        guesser.get("/t/", {"code": code}),
        guesser.get(f"/t/{token}/"),
    ):
        assert refused.status_code == 429
        assert refused["Retry-After"] == "500"
        html = refused.content.decode()
        assert "Too many wrong table codes" in html
        assert "tried 3 wrong table codes or links" in html
        assert "for 9 minutes" in html
    # The form without a code is not a look-up; another address is not limited.
    assert guesser.get("/t/").status_code == 200
    assert Client(REMOTE_ADDR="198.51.100.2").get("/t/", {"code": code}).status_code == 302
    # The next window: the right code works again.
    clock[0] += 500
    opened = guesser.get("/t/", {"code": code})
    assert opened.status_code == 302 and opened["Location"] == f"/t/{code}/"
    assert guesser.get(f"/t/{token}/").status_code == 200


def test_behind_a_trusted_proxy_the_address_is_the_one_the_proxy_appended(table, settings):
    settings.TABLE_CODE_GUESSES = 1
    settings.TRUST_X_FORWARDED_PROTO = True
    spoofing = Client(REMOTE_ADDR="10.0.0.1", HTTP_X_FORWARDED_FOR="1.1.1.1, 203.0.113.7")
    assert spoofing.get("/t/", {"code": "0000000000"}).status_code == 200
    other_claim = Client(REMOTE_ADDR="10.0.0.1", HTTP_X_FORWARDED_FOR="9.9.9.9, 203.0.113.7")
    assert other_claim.get("/t/", {"code": "0000000000"}).status_code == 429
    other_client = Client(REMOTE_ADDR="10.0.0.1", HTTP_X_FORWARDED_FOR="198.51.100.2")
    assert other_client.get("/t/", {"code": "0000000000"}).status_code == 200
