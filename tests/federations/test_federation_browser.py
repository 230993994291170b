"""A county board from nothing to a public ranking, in Chromium against the live server.

What it does, on a 1024 x 768 screen (the organisers' pages are desk work) with two accounts, a
county board's secretary and the organiser of the club "North" (eight players):

- the secretary creates the federation from ``/federations/``, lands on its organisers' page,
  invites North by its web address, and adds North's organiser as a second organiser;
- North's organiser joins from the console's Federations box ("Join"), which then says the club
  is a member;
- the secretary adds the federation player "Mary Byrne" and links North's Mary to her ("Link
  now"): the players' table shows the link;
- North plays two nights (the computer players, through the games services) and the rankings
  are built; the public ranking page (signed out) shows its filters by game and club, filtered
  by North lists the ranked players, and Mary's history page draws her form as a chart.

Screenshots go to ``JINK_SCREENSHOTS`` (``docs/screenshots`` refreshes the README's
``federation-ranking.png``) or a temporary folder.
"""

from __future__ import annotations

from tests.browser import TABLET_LANDSCAPE
from tests.helpers import log_in, submit

PASSWORD = "county-board-2026"
NORTH_PLAYERS = [
    "Mary Byrne",
    "Tom Ryan",
    "Nora Walsh",
    "Mick Brennan",
    "Peggy Keane",
    "Jimmy Nolan",
    "Úna Dunne",
    "Frank Hogan",
]


def _account(username: str):
    from tests.clubs.factories import make_user

    user = make_user(username)
    user.set_password(PASSWORD)
    user.save()
    return user


def test_a_county_board_from_nothing_to_its_ranking(
    live_server, new_context, outside_requests, screenshots
):
    from clubs.models import Role
    from federations.models import Federation, FederationPlayer, PlayerLink
    from federations.services import create_player, link_player
    from rankings.build import rebuild_rankings
    from rankings.models import FederationRating
    from tests.clubs.factories import make_club, make_membership, make_player
    from web.demo_nights import build_demo_nights

    _account("secretary")
    north_organiser = _account("north-organiser")
    north = make_club("north", public=True, name="North")
    make_membership(north, north_organiser, Role.ORGANISER)
    players = {name: make_player(north, name) for name in NORTH_PLAYERS}
    base = live_server.url

    secretary = new_context(viewport=TABLET_LANDSCAPE).new_page()
    log_in(secretary, base, "secretary", PASSWORD)
    secretary.goto(f"{base}/federations/")
    secretary.fill("#federation-name", "Kilkenny County Board")
    secretary.fill("#federation-slug", "kk")
    secretary.fill("#federation-rate", "0.50")
    submit(secretary, "#new-federation")
    assert secretary.url == f"{base}/federations/kk/"
    assert secretary.inner_text("h1") == "Kilkenny County Board"
    board = Federation.objects.get(slug="kk")

    secretary.fill("#invite-club", "north")
    submit(secretary, "#invite")
    assert " ".join(secretary.inner_text("#members tbody").split()) == "North Invited Withdraw"
    secretary.fill("#organiser-identifier", "north-organiser")
    submit(secretary, "#add-organiser")
    assert [
        " ".join(row.split())
        for row in secretary.locator("#organisers tbody tr td:first-child").all_inner_texts()
    ] == ["secretary", "north-organiser"]

    club = new_context(viewport=TABLET_LANDSCAPE).new_page()
    log_in(club, base, "north-organiser", PASSWORD)
    club.goto(f"{base}/clubs/north/console/")
    assert "Kilkenny County Board invites the club to join." in club.inner_text("#federation-box")
    with club.expect_navigation():
        club.click("#federation-box button[value=accept]")
    assert club.url == f"{base}/clubs/north/console/"
    assert "Member of Kilkenny County Board." in club.inner_text("#federation-box")

    secretary.reload()
    assert " ".join(secretary.inner_text("#members tbody").split()) == "North Member"
    secretary.fill("#new-player-name", "Mary Byrne")
    submit(secretary, "#new-player")
    mary = FederationPlayer.objects.get(federation=board, display_name="Mary Byrne")
    secretary.select_option("#link-player", str(players["Mary Byrne"].pk))
    secretary.select_option("#link-person", str(mary.pk))
    with secretary.expect_navigation():
        secretary.click("#link button[value=link]")
    assert " ".join(secretary.inner_text("#players tbody").split()) == (
        "Mary Byrne Mary Byrne (North) Unlink"
    )
    assert PlayerLink.objects.current().get(federation=board).player == players["Mary Byrne"]

    # The rest of North linked (the services, as the form does), two nights played, ranked.
    for name, player in players.items():
        if name != "Mary Byrne":
            person = create_player(federation=board, user=None, display_name=name)
            link_player(federation=board, user=None, federation_player=person, player=player)
    build_demo_nights(north, user=north_organiser, nights=2)
    rebuild_rankings(federation_id=board.pk)
    ranked = {
        row.federation_player.display_name: row.federation_player_id
        for row in FederationRating.objects.filter(federation=board, games__gt=0).select_related(
            "federation_player"
        )
    }
    assert "Mary Byrne" in ranked and len(ranked) == 8

    public = new_context(viewport=TABLET_LANDSCAPE).new_page()
    public.goto(f"{base}/f/kk/rankings/")
    assert public.locator("#filter-game option").count() > 1
    assert public.locator("#filter-club option").all_inner_texts()[1:] == ["North"]
    public.select_option("#filter-club", "north")
    with public.expect_navigation():
        public.click("#ranking-filters button[type=submit]")
    assert public.url == f"{base}/f/kk/rankings/?game=&club=north"
    names = public.locator("#ranking tbody th a").all_inner_texts()
    assert sorted(names) == sorted(ranked)
    public.screenshot(path=str(screenshots / "federation-ranking.png"), full_page=True)

    with public.expect_navigation():
        public.click("#ranking tbody th a:text-is('Mary Byrne')")
    assert public.url == f"{base}/f/kk/rankings/players/{ranked['Mary Byrne']}/"
    assert public.locator("svg#form-chart").count() == 1
    assert public.locator("#form-summary").inner_text().startswith("Form ")
    assert public.locator("#history tbody tr").count() >= 1
    assert outside_requests == []
