"""The player pages in Chromium on a phone: live scores, "tonight", the bracket, fit, axe-core.

What it does, on one seeded live server (tests/pages/seed.py plus a drive of eight in Kilkenny
with progressive partners, Pat among them), logged in as Pat on a 390 x 844 phone:

- the drive's event page, left open: after the organiser draws round 1 (through the service),
  the "tonight" panel names Pat's table and partner as the database has them; a hand recorded
  through the API (a device token, ``POST /api/games/{id}/hands/``) shows up in the panel and on
  the table within 25 s without a reload (a marker set on ``window`` survives, the scroll position
  too); after every game of round 1 is played the next round is drawn by itself and the panel
  names the new table and partner. The poll interval is shortened through the region's
  ``data-poll`` attribute (the page's own default is 15 s).
- the game page of Pat's next table: a hand recorded through the API appears by itself; while
  the page is hidden (the phone's screen off) it sends no poll, and it asks at once when shown.
- the knockout's bracket: each line starts on the right edge of the table it leaves and ends on
  the left edge of the table it feeds (``data-from``/``data-to``, checked against the tables'
  boxes), and the bracket scrolls inside its own box.
(Every page's accessibility — axe-core in both languages, on a phone and a desktop — is
tests/pages/test_accessibility_browser.py's.)

Screenshots go to ``JINK_SCREENSHOTS`` (``docs/screenshots`` refreshes the README's) or a
temporary folder.
"""

from __future__ import annotations

import requests

from tests.browser import PHONE
from tests.helpers import log_in

POLL_SECONDS = 1
LIVE_TIMEOUT_MS = 25_000


def make_drive(seed):
    from tournaments import services

    players = seed.players
    names = ["Pat", "Ann", "Bill", "Cait", "Dan", "Eve", "Finn", "Gus"]
    return services.create_tournament(
        club=seed.clubs["kilkenny"],
        user=seed.users["orla"],
        values={
            "name": "Tuesday Drive",
            "game": "25",
            "format": "drive",
            "table_size": 4,
            "sides_per_table": 2,
            "round_count": 2,
            "lots_seed": 11,
        },
        entrants=[{"player": players[name].pk} for name in names],
    )


def pat_at_table(drive, pat):
    """(table number, partner's name, game id) of Pat in the drive's last round."""
    from tournaments.models import MatchEntrant

    slot = (
        MatchEntrant.objects.filter(match__tournament=drive, entrant__player=pat)
        .select_related("match")
        .order_by("-match__round__number")
        .first()
    )
    partner = (
        MatchEntrant.objects.filter(match=slot.match, side=slot.side)
        .exclude(pk=slot.pk)
        .select_related("entrant__player")
        .get()
    )
    game = slot.match.games.order_by("-id").first()
    return slot.match.table, partner.entrant.player.display_name, game.pk


def set_hidden(page, hidden: bool) -> None:
    """Make the page hidden or visible as a phone does when its screen goes off or on."""
    page.evaluate(
        """hidden => {
          Object.defineProperty(document, 'hidden', {value: hidden, configurable: true});
          Object.defineProperty(document, 'visibilityState',
                                {value: hidden ? 'hidden' : 'visible', configurable: true});
          document.dispatchEvent(new Event('visibilitychange'));
        }""",
        hidden,
    )


def shorten_poll(page) -> None:
    page.evaluate(f"document.querySelector('[data-live]').dataset.poll = '{POLL_SECONDS}'")


def text(page, selector: str) -> str:
    return " ".join(page.inner_text(selector).split())


def test_a_phone_follows_a_drive_night_live_and_every_page_is_accessible(
    live_server, new_context, outside_requests, screenshots
):
    from accounts.services import issue_device_token
    from games.models import Game, GameStatus
    from tests.pages.seed import PASSWORD, draw, seed_clubs

    seed = seed_clubs()
    drive = make_drive(seed)
    _token, token = issue_device_token(user=seed.users["sean"], device="table tablet")
    api = requests.Session()
    api.headers["Authorization"] = f"Token {token}"

    context = new_context(viewport=PHONE, device_scale_factor=1, is_mobile=True, has_touch=True)
    page = context.new_page()
    log_in(page, live_server.url, "pat", PASSWORD)

    drive_url = f"{live_server.url}/clubs/kilkenny/tournaments/{drive.pk}/"
    page.goto(drive_url)
    assert text(page, "#tonight-title") == "Tonight for Pat"
    assert text(page, "#tonight-table") == "The first round has not been drawn yet."
    assert page.get_attribute("[data-live]", "data-poll") == "15"  # the page's own interval
    page.evaluate("window.jinkMarker = 'no reload'")
    shorten_poll(page)

    draw(drive, seed.users["orla"])
    table, partner, game_id = pat_at_table(drive, seed.players["Pat"])
    page.wait_for_function(
        f"() => document.querySelector('#tonight-table')?.innerText.includes('table {table},')",
        timeout=LIVE_TIMEOUT_MS,
    )
    assert text(page, "#tonight-partners") == f"Your partner {partner}"
    assert page.evaluate("window.jinkMarker") == "no reload"

    # A hand through the API, as the table's tablet records it: Pat's side takes three tricks.
    game = Game.objects.get(pk=game_id)
    pat_seat = next(seat for seat in game.seats.all() if seat.player_id == seed.players["Pat"].pk)
    other_seat = next(seat.seat for seat in game.seats.all() if seat.side != pat_seat.side)
    page.evaluate("window.scrollTo(0, 200)")
    response = api.post(
        f"{live_server.url}/api/games/{game_id}/hands/",
        json={
            "dealer": 0,
            "trump": "S",
            "trick_winners": [pat_seat.seat, pat_seat.seat, other_seat, pat_seat.seat, other_seat],
        },
    )
    assert response.status_code == 201, response.text
    page.wait_for_function(
        "() => document.querySelector('#tonight-score-1')?.innerText.includes('15')",
        timeout=LIVE_TIMEOUT_MS,
    )
    score = text(page, "#tonight-score-1")
    assert "15" in score and "10" in score and partner in score
    assert page.evaluate("window.jinkMarker") == "no reload"
    assert page.evaluate("window.scrollY") == 200
    page.screenshot(path=str(screenshots / "event-page-tonight.png"), full_page=True)

    # Round 1 played out: the next round is drawn by itself, the panel follows.
    for game in Game.objects.filter(
        match_link__match__tournament=drive, status=GameStatus.IN_PROGRESS
    ):
        # Seat 0's side takes every trick it needs to reach 25 (the game ends at that trick).
        needed = (25 - game.totals[game.side_of_seat[0]]) // 5
        response = api.post(
            f"{live_server.url}/api/games/{game.pk}/hands/",
            json={"dealer": game.next_dealer, "trump": "H", "trick_winners": [0] * needed},
        )
        assert response.status_code == 201, response.text
    assert drive.rounds.count() == 2
    table, partner, round_two_game = pat_at_table(drive, seed.players["Pat"])
    page.wait_for_function(
        "() => document.querySelector('#tonight-table')?.innerText.startsWith('Round 2')",
        timeout=LIVE_TIMEOUT_MS,
    )
    assert text(page, "#tonight-table").startswith(f"Round 2: table {table},")
    assert text(page, "#tonight-partners") == f"Your partner {partner}"
    assert page.evaluate("window.jinkMarker") == "no reload"

    # The game page of Pat's new table is live too: a hand through the API shows up by itself.
    game = Game.objects.get(pk=round_two_game)
    page.goto(f"{live_server.url}/clubs/kilkenny/games/{game.pk}/")
    assert text(page, "#score").endswith(
        "0 – 0 " + text(page, "#sides li.side:nth-child(2) .card-title")
    )
    page.evaluate("window.jinkMarker = 'no reload'")
    shorten_poll(page)
    response = api.post(
        f"{live_server.url}/api/games/{game.pk}/hands/",
        json={"dealer": game.next_dealer, "trump": "D", "trick_winners": [0, 0, 1, 0, 1]},
    )
    assert response.status_code == 201, response.text
    page.wait_for_function(
        "() => document.querySelector('#hand-list') !== null", timeout=LIVE_TIMEOUT_MS
    )
    assert text(page, "#score").split(" – ")[0].endswith(" 15")
    assert text(page, "#hand-1 .hand-title") == "Hand 1"
    assert page.evaluate("window.jinkMarker") == "no reload"

    # Hidden (the phone's screen off), the page stops asking; shown again, it asks at once.
    polls = []
    page.on(
        "request",
        lambda request: polls.append(request.url) if request.headers.get("x-jink-poll") else None,
    )
    set_hidden(page, True)
    response = api.post(
        f"{live_server.url}/api/games/{game.pk}/hands/",
        json={"dealer": (game.next_dealer + 1) % 4, "trump": "D", "trick_winners": [0, 0]},
    )  # seat 0's side reaches 25
    assert response.status_code == 201, response.text
    page.wait_for_timeout(3_000 * POLL_SECONDS)  # three poll intervals
    assert (polls, page.query_selector("#hand-2")) == ([], None)
    set_hidden(page, False)
    page.wait_for_selector("#hand-2", timeout=LIVE_TIMEOUT_MS)
    assert len(polls) >= 1

    # The knockout's bracket: every line joins a table's right edge to its next table's left.
    cup_url = f"{live_server.url}/clubs/kilkenny/tournaments/{seed.tournaments['cup'].pk}/"
    page.goto(cup_url)
    page.wait_for_selector(".bracket-lines path")
    lines = page.evaluate(
        """() => {
          const bracket = document.querySelector('[data-bracket]').getBoundingClientRect();
          return Array.from(document.querySelectorAll('.bracket-lines path')).map(path => {
            const from = document.getElementById(path.dataset.from).getBoundingClientRect();
            const to = document.getElementById(path.dataset.to).getBoundingClientRect();
            const length = path.getTotalLength();
            const start = path.getPointAtLength(0), end = path.getPointAtLength(length);
            return {from: path.dataset.from, to: path.dataset.to,
                    start: [start.x + bracket.left - from.right,
                            start.y + bracket.top - (from.top + from.height / 2)],
                    end: [end.x + bracket.left - to.left,
                          end.y + bracket.top - (to.top + to.height / 2)]};
          });
        }"""
    )
    assert [(line["from"], line["to"]) for line in lines] == [
        ("round-1-table-1", "round-2-table-1"),
        ("round-1-table-2", "round-2-table-1"),
    ]
    for line in lines:
        assert [round(value) for value in line["start"] + line["end"]] == [0, 0, 0, 0], line
    overflow = page.eval_on_selector(".bracket-scroll", "box => getComputedStyle(box).overflowX")
    assert overflow == "auto"

    assert outside_requests == []
