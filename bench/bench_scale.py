"""Benchmark at a federation's size (issue 27): figures on a generated season and on an empty
database, side by side in one run, with the plans of the slowest queries.

What it does: builds or reuses the generated database (bench/scale_db.py: ``manage.py
generate_history`` at ``JINK_BENCH_SCALE_CLUBS`` clubs, default 20, kept between runs) and makes
the empty one (migrated, with the smallest history ``generate_history`` makes — 2 clubs, one game
each — so that every page has a club, a player, a season table and a ranking to show; dropped
at the end). Then for each part in ``PARTS`` whose file exists, and for each of the two
databases, it clones the database (``CREATE DATABASE ... TEMPLATE``, so a part writes freely and
the kept database never changes) and runs the part in a subprocess (``--database-url``,
``--label``), echoing its output; the part's last line is ``JSON: {"figures": [[name, value,
unit, limit or null], ...], "same": [names], "failures": [...], "plans": {path: text}}``
(``same``, optional: figures that must equal the empty database's). It prints one table per part
— figure | empty | generated | limit | ok — how long each part took, then the plans, and exits
non-zero when any figure is over its limit, a ``same`` figure differs, a part fails (a full read
of a table of over 100,000 rows, among others) or a part crashes.

What it does not do: run the full size by default (``JINK_BENCH_SCALE_CLUBS=1000``: about 16
minutes to generate and 19 GB, docs/operations.md, "The scale bench"), or run without PostgreSQL
(it prints why and skips).

Run: ``make bench``, or ``.venv/bin/python bench/bench_scale.py`` from the project root.
"""

from __future__ import annotations

import datetime
import json
import os
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.scale_db import (  # noqa: E402
    _environment,
    ensure_generated,
    server_options,
    size_from_environment,
    url_of,
)

# The request paths and their plans; the jobs (export, ratings); the peak night, last (the
# longest: the real stack on each database).
PARTS = ["bench/scale_paths.py", "bench/scale_jobs.py", "bench/scale_night.py"]
EMPTY_HISTORY = [
    "--clubs=2",
    "--nights-per-club=1",
    "--tables=1",
    "--games-per-table=1",
    "--pool-games=8",
    f"--year={datetime.datetime.now(datetime.UTC).year - 1}",
    "--rankings",
]


def make_empty(options: dict, name: str) -> str:
    import psycopg

    with psycopg.connect(**options) as connection:
        connection.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        connection.execute(f'CREATE DATABASE "{name}"')
    url = url_of(options, name)
    environment = _environment(url)
    for command in (["migrate", "--noinput", "-v", "0"], ["generate_history", *EMPTY_HISTORY]):
        subprocess.run(
            [sys.executable, "manage.py", *command],
            cwd=ROOT,
            env=environment,
            check=True,
            stdout=subprocess.DEVNULL,
        )
    with psycopg.connect(**{**options, "dbname": name}) as connection:
        connection.execute("VACUUM ANALYZE")
    return url


def run_part(options: dict, part: str, label: str, template: str) -> tuple[dict, float, float]:
    """(the part's JSON, seconds to clone, seconds the part took) on a clone of ``template``."""
    import psycopg

    clone = f"{template[:40]}_x{os.getpid()}"
    started = time.monotonic()
    with psycopg.connect(**options) as connection:
        connection.execute(f'DROP DATABASE IF EXISTS "{clone}" WITH (FORCE)')
        connection.execute(f'CREATE DATABASE "{clone}" TEMPLATE "{template}"')
    cloned = time.monotonic() - started
    started = time.monotonic()
    result = None
    try:
        process = subprocess.Popen(
            [
                sys.executable,
                part,
                "--database-url",
                url_of(options, clone),
                "--label",
                label,
            ],
            cwd=ROOT,
            env=_environment(url_of(options, clone)),
            stdout=subprocess.PIPE,
            text=True,
        )
        for line in process.stdout:
            if line.startswith("JSON: "):
                result = json.loads(line[len("JSON: ") :])
            else:
                print(line, end="", flush=True)
        code = process.wait()
    finally:
        with psycopg.connect(**options) as connection:
            connection.execute(f'DROP DATABASE IF EXISTS "{clone}" WITH (FORCE)')
    if code != 0 or result is None:
        result = {
            "figures": (result or {}).get("figures", []),
            "failures": [*(result or {}).get("failures", []), f"{part} exited {code} on {label}"],
            "plans": (result or {}).get("plans", {}),
        }
    return result, cloned, time.monotonic() - started


def within(value, limit) -> bool:
    return limit is None or value is None or value <= limit


def shown(value) -> str:
    if value is None:
        return "-"
    return f"{value:,.2f}" if isinstance(value, float) else f"{value:,}"


def report(part: str, results: dict[str, dict]) -> list[str]:
    """Print the side-by-side table of one part; return its failures."""
    failures = [
        f"[{label}] {failure}"
        for label, result in results.items()
        for failure in result["failures"]
    ]
    names: list[str] = []
    values: dict[str, dict[str, list]] = {}
    for label, result in results.items():
        for name, value, unit, limit in result["figures"]:
            if name not in values:
                names.append(name)
                values[name] = {}
            values[name][label] = [value, unit, limit]
    same = {name for result in results.values() for name in result.get("same", [])}
    print(f"\n{part}")
    print(f"  {'figure':66s} {'empty':>10s} {'generated':>10s} {'limit':>8s}  ok")
    for name in names:
        empty = values[name].get("empty", [None, "", None])
        generated = values[name].get("generated", [None, "", None])
        limit = generated[2] if generated[2] is not None else empty[2]
        ok = within(empty[0], limit) and within(generated[0], limit)
        bound = "-" if limit is None else f"<= {limit}"
        if name in same:
            ok = ok and empty[0] == generated[0]
            bound = ("= empty" if limit is None else f"{bound}, = empty").strip()
        if not ok:
            failures.append(
                f"{part}: {name}: empty {shown(empty[0])}, generated {shown(generated[0])}, "
                f"limit {bound}"
            )
        unit = generated[1] or empty[1]
        print(
            f"  {name + ' (' + unit + ')':66s} {shown(empty[0]):>10s} {shown(generated[0]):>10s} "
            f"{bound:>8s}  {'ok' if ok else 'FAIL'}"
        )
    return failures


def machine(options: dict) -> str:
    """The machine the figures belong to: cores, memory, load, PostgreSQL's version."""
    import psycopg

    memory = "?"
    meminfo = Path("/proc/meminfo")
    if meminfo.exists():
        total = next(line for line in meminfo.read_text().splitlines() if "MemTotal" in line)
        memory = f"{int(total.split()[1]) / 1_048_576:.0f} GB"
    with psycopg.connect(**options) as connection:
        version = connection.execute("SHOW server_version").fetchone()[0]
    load = " ".join(f"{value:.2f}" for value in os.getloadavg())
    return (
        f"machine: {os.cpu_count()} cores, {memory} of memory, load average {load}; "
        f"PostgreSQL {version}"
    )


def main() -> None:
    options, why = server_options()
    if options is None:
        print(f"scale bench skipped: {why}")
        return
    begun = time.monotonic()
    print(machine(options))
    size = size_from_environment()
    url, generated, built = ensure_generated(options, size)
    print(
        f"generated database {generated}: "
        + (f"built in {built:.0f} s (kept for the next runs)" if built else "kept from a past run")
    )
    empty = f"jink_bench_scale_empty_{os.getpid()}"
    failures: list[str] = []
    plans: dict[str, str] = {}
    timings: list[str] = []
    try:
        started = time.monotonic()
        make_empty(options, empty)
        seconds = time.monotonic() - started
        print(f"empty database {empty}: migrated, smallest history, in {seconds:.0f} s")
        for part in PARTS:
            if not (ROOT / part).exists():
                print(f"{part}: not written yet, skipped")
                continue
            results = {}
            for label, template in (("empty", empty), ("generated", generated)):
                print(f"\n== {part} on the {label} database ({template})")
                result, cloned, seconds = run_part(options, part, label, template)
                results[label] = result
                timings.append(f"{part} on {label}: {seconds:.0f} s (clone {cloned:.1f} s)")
                for path, plan in result["plans"].items():
                    plans[f"{part} [{label}] {path}"] = plan
            failures.extend(report(part, results))
    finally:
        import psycopg

        with psycopg.connect(**options) as connection:
            connection.execute(f'DROP DATABASE IF EXISTS "{empty}" WITH (FORCE)')
    print(f"\nhow long: {time.monotonic() - begun:.0f} s in all")
    for line in timings:
        print(f"  {line}")
    print("\nplans of the slowest query of each path (and of each full read), generated database:")
    for path, plan in plans.items():
        if "[generated]" in path or "full read" in path:
            print(f"\n-- {path}\n{plan}")
    if failures:
        print(f"\n{len(failures)} failure(s):")
        for failure in failures:
            print(f"  FAIL {failure}")
        sys.exit(1)
    print("\nscale bench: every figure within its limit, no full read of a big table")


if __name__ == "__main__":
    main()
