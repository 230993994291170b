"""Bulk loading with ``COPY``: ids taken past each table's maximum, rows buffered per table.

What it does: ``Loader`` holds, per model, the columns the generator writes and a buffer of lines
in ``COPY``'s text format; ``next_id`` hands out ids past the table's maximum when the loader
started; ``flush`` sends every buffer with psycopg's ``cursor.copy`` in the order the tables were
declared (parents first, so a foreign key always finds its row); ``finish`` moves each table's
id sequence past what was loaded; ``shared`` lets services write to the same tables in between
(``scale.events``), its ids then continuing past theirs. ``counts`` says how many rows ``COPY``
sent into each table.

What it does not do: commit (the caller's transaction does) or check anything the database's
constraints do not (they run on every row: ``SET CONSTRAINTS ALL IMMEDIATE``).

Terms: *text format*: tab-separated fields, ``\\N`` for null, backslashes, tabs and newlines
escaped (``field``).
"""

from __future__ import annotations

import contextlib
import datetime
from collections import Counter

from django.db import connection


def text(value: str) -> str:
    """A string as one field of ``COPY``'s text format."""
    return (
        value.replace("\\", "\\\\").replace("\t", "\\t").replace("\n", "\\n").replace("\r", "\\r")
    )


def field(value) -> str:
    """Any value the generator writes as one field (None is null; JSON is passed as text)."""
    if value is None:
        return "\\N"
    if value is True:
        return "t"
    if value is False:
        return "f"
    if isinstance(value, datetime.datetime | datetime.date):
        return value.isoformat()
    if isinstance(value, str):
        return text(value)
    return str(value)


class Loader:
    """Rows of the declared models, buffered and sent by ``COPY``."""

    def __init__(self, tables: list[tuple[type, tuple[str, ...]]]) -> None:
        self.tables = {model: columns for model, columns in tables}
        self.buffers: dict[type, list[str]] = {model: [] for model in self.tables}
        self.counts: Counter = Counter()
        self.ids: dict[type, int] = {}
        with connection.cursor() as cursor:
            cursor.execute("SET CONSTRAINTS ALL IMMEDIATE")
        self._read_ids()

    def _read_ids(self) -> None:
        with connection.cursor() as cursor:
            for model in self.tables:
                if model._meta.pk.column != "id":
                    continue  # keyed by another row (a one-to-one primary key)
                cursor.execute(f'SELECT coalesce(max(id), 0) FROM "{model._meta.db_table}"')
                self.ids[model] = cursor.fetchone()[0]

    def next_id(self, model: type) -> int:
        self.ids[model] += 1
        return self.ids[model]

    def add(self, model: type, *values) -> None:
        """One row: ``values`` in the order of the model's declared columns."""
        self.buffers[model].append("\t".join(map(field, values)) + "\n")

    def add_line(self, model: type, line: str) -> None:
        """One row already in the text format (without its newline)."""
        self.buffers[model].append(line + "\n")

    def flush(self) -> None:
        with connection.cursor() as wrapper:
            cursor = wrapper.cursor
            for model, columns in self.tables.items():
                lines = self.buffers[model]
                if not lines:
                    continue
                names = ", ".join(f'"{column}"' for column in columns)
                with cursor.copy(f'COPY "{model._meta.db_table}" ({names}) FROM STDIN') as copy:
                    copy.write("".join(lines))
                self.counts[model] += len(lines)
                lines.clear()

    def finish(self) -> None:
        """Flush, then move each id sequence past the ids loaded."""
        self.flush()
        with connection.cursor() as cursor:
            for model in self.ids:
                table = model._meta.db_table
                cursor.execute(
                    f"SELECT setval(pg_get_serial_sequence('\"{table}\"', 'id'), "
                    f'coalesce(max(id), 0) + 1, false) FROM "{table}"'
                )

    @contextlib.contextmanager
    def shared(self):
        """Let the ORM write to the declared tables meanwhile (services run inside): everything
        buffered is sent and the sequences moved past it first, the ids read again after."""
        self.finish()
        yield
        self._read_ids()


def table_sizes(models: list[type]) -> list[tuple[str, int, int]]:
    """``(table, rows, bytes on disk with indexes and TOAST)`` of each model's table."""
    sizes = []
    with connection.cursor() as cursor:
        for model in models:
            table = model._meta.db_table
            cursor.execute(f'SELECT count(*), pg_total_relation_size(\'"{table}"\') FROM "{table}"')
            rows, size = cursor.fetchone()
            sizes.append((table, rows, size))
    return sizes
