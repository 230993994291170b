"""Who may open which page: the API's policy, page by page.

A club's pages are for its members; anybody may read a club with public standings; a club the
user may not read, or an object of another club addressed under this club's slug, is a 404 (its
existence is not revealed). Tournaments follow ``can_read_tournament`` (public ones for anybody,
others for members), money (balances) is for members only even in a public club: a visitor is
sent to the login page, a logged-in outsider gets 403.

Users (tests/pages/seed.py): ``None`` anonymous; ``olive`` no role anywhere; ``pat`` player of
Kilkenny (private); ``orla``/``sean`` organiser/scorekeeper of Kilkenny; ``cara`` player of Callan
(public).
"""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.django_db

KILKENNY_PAGES = {
    "overview": lambda seed: "/clubs/kilkenny/",
    "game": lambda seed: f"/clubs/kilkenny/games/{seed.games['twenty_five'].pk}/",
    "tournament": lambda seed: f"/clubs/kilkenny/tournaments/{seed.tournaments['cup'].pk}/",
    "balances": lambda seed: "/clubs/kilkenny/balances/",
}
CALLAN_PAGES = {
    "overview": lambda seed: "/clubs/callan/",
    "game": lambda seed: f"/clubs/callan/games/{seed.games['callan'].pk}/",
    "public tournament": lambda seed: (
        f"/clubs/callan/tournaments/{seed.tournaments['open_drive'].pk}/"
    ),
}


@pytest.mark.parametrize("page", sorted(KILKENNY_PAGES))
@pytest.mark.parametrize(
    ("user", "status"),
    [(None, 404), ("olive", 404), ("cara", 404), ("pat", 200), ("sean", 200), ("orla", 200)],
)
def test_a_private_clubs_pages_are_for_its_members_only(seed, client_for, page, user, status):
    response = client_for(user).get(KILKENNY_PAGES[page](seed))

    assert response.status_code == status


@pytest.mark.parametrize("page", sorted(CALLAN_PAGES))
@pytest.mark.parametrize("user", [None, "olive", "pat", "cara"])
def test_a_public_clubs_pages_are_for_anybody(seed, client_for, page, user):
    assert client_for(user).get(CALLAN_PAGES[page](seed)).status_code == 200


@pytest.mark.parametrize(
    ("user", "status"), [(None, 404), ("olive", 404), ("pat", 404), ("cara", 200)]
)
def test_a_private_tournament_of_a_public_club_is_for_its_members_only(
    seed, client_for, user, status
):
    url = f"/clubs/callan/tournaments/{seed.tournaments['members_night'].pk}/"

    assert client_for(user).get(url).status_code == status


def test_a_public_clubs_balances_send_a_visitor_to_log_in(seed, client_for):
    response = client_for(None).get("/clubs/callan/balances/")

    assert response.status_code == 302
    assert response["Location"] == "/accounts/login/?next=/clubs/callan/balances/"


@pytest.mark.parametrize(("user", "status"), [("olive", 403), ("pat", 403), ("cara", 200)])
def test_a_public_clubs_balances_are_for_its_members_only(seed, client_for, user, status):
    assert client_for(user).get("/clubs/callan/balances/").status_code == status


@pytest.mark.parametrize(
    "url",
    [
        # Another club's game or tournament under a club the user may read.
        lambda seed: f"/clubs/callan/games/{seed.games['twenty_five'].pk}/",
        lambda seed: f"/clubs/callan/tournaments/{seed.tournaments['cup'].pk}/",
        lambda seed: f"/clubs/kilkenny/games/{seed.games['callan'].pk}/",
        lambda seed: f"/clubs/kilkenny/tournaments/{seed.tournaments['open_drive'].pk}/",
        # Nothing there at all.
        lambda seed: "/clubs/no-such-club/",
        lambda seed: "/clubs/no-such-club/balances/",
        lambda seed: "/clubs/kilkenny/games/999999/",
        lambda seed: "/clubs/kilkenny/tournaments/999999/",
    ],
    ids=[
        "game-of-kilkenny-under-callan",
        "tournament-of-kilkenny-under-callan",
        "game-of-callan-under-kilkenny",
        "tournament-of-callan-under-kilkenny",
        "unknown-club",
        "unknown-club-balances",
        "unknown-game",
        "unknown-tournament",
    ],
)
def test_an_object_of_another_club_or_of_none_is_not_found(seed, client_for, url):
    # Pat is a member of Kilkenny and may read Callan (public): the 404 is about the address.
    assert client_for("pat").get(url(seed)).status_code == 404


@pytest.mark.parametrize("page", sorted(KILKENNY_PAGES))
def test_pages_are_read_only(seed, client_for, page):
    client = client_for("orla")
    url = KILKENNY_PAGES[page](seed)

    assert client.post(url).status_code == 405
    assert client.head(url).status_code == 200
