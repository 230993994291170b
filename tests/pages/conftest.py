"""Fixtures of the page tests: the seeded clubs (once per module) and a client per user.

``seed`` writes ``tests.pages.seed.seed_clubs()`` once per test module inside a transaction that
is rolled back when the module ends; each test still runs in its own savepoint (the ``db``
fixture), so a test cannot leak changes into the next. Seeding goes through the real services
(engine, ledger, tournament progress) and costs about a second: once per module, not per test.

``client_for(name)`` is a test client logged in as that seeded user (``None``: anonymous).
The browser test does not use ``seed``: a live server needs committed rows (transactional_db).

Imports of Django code stay inside the fixtures: pytest imports this file before the root
conftest has chosen the settings when tests/pages is given on the command line.
"""

from __future__ import annotations

import pytest


@pytest.fixture(scope="module")
def seed(django_db_setup, django_db_blocker):
    from django.db import transaction

    from tests.pages.seed import seed_clubs

    with django_db_blocker.unblock():
        with transaction.atomic():
            seeded = seed_clubs()
            yield seeded
            transaction.set_rollback(True)


@pytest.fixture
def client_for(seed, db):
    from django.test import Client

    def make(name: str | None) -> Client:
        client = Client()
        if name is not None:
            client.force_login(seed.users[name])
        return client

    return make
