"""No source module over 500 lines (issue 23): a module that long holds more than one job.

What it checks: every tracked project source file, the Python modules (``*.py``, migrations
aside: Django writes them) and the front end's scripts (``*.js`` under ``static/``), has at most
``MAX_LINES`` lines; the failure lists each offender with its line count. Tests are modules too.

Which files: ``git ls-files`` (tracked files only, so nothing a developer has lying around);
outside a git checkout, a walk of the tree that skips ``.venv``, ``node_modules``, hidden folders
and ``migrations``.

What it does not do: judge the shape of a module under the limit (the review does).
"""

from __future__ import annotations

import os
import subprocess
from pathlib import Path, PurePosixPath

ROOT = Path(__file__).resolve().parent.parent
MAX_LINES = 500
SKIPPED_FOLDERS = frozenset({".venv", "venv", "node_modules", "migrations", "__pycache__"})


def _candidates() -> list[str]:
    """Every tracked file, relative to the project's root, with ``/`` separators."""
    try:
        listed = subprocess.run(
            ["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, check=True, text=True
        ).stdout
    except (OSError, subprocess.CalledProcessError):
        found = []
        for folder, folders, files in os.walk(ROOT):
            folders[:] = [
                name for name in folders if name not in SKIPPED_FOLDERS and not name.startswith(".")
            ]
            relative = Path(folder).relative_to(ROOT)
            found.extend((relative / name).as_posix() for name in files)
        return found
    return [path for path in listed.split("\0") if path]


def is_source(path: str) -> bool:
    """A project Python module (migrations aside) or a script under ``static/``."""
    parts = PurePosixPath(path).parts
    if SKIPPED_FOLDERS & set(parts[:-1]):
        return False
    if path.endswith(".py"):
        return True
    return path.endswith(".js") and "static" in parts[:-1]


def source_files() -> list[str]:
    return sorted(path for path in _candidates() if is_source(path) and (ROOT / path).is_file())


def line_count(path: str) -> int:
    return len((ROOT / path).read_text(encoding="utf-8").splitlines())


def test_the_selection_is_the_projects_source():
    files = source_files()
    assert "manage.py" in files and "tests/conftest.py" in files
    assert "static/table/draft.js" in files
    assert not [path for path in files if "/migrations/" in path or path.startswith(".venv/")]
    assert is_source("games/services.py") and is_source("static/js/pages/live.js")
    assert not is_source("games/migrations/0001_initial.py")
    assert not is_source(".venv/lib/python3.12/site-packages/django/__init__.py")
    assert not is_source("node_modules/x/static/y.js") and not is_source("docs/notes.js")


def test_no_source_module_is_over_500_lines():
    offenders = [
        f"{path}: {count} lines"
        for path in source_files()
        if (count := line_count(path)) > MAX_LINES
    ]
    assert offenders == [], (
        f"source modules over {MAX_LINES} lines (split them by what they do):\n"
        + "\n".join(offenders)
    )
