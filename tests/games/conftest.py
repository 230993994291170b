"""Fixtures of the games tests: ``table`` (a club, ten players, a client per role).

Imports of Django code stay inside the fixtures: pytest imports this file before the root
conftest has chosen the settings when tests/games is given on the command line.
"""

import pytest


@pytest.fixture
def table(db):
    from tests.games.helpers import build_table

    return build_table()
