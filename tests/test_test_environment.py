"""tests/conftest.py: without PostgreSQL or Redis, their tests skip, and fail when CI=true.

Each test runs pytest again in a fresh process on four known tests, with PostgreSQL and Redis
pointed at ports nobody listens on, and reads the outcome of each test from a JUnit XML report:
a test that needs nothing passes, a database test, a worker test and a test needing both are
skipped with the reason (or errors at setup when ``CI=true``), and the report header names the
database and the broker that ran (here: none, and why).
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import xml.etree.ElementTree as ElementTree
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
NEEDS_NOTHING = "tests/test_celery.py::test_project_tasks_are_registered"
NEEDS_DATABASE = "tests/test_home.py::test_home_page_links_to_the_docs_and_login_only"
NEEDS_REDIS = "tests/test_celery.py::test_ping_task_goes_through_a_real_worker_on_redis"
NEEDS_BOTH = "tests/test_celery.py::test_worker_sees_what_the_test_committed"


def closed_port() -> int:
    """A port nothing listens on: bound by the system for a moment, then released."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def run_pytest(tmp_path: Path, *, ci: bool) -> tuple[int, dict[str, tuple[str, str]], str, str]:
    """Pytest's exit status, (outcome, message) per test name, and the two expected reasons."""
    database_port, redis_port = closed_port(), closed_port()
    environment = {
        key: value
        for key, value in os.environ.items()
        # The running conftest set these for this process; the new run must choose afresh.
        if key not in ("DJANGO_SETTINGS_MODULE", "DATABASE_URL", "JINK_TEST_REDIS_URL", "CI")
    }
    environment["DATABASE_URL"] = f"postgres://postgres@127.0.0.1:{database_port}/jink"
    environment["JINK_TEST_REDIS_URL"] = f"redis://127.0.0.1:{redis_port}/15"
    if ci:
        environment["CI"] = "true"
    report = tmp_path / "report.xml"
    result = subprocess.run(
        [sys.executable, "-m", "pytest", "-n", "0", f"--junitxml={report}", "-rs"]
        + [NEEDS_NOTHING, NEEDS_DATABASE, NEEDS_REDIS, NEEDS_BOTH],
        cwd=ROOT,
        env=environment,
        capture_output=True,
        text=True,
        timeout=300,
    )
    outcomes = {}
    for case in ElementTree.parse(report).iter("testcase"):
        children = [child for child in case if child.tag in ("skipped", "error", "failure")]
        if children:
            outcomes[case.get("name")] = (children[0].tag, children[0].get("message", ""))
        else:
            outcomes[case.get("name")] = ("passed", "")
    header = (
        f"database: none (PostgreSQL is not reachable at 127.0.0.1:{database_port})\n"
        f"broker: none (Redis is not reachable at 127.0.0.1:{redis_port}) "
        "(celery_worker tests; other tests run tasks in process)"
    )
    assert header in result.stdout, result.stdout + result.stderr
    database = f"PostgreSQL is not reachable at 127.0.0.1:{database_port}"
    redis = f"Redis is not reachable at 127.0.0.1:{redis_port}"
    return result.returncode, outcomes, database, redis


def name_of(test_id: str) -> str:
    return test_id.split("::")[1]


def test_without_the_services_their_tests_are_skipped_with_the_reason(tmp_path):
    returncode, outcomes, database, redis = run_pytest(tmp_path, ci=False)

    assert returncode == 0
    suffix = " (with CI=true this fails)"
    assert outcomes == {
        name_of(NEEDS_NOTHING): ("passed", ""),
        name_of(NEEDS_DATABASE): ("skipped", database + suffix),
        name_of(NEEDS_REDIS): ("skipped", redis + suffix),
        name_of(NEEDS_BOTH): ("skipped", f"{database}; {redis}{suffix}"),
    }


def test_with_ci_true_missing_services_fail_instead(tmp_path):
    returncode, outcomes, database, redis = run_pytest(tmp_path, ci=True)

    assert returncode == 1
    assert outcomes == {
        name_of(NEEDS_NOTHING): ("passed", ""),
        name_of(NEEDS_DATABASE): (
            "error",
            f'failed on setup with "Failed: CI=true and {database}"',
        ),
        name_of(NEEDS_REDIS): ("error", f'failed on setup with "Failed: CI=true and {redis}"'),
        name_of(NEEDS_BOTH): (
            "error",
            f'failed on setup with "Failed: CI=true and {database}; {redis}"',
        ),
    }
