"""What the permission matrix (tests/test_permission_matrix.py) needs from table links.

``add_table_links_to_world(world)`` makes, for the world's game (``add_game_to_world``), a live
table link, and one for another game of the same club; it returns the path values of the table
routes (``link_id``, ``credential``) and keeps both tokens in ``world.extra`` for the table-link
actors. ``TABLE_BODIES`` are valid request bodies for the routes that take one.
"""

from __future__ import annotations

from games import services
from table_links.services import create_table_link
from tests.games.matrix import FIRST_HAND


def add_table_links_to_world(world, game_id: int) -> dict:
    organiser = world.users["organiser"]
    other = services.create_game(
        club=world.club,
        user=organiser,
        game="25",
        seat_player_ids=[player.pk for player in world.players[:2]],
        first_dealer=1,
    )
    link, token, _ = create_table_link(club=world.club, user=organiser, game_id=game_id)
    _, other_token, _ = create_table_link(club=world.club, user=organiser, game_id=other.pk)
    world.extra["table_tokens"] = {"table link": token, "other table's link": other_token}
    return {"link_id": link.pk, "credential": token}


TABLE_BODIES = {
    ("games:hand-preview", "POST"): lambda world: {"dealer": 0, "misdeal": True},
    ("games:correction-preview", "POST"): lambda world: dict(FIRST_HAND, trump="H"),
    ("tables:link-list", "POST"): lambda world: {"game": world.path_values()["game_id"]},
}
