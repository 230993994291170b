"""A whole club night in the organiser's console, in Chromium, from an empty club.

What it proves: an organiser who has never seen the API pastes sixteen names, makes eight pairs,
creates a 45 drive (pairs, four players to a table, three games) with a stake and an entry fee,
adds every pair and a newcomer pair, checks in eight pairs (one absent), draws, swaps two pairs
between tables while the draw is private (players see no round through the API until it is
released), releases it, prints the table cards (Chromium's own PDF holds four table links and
the print view four QR codes), watches the live board update while the scorekeeper's tablet
enters hands through the API, draws and releases rounds 2 and 3, corrects a table's hand from the
board, enters another table's final score from its paper sheet (refused beside the field, then
confirmed), flags that table as disputed and resolves it, closes the night, and reads standings
and a stored settle-up (prizes 50/30/20 of the entry fees by place, stakes, who pays whom) equal
to what the services compute, marking two transfers paid.

Check-in is per entrant: here a pair. Tables of two pairs need an even number of pairs present,
so the absent one is a pair (the spec's "15 of 16" players cannot fill tables of four).
"""

from __future__ import annotations

import io
import re
from urllib.parse import urlsplit

import pytest
import requests

from tests.browser import PHONE, TABLET_LANDSCAPE

NAMES = [
    "Aoife",
    "Brendan",
    "Ciara",
    "Declan",
    "Eimear",
    "Fergal",
    "Grainne",
    "Hugh",
    "Iseult",
    "Jarlath",
    "Kieran",
    "Laoise",
    "Maeve",
    "Niall",
    "Orla",
    "Padraig",
]
PASSWORD = "console-night-2026"


@pytest.fixture
def empty_club(transactional_db):
    from django.contrib.auth import get_user_model

    from accounts.services import issue_device_token
    from clubs import services

    users = get_user_model().objects
    organiser = users.create_user(username="mary", password=PASSWORD)
    scorekeeper = users.create_user(username="tablet")
    player = users.create_user(username="reader")
    club = services.create_club(
        user=organiser,
        name="Parish Hall",
        slug="parish-hall",
        currency="EUR",
        time_zone="Europe/Dublin",
    )
    services.add_membership(club=club, username="tablet", role="scorekeeper")
    services.add_membership(club=club, username="reader", role="player")
    _, scorer_token = issue_device_token(user=scorekeeper, device="table tablet")
    _, player_token = issue_device_token(user=player, device="phone")
    return club, scorer_token, player_token


def _api(base: str, token: str):
    session = requests.Session()
    session.headers["Authorization"] = f"Token {token}"

    def call(method: str, path: str, **kwargs):
        response = session.request(method, f"{base}{path}", timeout=30, **kwargs)
        assert response.status_code < 400, (path, response.status_code, response.text[:500])
        return response.json()

    return call


def _win_hand(api, game_id: int, side: int) -> dict:
    """One hand of 45 in which ``side`` takes every trick and the best trump (30 points)."""
    game = api("get", f"/api/games/{game_id}/")
    seat = game["sides"][side]["seats"][0]
    record = {
        "dealer": game["next_dealer"],
        "trump": "S",
        "trick_winners": [seat] * 5,
        "best_trump": {"seat": seat, "trick": 0},
    }
    return api("post", f"/api/games/{game_id}/hands/", json=record)


def _finish_round(api, tournament_id: int, number: int) -> None:
    """Side 0 wins every game of round ``number`` still in progress."""
    rounds = api("get", f"/api/tournaments/{tournament_id}/rounds/")
    (round_,) = [item for item in rounds if item["number"] == number]
    for match in round_["matches"]:
        for game in match["games"]:
            if game["status"] == "in_progress":
                while api("get", f"/api/games/{game['id']}/")["status"] == "in_progress":
                    _win_hand(api, game["id"], 0)


def _name(player) -> str:
    return player.display_name if player is not None else "The club"


def _post(page, form_selector: str) -> None:
    with page.expect_navigation():
        page.click(f"{form_selector} button[type=submit]")


def test_an_organiser_runs_a_drive_night_from_an_empty_club(
    live_server, new_context, outside_requests, screenshots, empty_club
):
    from pypdf import PdfReader

    from games.money import format_money
    from settlements.models import SettlementTransfer
    from settlements.selectors import list_settlements
    from tournaments.models import Entrant, Match, Tournament
    from tournaments.standings import compute_standings

    club, scorer_token, player_token = empty_club
    base = live_server.url
    console = f"{base}/clubs/{club.slug}/console"
    context = new_context(viewport=TABLET_LANDSCAPE)
    page = context.new_page()
    page.goto(f"{base}/accounts/login/")
    page.fill("input[name=username]", "mary")
    page.fill("input[name=password]", PASSWORD)
    with page.expect_navigation():
        page.click("form.form button[type=submit]")  # not the header's language switch

    # 1. Sixteen names pasted, eight pairs made from the list as it stands (alphabetical).
    page.goto(f"{console}/players/")
    page.fill("textarea[name=names]", "\n".join(NAMES))
    _post(page, "form:has(textarea[name=names])")
    assert "16 players added." in page.inner_text(".messages")
    for box in page.locator("#pairs-form input[name=player]").all():
        box.check()
    _post(page, "#pairs-form")
    assert "8 pairs made." in page.inner_text(".messages")
    assert page.locator(".cards .card-title").all_inner_texts()[0] == "Aoife & Brendan"
    page.screenshot(path=str(screenshots / "console-players.png"), full_page=True)

    # 2. The new event: its defaults are a 45 drive of pairs, two pairs a table, three games.
    page.goto(f"{console}/events/new/")
    assert page.input_value("select[name=format]") == "drive"
    assert page.input_value("select[name=game]") == "45"
    assert page.input_value("select[name=entrant_kind]") == "team"
    assert page.input_value("input[name=round_count]") == "3"
    assert page.locator("[data-formats] [name=third_place_match]").is_hidden()
    page.fill("input[name=name]", "Friday 45s")
    page.fill("input[name=stake]", "0.50")
    page.fill("input[name=entry_fee]", "5.00")
    page.fill("input[name=prize_split]", "50, 30, 20")
    _post(page, "#event-form")
    tournament = Tournament.objects.get(name="Friday 45s")
    assert (tournament.stake_minor, tournament.entry_fee_minor, tournament.private_draws) == (
        50,
        500,
        True,
    )
    event_url = f"{console}/events/{tournament.pk}/"
    assert urlsplit(page.url).path == urlsplit(event_url).path

    # 3. Every pair, a newcomer pair, and check-in: one pair is absent tonight.
    _post(page, "form:has(input[value=add_all])")
    assert "8 added." in page.inner_text(".messages")
    page.fill("#quick-name", "Ronan")
    page.fill("#quick-partner", "Siobhan")
    _post(page, "form:has(#quick-name)")
    assert "Ronan & Siobhan added and entered." in page.inner_text(".messages")
    absent = Entrant.objects.get(tournament=tournament, team__name="Maeve & Niall")
    page.uncheck(f"#present-{absent.pk}")
    _post(page, "#check-in")
    assert "8 checked in." in page.inner_text(".messages")

    # 4. Draw (private), swap two pairs between tables 1 and 2, release.
    _post(page, "#draw")
    assert page.locator("#round-1 .table-card").count() == 4
    assert page.locator("#round-1 .table-card .seat").count() == 16
    drawn = {
        match.table: [slot.entrant_id for slot in match.slots.order_by("position")]
        for match in Match.objects.filter(tournament=tournament)
    }
    assert absent.pk not in {entrant for table in drawn.values() for entrant in table}
    player_api = _api(base, player_token)
    assert player_api("get", f"/api/tournaments/{tournament.pk}/rounds/") == []
    first, second = drawn[1][0], drawn[2][0]
    page.select_option("#first-1", str(first))
    page.select_option("#second-1", str(second))
    _post(page, "#round-1 form.swap")
    assert "Swapped." in page.inner_text(".messages")
    swapped = {
        match.table: [slot.entrant_id for slot in match.slots.order_by("position")]
        for match in Match.objects.filter(tournament=tournament)
    }
    assert swapped[1] == [second, drawn[1][1]] and swapped[2] == [first, drawn[2][1]]
    page.screenshot(path=str(screenshots / "console-draw.png"), full_page=True)
    _post(page, "#round-1 form.release")
    assert len(player_api("get", f"/api/tournaments/{tournament.pk}/rounds/")) == 1

    # 5. Every table's link in one step, then print: four cards, four QR codes and short codes;
    # Chromium's PDF holds the four table links (table N of the event, every round).
    _post(page, "#table-links")
    assert "4 table links made" in page.inner_text(".messages")
    page.goto(f"{console}/events/{tournament.pk}/print/?layout=four")
    assert page.locator(".print-card .qr svg").count() == 4
    assert page.locator(".print-card .table-code strong").count() == 4
    # Printed four to a page, each QR code stays inside its card.
    page.emulate_media(media="print")
    for index in range(4):
        card = page.locator(".print-card .table-card").nth(index).bounding_box()
        qr = page.locator(".print-card .table-card .qr").nth(index).bounding_box()
        assert card["x"] <= qr["x"] and qr["x"] + qr["width"] <= card["x"] + card["width"] + 0.5
        assert card["y"] <= qr["y"] and qr["y"] + qr["height"] <= card["y"] + card["height"] + 0.5
    page.emulate_media(media="null")  # back to the default: the PDF is printed as print
    page.screenshot(path=str(screenshots / "console-print.png"), full_page=True)
    pdf = PdfReader(io.BytesIO(page.pdf(format="A4", print_background=True)))
    text = "".join(sheet.extract_text() for sheet in pdf.pages)
    assert [f"Table {number}" in text for number in range(1, 5)] == [True] * 4
    links = {
        annotation.get_object()["/A"]["/URI"]
        for sheet in pdf.pages
        for annotation in sheet.get("/Annots") or []
        if "/A" in annotation.get_object()
    }
    assert len({link for link in links if re.search(r"/t/[\w-]{43}/$", link)}) == 4
    # Four to a page: the four tables fit one sheet of Letter as of A4.
    for paper in ("A4", "Letter"):
        assert len(PdfReader(io.BytesIO(page.pdf(format=paper))).pages) == 1, paper
    page.goto(f"{console}/events/{tournament.pk}/print/?layout=one")
    for paper in ("A4", "Letter"):  # one table a page
        assert len(PdfReader(io.BytesIO(page.pdf(format=paper))).pages) == 4, paper

    # 6. The live board follows hands entered through the API by the table's tablet.
    scorer_api = _api(base, scorer_token)
    page.goto(f"{console}/events/{tournament.pk}/board/")
    assert page.inner_text("#board-table-1 .state") == "Not started"
    round_one = scorer_api("get", f"/api/tournaments/{tournament.pk}/rounds/")[0]
    first_game = round_one["matches"][0]["games"][0]["id"]
    _win_hand(scorer_api, first_game, 0)
    page.wait_for_function(
        # A function, not a bare expression: the page's CSP forbids Playwright's eval of one.
        "() => document.querySelector('#board-table-1 .total[data-side=\"0\"]').innerText === '30'",
        timeout=10_000,
    )
    assert page.inner_text("#board-table-1 .state") == "Hand 2"
    page.screenshot(path=str(screenshots / "console-board.png"), full_page=True)
    _finish_round(scorer_api, tournament.pk, 1)

    # Rounds 2 and 3: the organiser draws and releases each.
    for number in (2, 3):
        page.goto(event_url)
        _post(page, "#draw")
        _post(page, f"#round-{number} form.release")
        _finish_round(scorer_api, tournament.pk, number)

    # A correction from the board: table 1's second hand of round 3 was 4 tricks to 1.
    page.goto(f"{console}/events/{tournament.pk}/board/?round=3")
    table = page.locator("#hand-form-1")
    table.locator("summary").click()
    table.locator("select[name=number]").select_option("2")
    seats = [
        option.get_attribute("value")
        for option in table.locator("select[name=dealer] option").all()
    ]
    round_three = Match.objects.get(tournament=tournament, round__number=3, table=1)
    (game_three,) = scorer_api("get", f"/api/matches/{round_three.pk}/")["games"]
    dealer = str(scorer_api("get", f"/api/games/{game_three['id']}/hands/2/")["dealer"])
    for trick, seat in enumerate([seats[0]] * 4 + [seats[1]]):
        table.locator(f"select[name=trick_{trick}]").select_option(seat)
    table.locator("select[name=best_trump_seat]").select_option(seats[0])
    table.locator("select[name=dealer]").select_option(dealer)
    with page.expect_navigation():
        table.locator("form.hand-form button[type=submit]").click()
    assert "Hand 2 corrected." in page.inner_text(".messages")
    assert page.inner_text('#board-table-1 .total[data-side="0"]') == "55"

    # Table 2 kept paper: its final score replaces the last hand, refused beside the field when
    # impossible, and saved after a confirmation that says what changes.
    table_two = Match.objects.get(tournament=tournament, round__number=3, table=2)
    (game_two,) = scorer_api("get", f"/api/matches/{table_two.pk}/")["games"]
    assert scorer_api("get", f"/api/games/{game_two['id']}/")["totals"] == {"0": 60, "1": 0}
    paper = page.locator("#hand-form-2")
    paper.locator("summary").click()
    page.fill("#paper-2-0", "45")
    page.fill("#paper-2-1", "22")
    with page.expect_navigation():
        page.click("#paper-form-2 button[type=submit]")
    assert "not a multiple of 5" in page.inner_text("#paper-error-2-1")
    assert page.get_attribute("#paper-2-1", "aria-invalid") == "true"
    page.fill("#paper-2-1", "20")
    with page.expect_navigation():
        page.click("#paper-form-2 button[type=submit]")
    changes = page.inner_text("#confirm-paper")
    assert "Hand 2 becomes the paper score." in changes
    assert "60 → 45 (winner)" in changes and "0 → 20" in changes
    page.screenshot(path=str(screenshots / "console-paper-score.png"), full_page=True)
    with page.expect_navigation():
        page.click("#confirm-paper button[type=submit]")
    assert "Hand 2 replaced by the paper score." in page.inner_text(".messages")
    assert page.inner_text('#board-table-2 .total[data-side="1"]') == "20"
    assert scorer_api("get", f"/api/games/{game_two['id']}/")["totals"] == {"0": 45, "1": 20}

    # A disputed table: flagged with a note, shown on the board, resolved by the organiser.
    page.fill("#note-2", "Score sheet smudged")
    _post(page, "#dispute-form-2")
    assert page.inner_text("#board-table-2 .state") == "Disputed"
    assert "Score sheet smudged" in page.inner_text("#board-table-2 .dispute-note")
    page.screenshot(path=str(screenshots / "console-board-disputed.png"), full_page=True)
    page.fill("#resolution-2", "Re-added: 45 to 20 stands")
    _post(page, "#dispute-form-2")
    assert page.inner_text("#board-table-2 .state") == "Finished"
    assert "Dispute resolved by mary" in page.inner_text("#audit")

    # 7. Close the night: the standings and the stored settle-up are the services' own; two
    # transfers are marked paid.
    page.goto(f"{console}/events/{tournament.pk}/results/")
    _post(page, "#close")
    assert "closed" in page.inner_text(".messages")
    tournament.refresh_from_db()
    standings = compute_standings(tournament)["standings"]
    shown = [row.split("\t")[:2] for row in page.locator("#standings tbody tr").all_inner_texts()]
    assert shown == [[str(row["rank"]), row["entrant"]["name"]] for row in standings]
    (settlement,) = list_settlements(tournament_id=tournament.pk)
    assert settlement.details["prize_split"] == [50, 30, 20]
    # The absent pair owes no entry fee: sixteen players paid 5.00.
    assert settlement.details["pot"] == 16 * 500
    prizes = {line["player"]: line["prize"] for line in settlement.lines}
    assert sum(prizes.values()) == 16 * 500
    transfers = list(settlement.transfers.all())  # payer, then payee, by name; the club first
    # Nobody's fee was marked at the door: each owes it to the club, which pays the prizes.
    assert {transfer.kind for transfer in transfers} == {"pot", "stakes"}
    assert [
        " ".join(text.split()) for text in page.locator(".transfers .who-pays").all_inner_texts()
    ] == [
        f"{_name(transfer.payer)} pays {_name(transfer.payee).replace('The club', 'the club')} "
        f"{format_money(transfer.amount_minor, club)}"
        for transfer in transfers
    ]
    for transfer in transfers[:2]:
        _post(page, f"#transfer-{transfer.pk} form.mark-paid")
        assert "Marked paid." in page.inner_text(".messages")
    paid = SettlementTransfer.objects.filter(settlement=settlement, paid_at__isnull=False)
    assert sorted(paid.values_list("pk", flat=True)) == sorted(t.pk for t in transfers[:2])
    assert page.locator(".transfers .paid").count() == 2
    page.screenshot(path=str(screenshots / "console-results.png"), full_page=True)

    # An organiser often runs the night from a phone: no page scrolls sideways there.
    page.set_viewport_size(PHONE)
    for path in ("", "board/", "results/"):
        page.goto(f"{console}/events/{tournament.pk}/{path}")
        assert page.evaluate("document.documentElement.scrollWidth") == PHONE["width"], path
    page.screenshot(path=str(screenshots / "console-phone.png"), full_page=False)
    assert outside_requests == []
