"""The flush that ends a transactional jobs test gets past a session that holds a lock it needs
(tests/jobs/conftest.py): it ends that session and flushes again, instead of failing and leaving
the rows to the next test."""

from __future__ import annotations

import psycopg
import pytest
from django.db import connection
from django.test import TransactionTestCase

from clubs.models import Club
from tests.jobs.stack import side_connection

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_flush_blocked_by_another_session_ends_it_and_empties_the_tables():
    Club.objects.create(slug="left-behind", name="Left behind")
    side = side_connection()
    side.execute("LOCK TABLE clubs_club IN ACCESS SHARE MODE")  # a transaction left open
    with connection.cursor() as cursor:
        cursor.execute("SET lock_timeout = '300ms'")  # the flush fails fast instead of waiting
    try:
        TransactionTestCase()._fixture_teardown()
    finally:
        with connection.cursor() as cursor:
            cursor.execute("RESET lock_timeout")
    assert Club.objects.count() == 0
    with pytest.raises(psycopg.OperationalError):
        side.execute("SELECT 1")
    side.close()
