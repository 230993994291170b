"""``simulate_night`` through the REST API (Django's test client, in process): every table's
game is played to its end by computer players, every hand accepted by the server's engine."""

import pytest
from django.core.management import call_command

from clubs.models import Role
from games.models import Game
from tests.clubs.factories import make_club, make_membership, make_player, make_user
from web.simulate import InProcessApi, parse_format, simulate_night


@pytest.fixture
def scorer_club(db):
    club = make_club("night-club", default_game="45")
    scorer = make_user("night-scorer")
    make_membership(club, scorer, Role.SCOREKEEPER)
    for index in range(8):
        make_player(club, f"Player {index}")
    return club, scorer


def test_parse_format():
    assert parse_format("45-3") == ("45", 3, None)
    assert parse_format("45-2v2") == ("45", 4, [[0, 2], [1, 3]])
    assert parse_format("25-2v2v2") == ("25", 6, [[0, 3], [1, 4], [2, 5]])
    with pytest.raises(ValueError):
        parse_format("45")


@pytest.mark.parametrize(("game_format", "share"), [("45-3", 0.5), ("110-3", 0.0), ("25-2v2", 0.5)])
def test_a_night_of_tables_played_to_the_end(scorer_club, game_format, share):
    club, scorer = scorer_club
    report = simulate_night(
        api=InProcessApi(scorer),
        club_slug=club.slug,
        tables=2,
        game_format=game_format,
        trick_winner_share=share,
        seed=11,
    )
    assert report.refusals == []
    games = Game.objects.filter(pk__in=report.games)
    assert len(report.games) == 2 and report.finished == 2
    assert all(game.status == "finished" for game in games)
    assert sum(game.hands.count() for game in games) == report.hands


def test_the_command_in_process(scorer_club, capsys):
    club, scorer = scorer_club
    call_command(
        "simulate_night",
        "--club",
        club.slug,
        "--tables",
        "1",
        "--format",
        "45-3",
        "--in-process",
        "--username",
        scorer.username,
        "--seed",
        "3",
    )
    printed = capsys.readouterr().out
    assert printed.startswith("1 games (1 finished), ")
    assert ", 0 refused;" in printed
