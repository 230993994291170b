"""The money in French, in Chromium: a club night's settle-up in the console, the balances page
and a player's balance chart, on the page tests' seed plus a night with a pot at the door.

What it does: Kilkenny opens a night at 5.00 with a 60/40 prize split; Pat pays the fee in cash
at the door, Ann owes hers; Pat beats Ann twice; the night closes and its settle-up is stored.
Then, with the browser asking for French:
- the organiser's night page shows the club paying Pat the first prize from the pot, Ann paying
  the club the fee she owes less her second prize, the prize rule in words and every amount as
  "6,00 €" (never "6.00");
- the balances page shows the season's settle-ups in French amounts;
- Pat's page draws the balance chart: its coordinates are plain numbers (a decimal comma would
  break the SVG and lose its zero line), the zero line is drawn inside the box, and the
  caption's amounts are French.

Screenshots go to ``JINK_SCREENSHOTS`` (``docs/screenshots`` refreshes the README's) or a
temporary folder.
"""

from __future__ import annotations

import re

from tests.browser import PHONE
from tests.helpers import log_in

NUMBER = re.compile(r"^-?\d+(?:\.\d+)?$")


def _night(seed):
    from settlements import services, settle_up
    from settlements.models import Settlement
    from tests.pages.seed import play_hands, start_game

    club = seed.clubs["kilkenny"]
    orla = seed.users["orla"]
    pat, ann = seed.players["Pat"], seed.players["Ann"]
    night = services.open_night(
        club=club, user=orla, name="Vendredi", entry_fee_minor=500, prize_split=[60, 40]
    )
    services.mark_entry_fee(user=orla, night_id=night.pk, player_id=pat.pk, status="cash")
    services.mark_entry_fee(user=orla, night_id=night.pk, player_id=ann.pk, status="owed")
    for _ in range(2):  # Pat takes every trick from nothing: a jink, double stakes (0.40)
        game = start_game(club, orla, "25", [pat, ann], stake_minor=20)
        play_hands(game, orla, [{"dealer": 0, "trump": "S", "trick_winners": [0] * 5}])
    services.close_night(night_id=night.pk, user=orla)
    if not Settlement.objects.filter(night=night).exists():  # the task runs on commit
        settle_up.settle_event(night_id=night.pk)
    return night


def _text(page, selector: str) -> str:
    return " ".join(page.inner_text(selector).split())


def test_the_settle_up_the_balances_and_the_chart_in_french(
    live_server, new_context, outside_requests, screenshots
):
    from tests.pages.seed import PASSWORD, seed_clubs

    seed = seed_clubs()
    orla = seed.users["orla"]
    orla.set_password(PASSWORD)
    orla.save()
    night = _night(seed)

    console = new_context(viewport=PHONE, locale="fr-FR").new_page()
    log_in(console, live_server.url, "orla", PASSWORD)
    console.goto(f"{live_server.url}/clubs/kilkenny/console/nights/{night.pk}/")
    settle_up = _text(console, "#settle-up-1")
    # The pot: 10,00 €; Pat first (6,00 €), Ann second (4,00 €) less the 5,00 € she owes.
    assert "Première place : 60 % de la cagnotte de 10,00 €, 6,00 € (Pat)" in settle_up
    assert "Deuxième place : 40 % de la cagnotte de 10,00 €, 4,00 € (Ann)" in settle_up
    transfers = [
        _text(console, f"#{element.get_attribute('id')} .who-pays")
        for element in console.query_selector_all("#settle-up-1 li.transfer")
    ]
    assert transfers == [
        "Le club paie Pat 6,00 €",
        "Ann paie le club 1,00 €",
        "Ann paie Pat 0,80 €",
    ]
    assert not re.search(r"\d\.\d\d", settle_up)  # no English decimal point anywhere
    assert "Droits d'inscription à l'entrée" in _text(console, "#fees")
    console.screenshot(path=str(screenshots / "settle-up-fr.png"), full_page=True)
    assert outside_requests == []

    page = new_context(viewport=PHONE, locale="fr-FR").new_page()
    log_in(page, live_server.url, "pat", PASSWORD)
    page.goto(f"{live_server.url}/clubs/kilkenny/balances/")
    season = [
        " ".join(row.inner_text().split())
        for row in page.query_selector_all("#season-table tbody tr")
    ]
    # Pat: stakes +0,80 €, prize 6,00 €, fee 5,00 € paid at the door: +1,80 €; 6,80 € still to
    # receive. Ann: -0,80 € + 4,00 € - 5,00 € = -1,80 €, all still to pay.
    assert season == [
        "Ann -1,80 € 0,00 € 0,00 € -1,80 €",
        "Pat (vous) +1,80 € 0,00 € 0,00 € +6,80 €",
    ]
    page.screenshot(path=str(screenshots / "balances-fr.png"), full_page=True)

    page.goto(f"{live_server.url}/clubs/kilkenny/players/{seed.players['Pat'].pk}/")
    zero = page.query_selector("#balance-chart line.zero")
    line = page.query_selector("#balance-chart polyline")
    y = zero.get_attribute("y1")
    assert NUMBER.match(y) and NUMBER.match(zero.get_attribute("y2"))
    assert 0 <= float(y) <= 120  # inside the 320 x 120 box
    points = [pair.split(",") for pair in line.get_attribute("points").split()]
    assert all(len(pair) == 2 and all(NUMBER.match(value) for value in pair) for pair in points)
    box = page.query_selector("#balance-chart").bounding_box()
    assert box["height"] > 0 and zero.bounding_box() is not None  # the zero line is drawn
    caption = _text(page, "#balance-summary")
    assert "€" in caption and not re.search(r"\d\.\d\d", caption)
    assert _text(page, "#season-money tbody") == "Vendredi +1,80 € 0,00 € 0,00 € +6,80 € +1,80 €"
    page.screenshot(path=str(screenshots / "player-balance-fr.png"), full_page=True)
    assert outside_requests == []
