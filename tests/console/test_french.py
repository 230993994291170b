"""The console's refusals in French: the services' details read as French sentences beside their
field, as the organiser sees them (``Accept-Language: fr``)."""

from __future__ import annotations

import pytest

from tests.helpers import logged_in_client
from tests.tournaments.play_helpers import build_event

pytestmark = pytest.mark.django_db

FRENCH = {"HTTP_ACCEPT_LANGUAGE": "fr"}


def test_a_prize_split_over_100_and_a_draw_with_nobody_checked_in_in_french():
    event = build_event(players=4)
    client = logged_in_client(event.world.users["organiser"])
    console = f"/clubs/{event.club.slug}/console"
    tournament = event.create_tournament(
        name="Vendredi",
        game="25",
        format="swiss",
        round_count=1,
        entrants=[{"player": player.pk} for player in event.players[:4]],
    )

    split = client.post(
        f"{console}/events/{tournament['id']}/results/",
        {"action": "prize_split", "prize_split": "70, 40"},
        **FRENCH,
    )
    nobody = client.post(
        f"{console}/events/{tournament['id']}/", {"action": "check_in"}, **FRENCH
    )  # nobody ticked: nobody is here
    draw = client.post(f"{console}/events/{tournament['id']}/", {"action": "draw"}, **FRENCH)

    assert split.status_code == 400
    assert "Les pourcentages font 110 au total, plus de 100." in split.content.decode()
    assert nobody.status_code == 302
    assert draw.status_code == 400
    assert "Personne n&#x27;est pointé ; cochez qui est là avant le tirage." in (
        draw.content.decode()
    )
