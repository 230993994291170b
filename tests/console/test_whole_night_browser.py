"""A whole night from the pages alone, in Chromium: issue 19's journey, from an empty database
and a visitor to the second settle-up version.

What it proves: a visitor signs up, creates a club with ``confirm_hands`` on, pastes sixteen
players (eight pairs), picks the classic Forty-Five preset, creates a three-round 45 drive (pairs,
four players to a table) with a stake and an entry fee, checks in seven pairs and then a late
pair, draws, makes every table's link in one step, prints the cards (Chromium's PDF: four tables
on one sheet, or one a page, each page carrying its table's link) and releases round 1. Four
tablets (separate browser contexts, nobody logged in) open the printed links and score the tables
of every round by taps, each hand accepted by a player of the other side; table 2's first hand is
entered offline and sent exactly once when the connection is back; table 4 of round 2 keeps paper,
its final score entered on the console's live board (the organiser's entry stands as the
acceptance). Rounds 2 and 3 are drawn and released from the console and each tablet opens its
table's new game by itself (the same document: no reload). The night closes (settle-up version
1), a hand is corrected on the board after the close (the page says the winner changes and the
settle-up gets a version of differences), and the results page shows version 2.

The test types no API call: every request is one the pages make. Every response of every context
is recorded, and none is a 4xx or 5xx.

Check-in is per entrant, here a pair: tables of two pairs need an even number of pairs, so the
"fifteen and a late arrival" of the issue is seven pairs and a late pair.
"""

from __future__ import annotations

import io
import re
from urllib.parse import urlsplit

from playwright.sync_api import expect

from tests.browser import TABLET_LANDSCAPE
from tests.helpers import submit
from tests.tables.browser_helpers import tap, wait_ready

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
PASSWORD = "a long walk to Tipperary"
SWEEP = ([0] * 5, (0, 1))  # side 0 takes every trick and the best trump: 30 points
# Round 3, table 1: a closer game, so that correcting its last hand changes the winner.
CLOSE_GAME = [
    ([0] * 5, (0, 1)),  # 30-0
    ([1] * 5, (1, 1)),  # 30-30
    ([0, 0, 0, 1, 1], (0, 1)),  # 50-40: side 0 wins
]


def _record_failures(context, failures: list, answered: list) -> None:
    """Every response of ``context`` is counted in ``answered``; a 4xx or 5xx is kept."""
    context.on(
        "response",
        lambda response: (
            answered.append(response.status)
            or response.status >= 400
            and failures.append((response.status, response.request.method, response.url))
        ),
    )


def _tap_hand(
    page, number: int, tricks: list[int], best: tuple[int, int], online: bool = True
) -> None:
    """Tap one hand of 45 at a table link's tablet: trumps, each trick's taking side (its first
    player), the best trump (side, 1-based trick) where the page asks, then who enters the hands
    (once a game: a player of side 0) and the acceptance by a player of side 1 (or of side 0 when
    the scorer is of side 1)."""
    expect(page.locator("#dealer")).to_contain_text(f"Hand {number}:")
    tap(page, "Spades")
    for side in tricks:
        button = page.locator(f"#entry .seat-buttons button.side-{side}:enabled").first
        button.wait_for()
        button.click()
    title = page.locator(".step-title")
    expect(title).not_to_have_text(re.compile(r"^Trick \d"))
    best_side, best_trick = best
    if title.inner_text() == "Who played the best trump?":
        page.locator(f"#entry .seat-buttons button.side-{best_side}").first.click()
        expect(title).not_to_have_text("Who played the best trump?")
    if title.inner_text().startswith("In which trick did"):
        tap(page, f"Trick {best_trick}")
    scorer = page.locator("#entry button[data-action=scorer].side-0")
    accept = page.locator("#entry button[data-action=confirm]").first
    expect(scorer.first.or_(accept)).to_be_visible()
    if scorer.count():
        scorer.first.click()
    expect(accept).to_contain_text(f"accepts hand {number}")
    assert "side-1" in accept.get_attribute("class")  # only the other side may accept
    if online:
        page.locator(".verdict", has_text="new totals").wait_for()
    accept.click()
    if online:
        page.locator(f"#hands-body tr[data-number='{number}']:not(.waiting)").wait_for()
    page.locator("#dealer", has_text=f"Hand {number + 1}:").or_(
        page.locator("#banner h2")
    ).first.wait_for()


def _cents(amount: str) -> int:
    """An amount as the page shows it ("+€1.50", "-€0.50", "€0.00") in cents."""
    found = re.fullmatch(r"([+\-−]?)€(\d+)\.(\d\d)", amount.strip())
    assert found, amount
    cents = int(found[2]) * 100 + int(found[3])
    return -cents if found[1] in ("-", "−") else cents


def _game_at(tournament, round_number: int, table: int):
    from tournaments.models import Match

    match = Match.objects.get(tournament=tournament, round__number=round_number, table=table)
    return match.match_games.get().game


def test_a_whole_night_from_the_pages_alone(live_server, new_context, outside_requests):
    from pypdf import PdfReader

    from clubs.models import Club
    from games.models import Hand
    from settlements.models import Settlement
    from tournaments.models import Entrant, Match, Tournament

    base = live_server.url
    failures: list[tuple[int, str, str]] = []
    answered: list[int] = []
    context = new_context(viewport=TABLET_LANDSCAPE)
    _record_failures(context, failures, answered)
    page = context.new_page()
    page.set_default_timeout(20_000)

    # 1. A visitor signs up and creates a club with confirm_hands on.
    page.goto(f"{base}/")
    with page.expect_navigation():
        page.click("a.start")
    page.fill("#signup-username", "maura")
    page.fill("#signup-password", PASSWORD)
    submit(page, "#signup-form")
    assert page.url == f"{base}/new-club/"
    page.type("#club-name", "Callan Card Club")
    assert page.input_value("#club-slug") == "callan-card-club"
    page.select_option("#club-game", "45")
    page.check("#club-confirm")
    submit(page, "#club-form")
    console = f"{base}/clubs/callan-card-club/console/"
    assert page.url == console
    club = Club.objects.get(slug="callan-card-club")
    organiser = club.memberships.get().user
    assert (club.default_game, club.confirm_hands) == ("45", True)

    # 2. Sixteen players pasted, eight pairs made.
    with page.expect_navigation():
        page.click("#first-night li[data-step=players] a")
    page.fill("textarea[name=names]", "\n".join(NAMES))
    submit(page, "form:has(textarea[name=names])")
    assert "16 players added." in page.inner_text(".messages")
    for box in page.locator("#pairs-form input[name=player]").all():
        box.check()
    submit(page, "#pairs-form")
    assert "8 pairs made." in page.inner_text(".messages")

    # 3. The classic Forty-Five preset, one tap, saved.
    page.goto(console)
    with page.expect_navigation():
        page.click("#first-night li[data-step=house_rules] a")
    with page.expect_navigation():
        page.click("a[href='?preset=classic_45']")
    submit(page, "form.panel")
    assert "House rules saved." in page.inner_text(".messages")
    club.refresh_from_db()
    assert club.default_house_rules == {
        "ace_of_hearts_lead": "trump_then_hearts",
        "rob_discard": "not_the_ace",
    }  # the rest: 45's own

    # 4. A three-round 45 drive of pairs, four to a table, with a stake and an entry fee.
    page.goto(f"{console}events/new/")
    assert (
        page.input_value("select[name=format]"),
        page.input_value("select[name=game]"),
        page.input_value("select[name=entrant_kind]"),
        page.input_value("input[name=round_count]"),
    ) == ("drive", "45", "team", "3")
    page.fill("input[name=name]", "Friday 45s")
    page.fill("input[name=stake]", "0.50")
    page.fill("input[name=entry_fee]", "5.00")
    page.fill("input[name=prize_split]", "50, 30, 20")
    submit(page, "#event-form")
    tournament = Tournament.objects.get(name="Friday 45s")
    event_url = f"{console}events/{tournament.pk}/"
    assert urlsplit(page.url).path == urlsplit(event_url).path

    # 5. Every pair entered; seven pairs checked in, then the late pair.
    submit(page, "form:has(input[value=add_all])")
    assert "8 added." in page.inner_text(".messages")
    late = Entrant.objects.get(tournament=tournament, team__name="Orla & Padraig")
    for box in page.locator("#check-in input[name=present]").all():
        box.check()
    page.uncheck(f"#present-{late.pk}")
    submit(page, "#check-in")
    assert "7 checked in." in page.inner_text(".messages")
    page.check(f"#present-{late.pk}")
    submit(page, "#check-in")
    assert "8 checked in." in page.inner_text(".messages")

    # 6. Draw, every table's link in one step, print, release.
    submit(page, "#draw")
    assert page.locator("#round-1 .table-card").count() == 4
    submit(page, "#table-links")
    assert "4 table links made" in page.inner_text(".messages")
    page.goto(f"{console}events/{tournament.pk}/print/?layout=four")
    assert len(PdfReader(io.BytesIO(page.pdf(format="A4"))).pages) == 1
    page.goto(f"{console}events/{tournament.pk}/print/?layout=one")
    pdf = PdfReader(io.BytesIO(page.pdf(format="A4", print_background=True)))
    assert len(pdf.pages) == 4
    printed = {}  # table number -> the link its card carries
    for sheet in pdf.pages:
        (table,) = {int(number) for number in re.findall(r"Table (\d)", sheet.extract_text())}
        (link,) = {
            annotation.get_object()["/A"]["/URI"]
            for annotation in sheet.get("/Annots") or []
            if "/A" in annotation.get_object()
            and re.search(r"/t/[\w-]{43}/$", annotation.get_object()["/A"]["/URI"])
        }
        printed[table] = link
    assert sorted(printed) == [1, 2, 3, 4]
    page.goto(event_url)
    submit(page, "#round-1 form.release")

    # 7. Four tablets, not logged in, from the printed links.
    tablets = {}
    posted = {}  # table -> hand POSTs that reached the server
    for table in (1, 2, 3, 4):
        tablet_context = new_context(viewport=TABLET_LANDSCAPE, has_touch=True)
        _record_failures(tablet_context, failures, answered)
        posted[table] = []
        tablet_context.on(
            "requestfinished",
            lambda request, seen=posted[table]: (
                seen.append(urlsplit(request.url).path)
                if request.method == "POST" and re.search(r"/api/games/\d+/hands/$", request.url)
                else None
            ),
        )
        tablet = tablet_context.new_page()
        tablet.set_default_timeout(20_000)
        tablet.goto(printed[table])
        wait_ready(tablet)
        expect(tablet.locator("#table-app")).to_have_attribute(
            "data-game", str(_game_at(tournament, 1, table).pk)
        )
        tablet.evaluate("window.sameDocument = 'yes'")
        tablets[table] = (tablet_context, tablet)

    board = f"{console}events/{tournament.pk}/board/"
    for round_number in (1, 2, 3):
        if round_number > 1:
            page.goto(event_url)
            submit(page, "#draw")
            submit(page, f"#round-{round_number} form.release")
            for table, (_, tablet) in tablets.items():
                expect(tablet.locator("#table-app")).to_have_attribute(
                    "data-game", str(_game_at(tournament, round_number, table).pk), timeout=40_000
                )
                expect(tablet.locator("#entry .message")).to_have_text(
                    f"Round {round_number}: this table's new game is open."
                )
                assert tablet.evaluate("window.sameDocument") == "yes"  # no reload
        for table, (tablet_context, tablet) in tablets.items():
            game = _game_at(tournament, round_number, table)
            if (round_number, table) == (2, 4):  # this table keeps paper: the console's board
                page.goto(f"{board}?round=2")
                page.locator("#hand-form-4 summary").click()
                page.fill("#paper-4-0", "45")
                page.fill("#paper-4-1", "20")
                submit(page, "#paper-form-4")
                assert "Paper score recorded as hand 1." in page.inner_text(".messages")
                game.refresh_from_db()
                assert (game.status, game.totals, game.winner_side) == ("finished", [45, 20], 0)
                paper = Hand.objects.get(game=game)  # the organiser's entry is the acceptance
                assert (paper.entered_by, paper.accepted_by_organiser, paper.confirmed_by) == (
                    organiser,
                    organiser,
                    None,
                )
                expect(tablet.locator("#banner h2")).to_contain_text("win", timeout=30_000)
                continue
            hands = CLOSE_GAME if (round_number, table) == (3, 1) else [SWEEP, SWEEP]
            for number, (tricks, best) in enumerate(hands, start=1):
                offline = (round_number, table, number) == (1, 2, 1)
                if offline:
                    tablet_context.set_offline(True)
                _tap_hand(tablet, number, tricks, best, online=not offline)
                if offline:
                    expect(tablet.locator("#waiting-badge")).to_have_text("1 hand waiting")
                    assert Hand.objects.filter(game=game).count() == 0
                    tablet_context.set_offline(False)
                    expect(tablet.locator("#waiting-badge")).to_be_hidden(timeout=20_000)
                    assert posted[table].count(f"/api/games/{game.pk}/hands/") == 1
            game.refresh_from_db()
            assert (game.status, game.hands_played) == ("finished", len(hands)), (
                round_number,
                table,
            )
    games = [_game_at(tournament, number, table) for number in (1, 2, 3) for table in (1, 2, 3, 4)]
    assert [game.status for game in games] == ["finished"] * 12
    assert Hand.objects.filter(game__in=games).count() == 2 * 10 + 3 + 1
    # Every tapped hand was accepted by a player of the other side than its scorer's.
    tapped = Hand.objects.filter(game__in=games, accepted_by_organiser=None)
    assert tapped.count() == 23
    for hand in tapped:
        sides = dict(hand.game.seats.values_list("player_id", "side"))
        assert (sides[hand.scored_by_id], sides[hand.confirmed_by_id]) == (0, 1)
    # Each tapped hand reached the server exactly once (table 2's offline hand too), in order.
    for table in (1, 2, 3, 4):
        expected = []
        for number in (1, 2, 3):
            game = _game_at(tournament, number, table)
            expected += [f"/api/games/{game.pk}/hands/"] * Hand.objects.filter(
                game=game, accepted_by_organiser=None
            ).count()
        assert posted[table] == expected, table
    assert [len(posted[table]) for table in (1, 2, 3, 4)] == [7, 6, 6, 4]
    assert Match.objects.filter(tournament=tournament).count() == 12

    # 8. The night closes: the settle-up's first version.
    page.goto(f"{console}events/{tournament.pk}/results/")
    submit(page, "#close")
    assert "closed" in page.inner_text(".messages")
    assert list(
        Settlement.objects.filter(tournament=tournament).values_list("version", flat=True)
    ) == [1]

    # 9. Round 3, table 1's last hand was side 1's: corrected on the board after the close.
    page.goto(f"{board}?round=3")
    corrected = _game_at(tournament, 3, 1)
    seat_of = {side: corrected.side_of_seat.index(side) for side in (0, 1)}
    form = page.locator("#hand-form-1")
    form.locator("summary").click()
    form.locator("select[name=number]").select_option("3")
    dealer = Hand.objects.get(game=corrected, number=3).record["dealer"]
    form.locator("select[name=dealer]").select_option(str(dealer))
    form.locator("select[name=trump]").select_option("S")
    for trick, side in enumerate([1, 1, 1, 0, 0]):
        form.locator(f"select[name=trick_{trick}]").select_option(str(seat_of[side]))
    form.locator("select[name=best_trump_seat]").select_option(str(seat_of[1]))
    form.locator("select[name=best_trump_trick]").select_option("1")
    submit(page, "#hand-form-1 form.hand-form")
    confirm = page.locator("#confirm-correction")
    assert "The winner changes." in confirm.inner_text()
    assert "the settle-up gets a new version with the differences" in confirm.inner_text()
    submit(page, "#confirm-correction")
    assert "Hand 3 corrected." in page.inner_text(".messages")
    corrected.refresh_from_db()
    assert (corrected.totals, corrected.winner_side) == ([40, 50], 1)
    fixed = Hand.objects.get(game=corrected, number=3)
    assert (fixed.record["trick_winners"], fixed.accepted_by_organiser) == (
        [seat_of[1]] * 3 + [seat_of[0]] * 2,
        organiser,
    )

    # 10. The results page shows the new settle-up version.
    page.goto(f"{console}events/{tournament.pk}/results/")
    assert list(
        Settlement.objects.filter(tournament=tournament)
        .order_by("version")
        .values_list("version", flat=True)
    ) == [1, 2]
    assert page.inner_text("#settle-up-2 h2") == "Settle-up, version 2"
    # The stakes changed for the four players of the corrected game, and for them alone: the
    # stake of 0.50 went from side 0's pair to side 1's (one euro each way).
    stakes = {}
    for line in page.locator("#settle-up-2 .changes li").all_inner_texts():
        found = re.fullmatch(r"(.+), stakes: (.+) → (.+)", line)
        if found:
            stakes[found[1]] = _cents(found[3]) - _cents(found[2])
    players = dict(corrected.seats.values_list("player__display_name", "side"))
    assert stakes == {name: 100 if side == 1 else -100 for name, side in players.items()}

    assert failures == []
    assert 304 in answered and len(answered) > 100  # recorded: the tablets' polls among them
    assert outside_requests == []
