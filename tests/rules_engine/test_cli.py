"""``python -m rules_engine``: checking a file of hand records for a game."""

import io
import json
import subprocess
import sys
from pathlib import Path

import pytest

from rules_engine.__main__ import main
from tests.rules_engine.fixtures.examples import example_a

REPOSITORY = Path(__file__).resolve().parents[2]
SECOND = {
    "dealer": 1,
    "trump": "H",
    "trick_winners": [1, 1, 3, 0, 1],
    "best_trump": {"seat": 3, "trick": 2},
}
THIRD = {
    "dealer": 2,
    "trump": "C",
    "trick_winners": [0, 2, 2, 1, 0],
    "best_trump": {"seat": 0, "trick": 0},
}


def run(tmp_path, hands, *arguments, lines=False, game="45"):
    path = tmp_path / "hands.json"
    if lines:
        path.write_text("\n".join(json.dumps(hand) for hand in hands) + "\n")
    else:
        path.write_text(json.dumps(hands))
    output = io.StringIO()
    status = main(["--game", game, str(path), *arguments], output=output)
    return status, output.getvalue().splitlines()


def test_valid_file(tmp_path):
    status, lines = run(tmp_path, [example_a(), SECOND, THIRD], "--sides", "[[0,2],[1,3]]")
    assert status == 0
    assert lines == [
        "hand 1: played, dealer 0, trumps S, trick winners 2 1 0 0 2, best trump 5S by seat 2, "
        "points 0:25 1:5, totals 0:25 1:5",
        "hand 2: played, dealer 1, trumps H, trick winners 1 1 3 0 1, best trump by seat 3, "
        "points 0:5 1:25, totals 0:30 1:30",
        "hand 3: played, dealer 2, trumps C, trick winners 0 2 2 1 0, best trump by seat 0, "
        "points 0:25 1:5, totals 0:55 1:35",
        "final after 3 hands: totals 0:55 1:35; side 0 (seats 0, 2) won",
    ]


def test_json_lines_input_and_seat_count_from_the_deal(tmp_path):
    status, lines = run(tmp_path, [example_a()], lines=True, game="25")
    assert status == 0
    # Four seats counted from the deal, every seat its own side.
    assert lines == [
        "hand 1: played, dealer 0, trumps S, trick winners 2 1 0 0 2, best trump 5S by seat 2, "
        "points 0:10 1:5 2:10 3:0, totals 0:10 1:5 2:10 3:0",
        "final after 1 hand: totals 0:10 1:5 2:10 3:0; game in progress, seat 1 deals next",
    ]


def test_errors_are_printed_with_pointers_and_exit_1(tmp_path):
    bad_second = dict(SECOND, dealer=0)
    status, lines = run(
        tmp_path,
        [example_a(), bad_second, dict(SECOND)],
        "--seats",
        "4",
        "--sides",
        "[[0,2],[1,3]]",
    )
    assert status == 1
    assert lines[1] == (
        "hand 2: ERROR wrong_dealer at /dealer: seat 0 is recorded as dealer, but seat 1 deals "
        "hand 2"
    )
    # The bad hand was skipped; hand 3 is checked against the game after hand 1.
    assert lines[2].startswith("hand 3: played, dealer 1")
    assert lines[3] == "final after 2 hands: totals 0:30 1:30; game in progress, seat 2 deals next"


def test_json_output(tmp_path):
    bad = example_a()
    bad["tricks"][0][3] = "XX"
    status, lines = run(tmp_path, [bad, example_a()], "--sides", "[[0,2],[1,3]]", "--json")
    assert status == 1
    first, second, final = (json.loads(line) for line in lines)
    assert first == {
        "hand": 1,
        "errors": [
            {
                "code": "invalid_card",
                "detail": first["errors"][0]["detail"],
                "pointer": "/tricks/0/3",
            }
        ],
    }
    assert second["result"]["points"] == {"0": 25, "1": 5}
    assert second["totals"] == {"0": 25, "1": 5}
    assert second["game"]["next_dealer"] == 1
    assert final["final"]["hands_played"] == 1


def test_house_rules_and_first_dealer(tmp_path):
    hands = [dict(SECOND)]
    status, lines = run(
        tmp_path,
        hands,
        "--seats",
        "4",
        "--sides",
        "[[0,2],[1,3]]",
        "--rules",
        '{"best_trump_bonus": 10}',
        "--totals",
        "[10, 20]",
    )
    assert status == 0
    assert lines[0].endswith("points 0:5 1:30, totals 0:15 1:50")
    assert lines[1] == "final after 1 hand: totals 0:15 1:50; side 1 (seats 1, 3) won"


def test_bad_command_lines_exit_2(tmp_path, capsys):
    status, _ = run(tmp_path, [example_a()], "--sides", "[[0,1],[2,3]]")
    assert status == 2
    assert "invalid_seating" in capsys.readouterr().err
    status, _ = run(tmp_path, [SECOND])
    assert status == 2
    assert "give --seats" in capsys.readouterr().err
    with pytest.raises(SystemExit) as caught:
        main(["--game", "99", "x.json"])
    assert caught.value.code == 2


def test_unreadable_or_invalid_file(tmp_path):
    output = io.StringIO()
    assert main(["--game", "45", str(tmp_path / "missing.json")], output=output) == 1
    assert output.getvalue().startswith("file: ERROR invalid_record: cannot read")
    path = tmp_path / "broken.json"
    path.write_text("[{")
    output = io.StringIO()
    assert main(["--game", "45", str(path), "--seats", "4"], output=output) == 1
    assert "is not valid JSON" in output.getvalue()


def test_module_runs_as_a_program(tmp_path):
    path = tmp_path / "hands.json"
    path.write_text(json.dumps([example_a(), SECOND]))
    completed = subprocess.run(
        [
            sys.executable,
            "-m",
            "rules_engine",
            "--game",
            "45",
            str(path),
            "--sides",
            "[[0,2],[1,3]]",
        ],
        cwd=REPOSITORY,
        capture_output=True,
        text=True,
        check=False,
    )
    assert completed.returncode == 0, completed.stderr
    assert completed.stdout.splitlines()[-1] == (
        "final after 2 hands: totals 0:30 1:30; game in progress, seat 2 deals next"
    )
    path.write_text(json.dumps([example_a(), dict(SECOND, dealer=3)]))
    bad = subprocess.run(
        [sys.executable, "-m", "rules_engine", "--game", "25", str(path)],
        cwd=REPOSITORY,
        capture_output=True,
        text=True,
        check=False,
    )
    assert bad.returncode == 1
    assert "hand 2: ERROR wrong_dealer at /dealer" in bad.stdout


def test_jsonl_errors_and_single_record(tmp_path):
    path = tmp_path / "hands.jsonl"
    path.write_text(json.dumps(example_a()) + "\n{oops\n")
    output = io.StringIO()
    assert main(["--game", "25", str(path)], output=output) == 1
    assert output.getvalue() == (
        f"file: ERROR invalid_record: {path} line 2 is not a JSON hand record: "
        "Expecting property name enclosed in double quotes\n"
    )
    path.write_text(json.dumps(example_a(), indent=2))
    output = io.StringIO()
    assert main(["--game", "25", str(path)], output=output) == 0
    assert output.getvalue().splitlines()[0].startswith("hand 1: played, dealer 0")
    path.write_text("42")
    output = io.StringIO()
    assert main(["--game", "25", str(path), "--seats", "4"], output=output) == 1
