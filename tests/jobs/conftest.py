"""The jobs tests run a real worker and beat beside the test, so the flush that ends a
transactional test (a TRUNCATE of every table) can meet a worker's transaction that holds one
table and waits for another: PostgreSQL then breaks the deadlock by failing the flush, and the next
test starts on the rows this one left. Here the flush ends the other sessions on the test database
and tries again, a few times, before it gives up.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Iterator

import pytest
from django.core.management.base import CommandError
from django.db import OperationalError
from django.test import TransactionTestCase

from tests.jobs.stack import end_other_sessions

logger = logging.getLogger(__name__)

FLUSH_ATTEMPTS = 5


def _flush_past_a_deadlock(original):
    def _fixture_teardown(self):
        for attempt in range(1, FLUSH_ATTEMPTS + 1):
            try:
                return original(self)
            except CommandError as error:
                if attempt == FLUSH_ATTEMPTS or not isinstance(error.__cause__, OperationalError):
                    raise
                ended = end_other_sessions()
                logger.warning(
                    "flush failed (%s); ended %d other sessions, trying again",
                    error.__cause__,
                    ended,
                )
                time.sleep(0.2 * attempt)
        return None

    return _fixture_teardown


@pytest.fixture(scope="module", autouse=True)
def flush_past_a_deadlock() -> Iterator[None]:
    original = TransactionTestCase._fixture_teardown
    TransactionTestCase._fixture_teardown = _flush_past_a_deadlock(original)
    try:
        yield
    finally:
        TransactionTestCase._fixture_teardown = original
