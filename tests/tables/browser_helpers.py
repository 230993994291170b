"""Helpers of the table app's browser tests: seeding a club, logging a context in, tapping.

What it does: ``seed()`` makes a club with a scorekeeper and an organiser (no password hashing:
contexts get a session cookie from ``force_login``) and the players the games need;
``logged_in(context, live_server, user)`` gives a browser context that session;
``open_score_page`` opens a game's score page in a fresh context, logged in, and waits till it is
ready; ``tap`` presses a score pad's button by its visible name, as a person would,
``enter_hand`` taps one whole hand and confirms it from the server's summary, and ``card`` and
``pick`` find and press cards (``"10S"``) by their names in card-by-card entry.
``stored_records(game)`` and ``engine_replay(game)`` read back what was stored and what the
rules engine makes of it; ``FIVE_HANDS`` are five hands of 45 (2 v 2) the tests tap.
``run_script(module_page, body, **values)`` runs a script on the ``module_page`` fixture's page
(tests/tables/conftest.py) with the score pad's modules' static URLs (``MODULE_URLS``) in scope,
to import each alone.

What it does not do: assert anything about the stored hands (the tests do, against the engine).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from django.conf import settings
from django.templatetags.static import static
from playwright.sync_api import expect

from clubs.models import Role
from games import services
from games.bridge import start_for
from games.models import Game, Hand
from tests.browser import TABLET_LANDSCAPE
from tests.clubs.factories import make_club, make_membership, make_player, make_user
from tests.helpers import logged_in_client
from web.scorepad.views import SCORE_MODULES

NAMES = ("Mary", "Seán", "Tom", "Úna")
MODULE_URLS = {name: static(f"table/{name}.js") for name in SCORE_MODULES}


@dataclass
class Seed:
    club: object
    scorekeeper: object
    organiser: object
    players: list

    def new_game(self, game: str, seats: int, **options):
        return services.create_game(
            club=self.club,
            user=self.organiser,
            game=game,
            seat_player_ids=[player.pk for player in self.players[:seats]],
            **options,
        )


def seed(slug: str = "the-crown") -> Seed:
    club = make_club(slug, name="The Crown")
    scorekeeper = make_user(f"{slug}-keeper")
    organiser = make_user(f"{slug}-organiser")
    make_membership(club, scorekeeper, Role.SCOREKEEPER)
    make_membership(club, organiser, Role.ORGANISER)
    players = [make_player(club, name) for name in NAMES]
    return Seed(club=club, scorekeeper=scorekeeper, organiser=organiser, players=players)


def logged_in(context, live_server, user):
    client = logged_in_client(user)
    cookie = client.cookies[settings.SESSION_COOKIE_NAME]
    context.add_cookies(
        [{"name": settings.SESSION_COOKIE_NAME, "value": cookie.value, "url": live_server.url}]
    )
    return context


def wait_ready(page) -> None:
    page.wait_for_selector("body[data-ready=true]")


def open_score_page(new_context, live_server, user, game, viewport=TABLET_LANDSCAPE):
    """A fresh context logged in as ``user`` and its page on ``game``'s score page, ready."""
    context = logged_in(new_context(viewport=viewport, has_touch=True), live_server, user)
    page = context.new_page()
    page.set_default_timeout(10_000)
    page.goto(f"{live_server.url}/clubs/{game.club.slug}/games/{game.pk}/score/")
    wait_ready(page)
    return context, page


def stored_records(game) -> list[dict]:
    """The records of ``game``'s stored hands, in order."""
    return list(Hand.objects.filter(game=game).order_by("number").values_list("record", flat=True))


def engine_replay(game: Game) -> tuple[list[tuple[int, ...]], object]:
    """The totals after each stored hand, as the engine computes them from the stored records,
    and the engine's state after the last."""
    state = start_for(game)  # the engine's state before hand 1 (the game's frozen rules)
    totals = []
    for hand in Hand.objects.filter(game=game).order_by("number"):
        _, state = state.record(hand.record)
        totals.append(tuple(state.totals))
    return totals, state


# Five hands of 45 (2 v 2): trumps, each trick's taker, the best trump (name, 1-based trick).
FIVE_HANDS = [
    ("Spades", ["Mary", "Seán", "Mary", "Seán", "Mary"], ("Mary", 1)),
    ("Hearts", ["Seán", "Seán", "Tom", "Úna", "Seán"], ("Úna", 4)),
    ("Clubs", ["Tom", "Tom", "Tom", "Seán", "Seán"], ("Seán", 4)),
    ("Diamonds", ["Úna", "Mary", "Úna", "Mary", "Úna"], ("Mary", 2)),
    ("Spades", ["Mary", "Mary", "Mary", "Mary", "Seán"], ("Seán", 5)),
]

_CARD_RANKS = {"A": "ace", "K": "king", "Q": "queen", "J": "jack"}
_CARD_SUITS = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}


def card(page, code):
    """The button of the card ``code`` ("KS", "10H") in card-by-card entry."""
    rank = _CARD_RANKS.get(code[:-1], code[:-1])
    return page.get_by_role("button", name=f"{rank} of {_CARD_SUITS[code[-1]]}", exact=True)


def pick(page, *codes):
    """Press the cards ``codes``, in order."""
    for code in codes:
        card(page, code).click()


def tap(page, name: str) -> None:
    page.get_by_role("button", name=name, exact=True).click()


def enter_hand(
    page,
    *,
    number: int,
    trump: str | None,
    winners: list[str],
    best: tuple[str, int] | None = None,
    calls: list[str] = (),
    online: bool = True,
    accept: str | None = None,
) -> None:
    """Tap one hand: the auction's calls, trumps, each trick's taker, the best trump (name and
    1-based trick, skipped where the page pre-filled it), then confirm from the summary (or, in
    a club with ``confirm_hands``, the button of the player ``accept`` who accepts it)."""
    for call in calls:
        tap(page, call)
    if trump is not None:
        tap(page, trump)
    for name in winners:
        page.locator(".seat-buttons button:enabled", has_text=name).first.wait_for()
        tap(page, name)
    title = page.locator(".step-title")
    expect(title).not_to_have_text(re.compile(r"^Trick \d"))
    if best is not None:
        seat_name, trick = best
        if title.inner_text() == "Who played the best trump?":
            tap(page, seat_name)
            expect(title).not_to_have_text("Who played the best trump?")
        if title.inner_text() == f"In which trick did {seat_name} play it?":
            tap(page, f"Trick {trick}")
    button = f"{accept} accepts hand {number}" if accept else f"Confirm hand {number}"
    page.get_by_role("button", name=button).wait_for()
    if online:
        page.locator(".verdict", has_text="new totals").wait_for()
    tap(page, button)
    if online:  # the outbox has sent it: the hand is listed as stored
        page.locator(f"#hands-body tr[data-number='{number}']:not(.waiting)").wait_for()
    page.locator("#dealer", has_text=f"Hand {number + 1}:").or_(
        page.locator("#banner h2")
    ).first.wait_for()


def run_script(module_page, body: str, **values):
    """Run ``body`` (the inside of an async function) with ``urls`` and ``values`` in scope."""
    names = ["urls", *values]
    script = f"async ([{', '.join(names)}]) => {{ {body} }}"
    return module_page.page.evaluate(script, [MODULE_URLS, *values.values()])
