"""What the permission matrix (tests/test_permission_matrix.py) needs from the exchange routes.

``EXCHANGE_BODIES``: a valid body for ``POST /api/clubs/{slug}/imports/`` — a closed night of
another site with two players, no game and no fee (the matrix's club routes run on a bare club,
with no open night, so the organiser's import is created: "ok"). The exports read the matrix's
night (tests/settlements/matrix.py) and tournament (tests/tournaments/matrix.py).
"""

from __future__ import annotations


def small_night_document(site: str = "matrix-site", night_id: int = 7) -> dict:
    return {
        "format": "jink-exchange",
        "version": 1,
        "exported_at": "2026-12-04T20:00:00+00:00",
        "origin": {
            "site": site,
            "kind": "night",
            "id": night_id,
            "club": {"slug": "the-hall", "name": "The Hall", "currency": "EUR"},
        },
        "players": [{"id": 1, "name": "Nora Quinn"}, {"id": 2, "name": "Owen Ryan"}],
        "teams": [],
        "games": [],
        "night": {
            "name": "Hall night",
            "status": "closed",
            "opened_at": "2026-12-04T19:00:00+00:00",
            "closed_at": "2026-12-04T20:00:00+00:00",
            "entry_fee": None,
            "prize_split": [],
            "fees": [],
        },
        "event": None,
        "standings": [],
        "settle_up": {"currency": "EUR", "versions": []},
    }


EXCHANGE_BODIES = {
    ("exchange:imports", "POST"): lambda world: small_night_document(),
}
