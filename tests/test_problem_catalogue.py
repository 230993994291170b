"""One catalogue of problem codes (config.problem_codes): every code the source raises is in it,
each with a valid status, ``Problem`` takes its status from it, and docs/problems.md lists it."""

import ast
from http import HTTPStatus
from pathlib import Path

import pytest

from clubs import roster
from config.problem_codes import (
    DRAW,
    PRACTICE,
    PROBLEM_CODES,
    RULES_ENGINE,
    UnknownProblemCode,
    markdown_table,
    problem_status,
)
from config.problems import Problem, rules_error_to_problem
from rules_engine.errors import ERROR_CODES as RULES_ERROR_CODES
from rules_engine.errors import RulesError
from tests.clubs.factories import make_club, make_player
from tournaments.draw.errors import ERROR_CODES as DRAW_ERROR_CODES
from tournaments.draw.errors import DrawError

ROOT = Path(__file__).resolve().parent.parent
SKIPPED = {".venv", "node_modules", "migrations", ".git", "__pycache__"}
# Codes answered with a server-side status: the rest are all 4xx.
SERVER_SIDE = {"error": 500, "server_error": 500, "try_again": 503, "service_unavailable": 503}


def _sources():
    for path in sorted(ROOT.rglob("*.py")):
        if not SKIPPED.intersection(path.relative_to(ROOT).parts):
            yield path, ast.parse(path.read_bytes())


def _is_problem(node: ast.expr) -> bool:
    return (isinstance(node, ast.Name) and node.id == "Problem") or (
        isinstance(node, ast.Attribute) and node.attr == "Problem"
    )


def _problem_calls(tree: ast.AST):
    """``Problem(...)`` calls and ``super().__init__(...)`` in subclasses of ``Problem``."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and _is_problem(node.func):
            yield node
        if isinstance(node, ast.ClassDef) and any(_is_problem(base) for base in node.bases):
            for inner in ast.walk(node):
                if (
                    isinstance(inner, ast.Call)
                    and isinstance(inner.func, ast.Attribute)
                    and inner.func.attr == "__init__"
                ):
                    yield inner


def _literal(call: ast.Call, name: str):
    for keyword in call.keywords:
        if keyword.arg == name and isinstance(keyword.value, ast.Constant):
            return keyword.value.value
    return None


def test_every_code_given_to_problem_is_catalogued():
    missing = {}
    for path, tree in _sources():
        for call in _problem_calls(tree):
            code = _literal(call, "code")
            if isinstance(code, str) and code not in PROBLEM_CODES:
                missing[f"{path.relative_to(ROOT)}:{call.lineno}"] = code
    assert missing == {}


def test_every_field_level_code_of_the_service_is_catalogued():
    """The ``{"code": ...}`` entries the service builds for a problem's ``errors``."""
    missing = {}
    for path, tree in _sources():
        if path.relative_to(ROOT).parts[0] == "tests":
            continue
        for node in ast.walk(tree):
            if not isinstance(node, ast.Dict):
                continue
            for key, value in zip(node.keys, node.values, strict=True):
                if (
                    isinstance(key, ast.Constant)
                    and key.value == "code"
                    and isinstance(value, ast.Constant)
                    and value.value not in PROBLEM_CODES
                ):
                    missing[f"{path.relative_to(ROOT)}:{node.lineno}"] = value.value
    assert missing == {}


def test_the_engine_and_draw_codes_are_catalogued():
    assert set(RULES_ENGINE) == RULES_ERROR_CODES
    assert set(DRAW) == DRAW_ERROR_CODES


def test_every_catalogued_status_is_a_client_error_but_the_server_side_ones():
    for code, entry in PROBLEM_CODES.items():
        client_error = 400 <= HTTPStatus(entry.status) < 500
        assert client_error or SERVER_SIDE.get(code) == entry.status, code
        assert entry.meaning.strip(), code


def test_problem_takes_its_status_from_the_catalogue():
    assert Problem(code="game_over", detail="Over.").status_code == 409
    assert Problem(code="precondition_required").status_code == 428
    assert Problem(code="invalid").status_code == 400
    unknown = "no_such_code"  # a name, so that the scan above does not see it
    with pytest.raises(UnknownProblemCode):
        Problem(code=unknown, detail="?")
    with pytest.raises(UnknownProblemCode):
        problem_status(unknown)


def test_engine_and_draw_errors_answer_their_codes_status():
    rules = rules_error_to_problem(RulesError("game_over", "The game is over."))
    assert (rules.status_code, rules.code) == (409, "game_over")
    assert rules_error_to_problem(RulesError("invalid_card", "No.")).status_code == 400
    for code in DRAW:
        problem = rules_error_to_problem(DrawError(code, "No."))
        assert (problem.status_code, problem.code) == (DRAW[code].status, code)
        assert problem.errors == [{"code": code, "detail": "No.", "pointer": ""}]
    assert {code for code in DRAW if DRAW[code].status == 409} == {
        "round_incomplete",
        "tournament_complete",
        "match_decided",
    }


def test_practice_codes_keep_their_statuses():
    assert {code: PROBLEM_CODES[code].status for code in [*PRACTICE, "game_over"]} == {
        "not_your_turn": 409,
        "invalid_move": 400,
        "invalid_puzzle": 404,
        "game_over": 409,
    }


def test_the_docs_list_the_catalogue():
    """docs/problems.md holds ``python -m config.problem_codes``'s table between its markers."""
    text = (ROOT / "docs" / "problems.md").read_text()
    start, end = "<!-- problem-codes:start -->\n", "<!-- problem-codes:end -->"
    listed = text.split(start, 1)[1].split(end, 1)[0]
    assert listed.strip() == markdown_table().strip()
    for code in PROBLEM_CODES:
        assert f"| `{code}` |" in listed


def test_status_is_given_with_a_code_in_one_place_only():
    """``Problem(status=...)`` overrides the catalogue: kept for the one code answered with two
    statuses (clubs.services._field_problem, for the roster merge's 404 ``unknown_player``)."""
    overrides = [
        f"{path.relative_to(ROOT)}:{call.lineno}"
        for path, tree in _sources()
        for call in _problem_calls(tree)
        if any(keyword.arg == "status" for keyword in call.keywords)
    ]
    assert len(overrides) == 1, overrides


@pytest.mark.django_db
def test_the_one_override_a_player_of_another_club_to_merge_is_a_404():
    club, other = make_club("here"), make_club("there")
    keep = make_player(club, "Ann")
    with pytest.raises(Problem) as caught:
        roster.merge_players(club=club, keep=keep, merged=make_player(other, "Bob"))
    assert (caught.value.status_code, caught.value.code) == (404, "unknown_player")
    assert PROBLEM_CODES["unknown_player"].status == 400
