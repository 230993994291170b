"""What the permission matrix needs for the ranking routes: a federation with the world's club
as a member and the world's player linked and ranked (``federation_slug``,
``federation_player_id``). The ranking pages and API are public: anyone reads them."""

from __future__ import annotations

from rankings.build import update_rankings
from tests.federations.factories import (
    make_federation,
    make_federation_player,
    make_link,
    make_member,
)
from tests.rankings.seed import T0, finished_game

RANKING_PARAMETERS = frozenset({"federation_slug", "federation_player_id"})


def add_federation_to_world(world) -> dict:
    federation = make_federation("matrix-board")
    make_member(federation, world.club, accepted_at=T0)
    person = make_federation_player(federation, world.player.display_name)
    make_link(person, world.player)
    other = world.club.players.exclude(pk=world.player.pk).first()
    if other is not None:
        finished_game(world.club, [[world.player], [other]], 0, T0.replace(day=6))
    update_rankings(federation_id=federation.pk)
    return {"federation_slug": federation.slug, "federation_player_id": person.pk}
