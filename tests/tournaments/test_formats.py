"""The format policies: one per format, chosen once, and what progressing a match says it did.

What it checks: every format has its policy and the options each takes are the ones the API
documents (docs/tournaments.md); no module of ``tournaments`` outside ``tournaments/formats``
branches on the format; ``services.progress_match`` returns what it stored — the match decided,
the round drawn — and, run again, that it stored nothing (and announces nothing).

What it does not check: the draws and the advancing themselves (the ``test_api_*`` modules play
whole tournaments of every format).
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest
from django.test import TestCase

from tests.tournaments.play_helpers import build_event, current_game, win_match
from tournaments import configuration, services
from tournaments.formats import FORMATS, policy_for
from tournaments.models import Format, Tournament
from tournaments.progress import MatchProgress


def test_every_format_has_its_policy_and_the_options_it_takes():
    assert {name: policy.format for name, policy in FORMATS.items()} == {
        format_: format_ for format_ in Format
    }
    assert {option: set(formats) for option, formats in configuration.FORMAT_OPTIONS.items()} == {
        "advancing_per_table": {"knockout", "drive"},
        "third_place_match": {"knockout"},
        "sides_per_table": {"drive"},
        "movement": {"drive"},
        "min_table_size": {"swiss", "round_robin"},
        "round_count": {"swiss", "drive", "round_robin"},
        "bye_rule": {"swiss", "round_robin"},
    }
    assert {name: policy.accepts_late_entrants for name, policy in FORMATS.items()} == {
        "knockout": False,
        "round_robin": False,
        "swiss": True,
        "drive": True,
    }
    assert {name: policy.plans_a_bracket for name, policy in FORMATS.items()} == {
        "knockout": True,
        "round_robin": False,
        "swiss": False,
        "drive": False,
    }


def _format_branches(path: Path) -> list[str]:
    """``Format.<MEMBER>`` used anywhere (``Format.choices`` is fine), and comparisons of a
    ``.format`` attribute."""
    found = []
    for node in ast.walk(ast.parse(path.read_text())):
        if (
            isinstance(node, ast.Attribute)
            and isinstance(node.value, ast.Name)
            and node.value.id == "Format"
            and node.attr.isupper()
        ):
            found.append(f"{path.name}:{node.lineno}: Format.{node.attr}")
        if isinstance(node, ast.Compare) and any(
            isinstance(side, ast.Attribute) and side.attr == "format"
            for side in (node.left, *node.comparators)
        ):
            found.append(f"{path.name}:{node.lineno}: a comparison of .format")
    return found


def test_no_module_of_tournaments_outside_the_policies_branches_on_the_format():
    package = Path(__file__).resolve().parents[2] / "tournaments"
    modules = [
        path
        for path in package.rglob("*.py")
        if not path.is_relative_to(package / "formats")
        and not path.is_relative_to(package / "migrations")
        and path.name != "models.py"  # defines Format
    ]
    assert len(modules) > 20
    assert [branch for path in modules for branch in _format_branches(path)] == []
    assert _format_branches(package / "formats" / "knockout.py")  # the check does find them


def test_no_page_compares_the_format():
    """The pages ask the policy (``plans_a_bracket``) instead of comparing the format."""
    package = Path(__file__).resolve().parents[2] / "web"
    comparisons = [
        branch
        for path in package.rglob("*.py")
        for branch in _format_branches(path)
        if "comparison" in branch
    ]
    assert comparisons == []


@pytest.mark.django_db
def test_progressing_a_match_returns_the_round_it_drew_and_the_match_it_decided():
    event = build_event(players=4)
    tournament = event.create_tournament(
        name="Swiss",
        game="25",
        format="swiss",
        round_count=2,
        entrants=[{"player": player.pk} for player in event.players],
    )
    first, second = event.draw(tournament["id"])["matches"]
    win_match(event, tournament["id"], first["id"], 0)
    game = current_game(event, tournament["id"], second["id"])
    # The deciding hand, its on-commit callbacks (the progress task) not run.
    record = {
        "dealer": event.game(game["id"])["next_dealer"],
        "trump": "S",
        "trick_winners": [0, 0, 0, 0, 0],
    }
    response = event.client("scorekeeper").post(
        f"/api/games/{game['id']}/hands/", record, format="json"
    )
    assert response.status_code == 201

    with TestCase.captureOnCommitCallbacks(execute=False) as announced:
        progressed = services.progress_match(match_id=second["id"])
    assert progressed == MatchProgress(
        second["id"],
        "decided",
        placings_changed=True,
        round_drawn=2,
        stored=True,
        tournament_status="in_progress",
    )
    assert progressed.summary() == {
        "match": second["id"],
        "outcome": "decided",
        "changed": True,
        "tournament_status": "in_progress",
    }
    assert announced  # the standings' refresh and the change's subscribers
    assert Tournament.objects.get(pk=tournament["id"]).rounds.count() == 2

    with TestCase.captureOnCommitCallbacks(execute=False) as announced:
        again = services.progress_match(match_id=second["id"])
    assert again == MatchProgress(
        second["id"],
        "decided",
        placings_changed=False,
        round_drawn=None,
        stored=False,
        tournament_status="in_progress",
    )
    assert announced == []


@pytest.mark.django_db
def test_progressing_a_match_that_is_gone_says_so():
    assert services.progress_match(match_id=987654) == MatchProgress(987654, "missing")


@pytest.mark.django_db
def test_the_policy_is_chosen_by_the_tournaments_format():
    event = build_event(players=2)
    tournament = event.create_tournament(name="Cup", game="25", format="knockout")
    assert policy_for(Tournament.objects.get(pk=tournament["id"])) is FORMATS["knockout"]
