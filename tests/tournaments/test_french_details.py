"""The tournament API's refusals that name entrants or seatings read as whole French sentences.

``tournaments.configuration`` builds these details from gettext templates with named
placeholders (never English glued around a translation); with ``Accept-Language: fr`` each is
French from end to end, the engine's own reason inside it included.
"""

from __future__ import annotations

import pytest

from tests.clubs.factories import make_team
from tests.tournaments.play_helpers import build_event

pytestmark = pytest.mark.django_db

FRENCH = {"Accept-Language": "fr"}


def refused_in_french(event, method, url, body) -> dict:
    response = event.call(method, url, body, **FRENCH)
    assert response.status_code == 400, response.content
    return response.json()


def create_url(event) -> str:
    return f"/api/clubs/{event.club.slug}/tournaments/"


def test_a_player_already_entered_alone_or_in_a_team_in_french():
    event = build_event(players=3)
    pair = make_team(event.club, "La paire", event.players[:2])
    other = make_team(event.club, "Les autres", event.players[1:3])
    alone = event.create_tournament(
        name="Seuls", game="25", format="knockout", entrants=[{"player": event.players[0].pk}]
    )
    paired = event.create_tournament(
        name="Paires",
        game="25",
        format="knockout",
        entrant_kind="team",
        entrants=[{"team": pair.pk}],
    )

    team_after_player = refused_in_french(
        event,
        "post",
        f"/api/tournaments/{alone['id']}/entrants/",
        {"entrants": [{"team": pair.pk}]},
    )
    player_after_team = refused_in_french(
        event,
        "post",
        f"/api/tournaments/{paired['id']}/entrants/",
        {"entrants": [{"player": event.players[1].pk}]},
    )
    team_after_team = refused_in_french(
        event,
        "post",
        f"/api/tournaments/{paired['id']}/entrants/",
        {"entrants": [{"team": other.pk}]},
    )
    player_twice = refused_in_french(
        event,
        "post",
        f"/api/tournaments/{alone['id']}/entrants/",
        {"entrants": [{"player": event.players[0].pk}]},
    )

    assert team_after_player["detail"] == "Player 01 de La paire est déjà inscrit seul."
    assert player_after_team["detail"] == "Player 02 est déjà inscrit dans l'équipe La paire."
    assert team_after_team["detail"] == (
        "Player 02 de Les autres est déjà inscrit dans l'équipe La paire."
    )
    assert player_twice["detail"] == "Player 01 est déjà inscrit seul."


def test_a_seating_the_game_refuses_in_french():
    event = build_event(players=4, teams=3, team_size=3)
    url = create_url(event)

    tables_of_two = refused_in_french(
        event, "post", url, {"name": "A", "game": "45", "format": "knockout"}
    )
    short_tables = refused_in_french(
        event,
        "post",
        url,
        {
            "name": "A",
            "game": "45",
            "format": "swiss",
            "round_count": 2,
            "table_size": 3,
            "min_table_size": 2,
        },
    )
    teams_of_three = refused_in_french(
        event,
        "post",
        url,
        {
            "name": "A",
            "game": "45",
            "format": "knockout",
            "entrant_kind": "team",
            "table_size": 3,
            "entrants": [{"team": team.pk} for team in event.teams],
        },
    )

    formations = "le jeu 45 se joue 1 c. 1 c. 1 (3 places), 2 c. 2 (4 places), 3 c. 3 (6 places)"
    assert tables_of_two["detail"] == (
        f"45 ne peut pas se jouer à des tables de 2 : {formations} ; reçu 2 places en 2 camps"
    )
    assert short_tables["errors"][0]["pointer"] == "/min_table_size"
    assert short_tables["detail"] == tables_of_two["detail"]
    assert teams_of_three["detail"] == (
        "45 ne peut pas se jouer par équipes de 3 à des tables de 3 : "
        f"{formations} ; reçu 9 places en 3 camps"
    )


def test_several_problems_are_counted_in_french():
    event = build_event(players=2)
    problem = refused_in_french(
        event,
        "post",
        create_url(event),
        {
            "name": "A",
            "game": "25",
            "format": "knockout",
            "round_count": 2,
            "tie_breaks": ["x"],
        },
    )
    assert problem["detail"] == (
        "2 problèmes : round_count ne s'applique pas à un tournoi knockout.; 'x' n'est pas un "
        "critère de départage ; choisissez parmi match_points, match_wins, games_won, points_for, "
        "points_difference, tricks_won, head_to_head, buchholz, lots."
    )
