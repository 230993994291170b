"""Demo club nights: games the computer players really play, recorded through the games
services (card-by-card at some tables, trick-winner entries at others); a second run adds
nothing."""

from types import SimpleNamespace

import pytest

from clubs.models import Role
from games.models import Game, Hand
from tests.clubs.factories import make_club, make_membership, make_player, make_user
from web.demo_nights import NIGHT_TABLES, build_demo_nights, ensure_demo_nights


@pytest.mark.django_db
def test_demo_nights_are_played_and_recorded_once():
    club = make_club("demo-nights", default_game="45")
    scorer = make_user("demo-scorer")
    make_membership(club, scorer, Role.SCOREKEEPER)
    for index in range(8):
        make_player(club, f"Player {index}")
    demo = SimpleNamespace(club=club, users={"scorekeeper": scorer})
    ensure_demo_nights(demo, None)
    games = Game.objects.filter(club=club)
    assert games.count() == 3 * len(NIGHT_TABLES)
    assert all(game.status == "finished" for game in games)
    hands = Hand.objects.filter(game__club=club)
    card_by_card = hands.filter(record__has_key="deal")
    assert card_by_card.exists()
    assert hands.filter(record__has_key="trick_winners").exists()
    assert {hand.game.variant for hand in card_by_card} == {"45", "110"}
    ensure_demo_nights(demo, None)
    assert Game.objects.filter(club=club).count() == 3 * len(NIGHT_TABLES)
    # The same seed plays the same nights.
    again = make_club("demo-nights-2", default_game="45")
    for index in range(8):
        make_player(again, f"Player {index}")
    replayed = build_demo_nights(again, user=scorer, nights=1)
    first = list(games.order_by("id")[: len(NIGHT_TABLES)])
    assert [game.totals for game in replayed] == [game.totals for game in first]
