"""Table links in a real browser (Chromium) against the live server on PostgreSQL.

What it proves: a table link opened by its code scores its own game and is refused (404,
nothing stored) on another game, on club pages and after revocation or expiry; a tournament
table whose match has no game yet waits, opens the match's game when the tournament starts it,
and after that game ends opens the next one by itself. A screenshot of the link's page at
390 x 844 goes to the screenshot folder.
"""

from __future__ import annotations

from datetime import timedelta

from django.utils import timezone
from playwright.sync_api import expect

from games.models import Game, Hand
from table_links import services as table_services
from tests.browser import PHONE, TABLET_LANDSCAPE
from tests.tables.browser_helpers import enter_hand, seed, wait_ready


def test_a_table_link_opens_its_table_and_nothing_else(live_server, new_context, screenshots):
    data = seed()
    game = data.new_game("45", 4, teams=[[0, 2], [1, 3]], first_dealer=3)
    other = data.new_game("45", 4, teams=[[0, 2], [1, 3]], first_dealer=3)
    link, token, code = table_services.create_table_link(
        club=data.club, user=data.organiser, game_id=game.pk
    )
    context = new_context(viewport=PHONE, has_touch=True, is_mobile=True)
    page = context.new_page()
    page.set_default_timeout(10_000)
    page.goto(f"{live_server.url}/t/")
    page.get_by_label("The table's code").fill(code.lower())
    page.get_by_role("button", name="Open the table").click()
    wait_ready(page)
    assert page.url == f"{live_server.url}/t/{code}/"
    page.screenshot(path=str(screenshots / "table-link-390x844.png"), full_page=True)
    enter_hand(
        page,
        number=1,
        trump="Clubs",
        winners=["Mary", "Tom", "Mary", "Mary", "Seán"],
        best=("Mary", 1),
    )
    assert Hand.objects.filter(game=game).count() == 1

    def fetch(path, method="GET", body=None):
        return page.evaluate(
            """([path, method, body, credential]) => fetch(path, {method,
                 headers: {"Authorization": `Table ${credential}`,
                           "Content-Type": "application/json"},
                 body: body === null ? undefined : JSON.stringify(body)}).then(r => r.status)""",
            [path, method, body, token],
        )

    hand = {
        "dealer": 3,
        "trump": "S",
        "trick_winners": [0, 0, 0, 0, 0],
        "best_trump": {"seat": 0, "trick": 0},
    }
    assert fetch(f"/api/games/{other.pk}/") == 404
    assert fetch(f"/api/games/{other.pk}/hands/", "POST", hand) == 404
    assert fetch(f"/api/clubs/{data.club.slug}/games/") == 404
    assert fetch(f"/api/games/{game.pk}/ledger/") == 404
    assert page.goto(f"{live_server.url}/clubs/{data.club.slug}/").status == 404
    assert page.goto(f"{live_server.url}/t/{token}/?game={other.pk}").status == 200
    expect(page.locator("#dealer")).to_have_text("Hand 2: Mary deals")  # still its own game
    table_services.revoke_table_link(club=data.club, link_id=link.pk, user=data.organiser)
    assert page.goto(f"{live_server.url}/t/{token}/").status == 404
    assert fetch(f"/api/games/{game.pk}/hands/", "POST", dict(hand, dealer=0)) == 404
    _, expired_token, _ = table_services.create_table_link(
        club=data.club, user=data.organiser, game_id=game.pk
    )
    from table_links.models import TableLink

    TableLink.objects.exclude(pk=link.pk).update(expires_at=timezone.now() - timedelta(minutes=1))
    assert page.goto(f"{live_server.url}/t/{expired_token}/").status == 404
    assert Hand.objects.filter(game__in=[game, other]).count() == 1


def test_a_tournament_table_with_no_game_yet_waits_and_opens_the_next_game(
    live_server, new_context
):
    from tournaments.services import create_tournament, draw_next_round, progress_match

    data = seed()
    final = create_tournament(
        club=data.club,
        user=data.organiser,
        values={"name": "Final", "game": "25", "format": "knockout", "match_games": 3},
        entrants=[{"player": player.pk} for player in data.players[:2]],
    )
    match_id = draw_next_round(tournament_id=final.pk, user=data.organiser).matches.get().pk
    # The match between games: none of its games exists yet (the draw made the first at once).
    Game.objects.filter(match_link__match_id=match_id).delete()
    _, token, _ = table_services.create_table_link(
        club=data.club, user=data.organiser, match_id=match_id
    )
    context = new_context(viewport=TABLET_LANDSCAPE, has_touch=True)
    page = context.new_page()
    page.set_default_timeout(20_000)
    page.goto(f"{live_server.url}/t/{token}/")
    wait_ready(page)
    expect(page.locator("h1")).to_have_text("Final, round 1, table 1")
    expect(page.locator("#waiting-status")).to_have_text("Waiting for the next game…")
    page.wait_for_timeout(5_000)  # one poll answered "no game yet": the page stays
    expect(page.locator("#waiting-status")).to_be_visible()
    progress_match(match_id=match_id)  # the tournament starts the match's next game
    game = Game.objects.get(match_link__match_id=match_id)
    page.wait_for_url(f"{live_server.url}/t/{token}/?game={game.pk}")
    wait_ready(page)
    expect(page.locator("#dealer")).to_contain_text("Hand 1:")
    # Between games: the first game ends at the table; when the tournament starts the next one
    # the page opens it by itself.
    winner = game.seat_players()[0].display_name
    enter_hand(page, number=1, trump="Hearts", winners=[winner] * 5)
    expect(page.locator("#banner h2")).to_contain_text(f"{winner} wins")  # shown a while
    progress_match(match_id=match_id)  # the match's task (it may already have run on commit)
    second = Game.objects.filter(match_link__match_id=match_id).exclude(pk=game.pk).get()
    page.wait_for_url(f"{live_server.url}/t/{token}/?game={second.pk}")
    wait_ready(page)
    expect(page.locator("#dealer")).to_contain_text("Hand 1:")
