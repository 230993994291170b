"""axe-core over every page type, in both languages, on a phone and a desktop; 200% zoom.

What it does, on the page tests' seed plus a night of sixteen (tests/pages/seed_night.py), in
Debian's Chromium through the shared fixtures: opens one page of every kind — the login page,
the home page, my clubs, a club, the event pages (a drive, a knockout's bracket), a game in
progress, a player, who owes whom, the practice menu, table and a shared puzzle, the error pages
(404, 403) and, as an organiser, the console's pages and the table app — in English and in
French (one test each, chosen with the language switch), at 390 x 844 (a phone) and 1280 x 800
(a desktop), and checks that axe-core finds no violation at all (whatever its impact) and that
the players' pages never scroll sideways and, on the phone, have no touch target under 44 px.
Then each players' page at 200% zoom (a 1280 px screen zoomed: 640 CSS px across) does not
scroll sideways and keeps its header's links in view.

Some pages on the phone are saved to the screenshots folder (``JINK_SCREENSHOTS``; the README's
pictures: ``SCREENSHOTS``).

What it does not do: judge wording or layout beyond what axe-core and these checks measure.
"""

from __future__ import annotations

import pytest

from tests.browser import PHONE
from tests.helpers import log_in
from tests.pages.axe import sideways, small_targets, violations, with_axe
from tests.pages.seed import PASSWORD

DESKTOP = {"width": 1280, "height": 800}
# The phone screenshots kept in docs/screenshots (README): (page, language) -> file.
SCREENSHOTS = {
    ("home", "en"): "home-page.png",
    ("my clubs", "en"): "my-clubs-page.png",
    ("player", "en"): "player-page.png",
    ("balances", "en"): "balances-page.png",
    ("not found", "en"): "not-found-page.png",
    ("club", "fr"): "club-in-french-page.png",
    ("bracket", "fr"): "event-in-french-page.png",
    ("game in progress", "fr"): "game-in-french-page.png",
    ("player", "fr"): "player-in-french-page.png",
}
ZOOMED = {"width": 640, "height": 400}  # 1280 x 800 at 200%


def players_pages(seed, practice_game) -> dict[str, str]:
    """One page of each kind a player opens (the puzzle's address comes from the table)."""
    tournaments, players = seed.tournaments, seed.players
    return {
        "home": "/",
        "my clubs": "/me/",
        "club": "/clubs/kilkenny/",
        "drive": f"/clubs/kilkenny/tournaments/{tournaments['drive'].pk}/",
        "bracket": f"/clubs/kilkenny/tournaments/{tournaments['knockout'].pk}/",
        "game in progress": f"/clubs/kilkenny/games/{seed.extra['drive_game'].pk}/",
        "player": f"/clubs/kilkenny/players/{players['Ann'].pk}/",
        "balances": "/clubs/kilkenny/balances/",
        "practice": "/practice/",
        "practice table": f"/practice/{practice_game.pk}/?hint=1",
        "not found": "/clubs/kilkenny/nothing-here/",
        "not allowed": "/clubs/callan/balances/",
    }


def organisers_pages(seed) -> dict[str, str]:
    drive, drive_game = seed.tournaments["drive"], seed.extra["drive_game"]
    return {
        "console": "/clubs/kilkenny/console/",
        "console event": f"/clubs/kilkenny/console/events/{drive.pk}/",
        "console board": f"/clubs/kilkenny/console/events/{drive.pk}/board/",
        "table links": "/clubs/kilkenny/table-links/",
        "table app": f"/clubs/kilkenny/games/{drive_game.pk}/score/",
        "table code": "/t/",
    }


def choose_language(page, live_server, language: str) -> None:
    page.goto(f"{live_server.url}/")
    page.select_option("#language-choice", language)
    with page.expect_navigation():
        page.click(".language button")


def check(page, url: str, *, players_page: bool, phone: bool) -> dict:
    """axe-core's violations; for a players' page also how far it scrolls sideways and, on a
    phone, its touch targets under 44 px (the console and the table app have their own
    layout rules and tests)."""
    page.goto(url)
    page.wait_for_load_state("load")
    found = {"axe": violations(page)}
    if players_page:
        found["sideways"] = sideways(page)
        if phone:
            found["targets"] = small_targets(page)
    return {key: value for key, value in found.items() if value}


def seed_everything():
    from games.models import Game, GameStatus
    from practice.services import start_practice_game
    from tests.pages.seed import seed_clubs
    from tests.pages.seed_night import seed_night
    from tests.practice.helpers import DEAL, set_deal

    seed = seed_night(seed_clubs())
    orla = seed.users["orla"]
    orla.set_password(PASSWORD)
    orla.save()
    seed.extra["drive_game"] = (
        Game.objects.filter(
            match_link__match__tournament=seed.tournaments["drive"], status=GameStatus.IN_PROGRESS
        )
        .order_by("pk")
        .first()
    )
    practice_game = start_practice_game(player=seed.users["pat"], session_key="", game="45")
    set_deal(practice_game, DEAL, "4S", dealer=2)  # the person leads: the puzzle link shows
    return seed, practice_game


@pytest.mark.parametrize("language", ["en", "fr"])
def test_every_page_type_passes_axe_on_a_phone_and_a_desktop(
    language, live_server, new_context, outside_requests, screenshots
):
    seed, practice_game = seed_everything()
    problems = {}
    anonymous = new_context(viewport=PHONE, is_mobile=True, has_touch=True).new_page()
    choose_language(anonymous, live_server, language)
    problems.update(
        {
            f"login ({language}, phone)": found
            for found in [
                check(
                    anonymous, f"{live_server.url}/accounts/login/", players_page=True, phone=True
                )
            ]
            if found
        }
    )
    if language == "en":
        anonymous.screenshot(path=str(screenshots / "login-page.png"), full_page=True)
    for who, pages, players in (
        ("pat", players_pages(seed, practice_game), True),
        ("orla", organisers_pages(seed), False),
    ):
        phone = with_axe(new_context(viewport=PHONE, is_mobile=True, has_touch=True)).new_page()
        desktop = with_axe(new_context(viewport=DESKTOP)).new_page()
        for page in (phone, desktop):
            log_in(page, live_server.url, who, PASSWORD)
            choose_language(page, live_server, language)
        if who == "pat":
            phone.goto(f"{live_server.url}{pages['practice table']}")
            pages["puzzle"] = phone.get_attribute("#practice-puzzle", "href").removeprefix(
                live_server.url
            )
        for name, path in pages.items():
            for size, page in (("phone", phone), ("desktop", desktop)):
                found = check(
                    page, f"{live_server.url}{path}", players_page=players, phone=size == "phone"
                )
                if found:
                    problems[f"{name} ({language}, {size})"] = found
                shot = SCREENSHOTS.get((name, language))
                if size == "phone" and shot:
                    page.screenshot(path=str(screenshots / shot), full_page=True)
        assert phone.get_attribute("html", "lang") == language
    if language == "en":
        problems.update(zoomed_problems(new_context, live_server, seed, practice_game))
    assert problems == {}
    assert outside_requests == []


def zoomed_problems(new_context, live_server, seed, practice_game) -> dict:
    """Each players' page at 200% zoom: no sideways scroll, the header's links all in view."""
    page = new_context(viewport=ZOOMED, device_scale_factor=2).new_page()
    log_in(page, live_server.url, "pat", PASSWORD)
    problems = {}
    for name, path in players_pages(seed, practice_game).items():
        page.goto(f"{live_server.url}{path}")
        hidden = page.evaluate(
            """() => Array.from(document.querySelectorAll('.site-header a, .site-header button'))
                 .filter(element => element.getBoundingClientRect().right > window.innerWidth)
                 .map(element => element.textContent.trim())"""
        )
        if sideways(page) or hidden:
            problems[f"{name} (200%)"] = {"sideways": sideways(page), "header cut": hidden}
    return problems
