"""What the permission matrix (tests/test_permission_matrix.py) needs from tournaments.

``add_tournament_to_world(world)`` adds two tournaments to the world's club, public exactly when
the club is (so the matrix's private/public expectations hold): one still in registration with
four entrants (for the settings, entrants, rounds and close routes) and a drawn two-player final
(for the match route). It returns the path values ``tournament_id``, ``entrant_id`` and
``match_id``; ``TOURNAMENT_BODIES`` are valid bodies for the routes that take one.
"""

from __future__ import annotations

from tournaments import door, services


def add_tournament_to_world(world) -> dict:
    organiser = world.users["organiser"]
    public = world.club.public_standings
    tournament = services.create_tournament(
        club=world.club,
        user=organiser,
        values={"name": "Matrix cup", "game": "25", "format": "knockout", "is_public": public},
        entrants=[{"player": player.pk} for player in world.players[:4]],
    )
    final = services.create_tournament(
        club=world.club,
        user=organiser,
        values={"name": "Matrix final", "game": "25", "format": "knockout", "is_public": public},
        entrants=[{"player": player.pk} for player in world.players[2:4]],
    )
    round_ = services.draw_next_round(tournament_id=final.pk, user=organiser)
    _code, door_token = door.create_door_code(tournament_id=tournament.pk, user=organiser)
    return {
        "door_token": door_token,  # the registration tournament's live door code
        "tournament_id": tournament.pk,
        "entrant_id": tournament.entrants.order_by("pk").last().pk,
        "match_id": round_.matches.get().pk,
        "round_number": 1,  # the registration tournament has none: swap and release say 404
    }


TOURNAMENT_BODIES = {
    ("tournaments:club-tournament-list", "POST"): lambda world: {
        "name": "New cup",
        "game": "25",
        "format": "knockout",
    },
    ("tournaments:tournament-detail", "PATCH"): lambda world: {"name": "Renamed cup"},
    ("tournaments:entrant-list", "POST"): lambda world: {
        "entrants": [{"player": world.players[4].pk}]
    },
    ("tournaments:entrant-detail", "PATCH"): lambda world: {"seed": 9},
    ("tournaments:check-in", "POST"): lambda world: {
        "present": [world.extra["path_values"]["entrant_id"]]
    },
    ("tournaments:round-swap", "POST"): lambda world: {"first": 1, "second": 2},
    ("tournaments:match-dispute", "POST"): lambda world: {"note": "A card was exposed"},
}
