"""Fixtures of the practice page tests: a learner with an account, and a client logged in as
them. (Imports inside the fixtures: a conftest loads before Django is set up.)"""

from __future__ import annotations

import pytest


@pytest.fixture
def learner(db):
    from tests.clubs.factories import make_user

    return make_user("learner")


@pytest.fixture
def client_of(learner):
    from tests.helpers import logged_in_client

    return logged_in_client(learner)
