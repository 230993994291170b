"""The clubs, their players and the federation above them, as the services would have stored them.

What it does: ``write_federation`` stores one federation; ``write_club`` stores a club (its
tables chosen by the weights of ``pool.TABLES``, its stake), its federation membership (accepted)
and its players, each linked to one ``FederationPlayer`` (as an organiser links them,
``federations.services``). Names are made from a person's global number, so a person is the same
name in every club. The first ``shared`` players of each club also play at the next club: one
federation player, two ``PlayerLink`` rows.

What it does not do: make accounts, memberships of users, teams or invitations.

Terms: *person*: a human across clubs (a federation player once linked); *club plan*: what the
nights of a club need (its id, players, tables and stake).
"""

from __future__ import annotations

import datetime
import random
from dataclasses import dataclass

from clubs.models import Club, Player
from federations.models import Federation, FederationMembership, FederationPlayer, PlayerLink
from scale.pool import TABLES

FIRST = (
    "Mary Seán Aoife Pádraig Niamh Liam Siobhán Ciarán Róisín Eoin Gráinne Tadhg Orla Cormac "
    "Bríd Dónal Clodagh Fionn Máire Colm Eileen Declan Nuala Brendan"
).split()
LAST = (
    "Byrne Murphy Kelly O'Brien Walsh Ryan O'Sullivan Doyle McCarthy Gallagher Kennedy Lynch "
    "Murray Quinn Moore McLoughlin Carroll Connolly Daly Connell Wilson Dunne Brennan Burke"
).split()
STAKES = (100, None, 50, 200, None)
"""Each club's stake per loser, by club number: some play for money, some do not."""


def person_name(number: int) -> str:
    """A distinct name for each person number ("Mary Byrne", ..., "Mary Byrne 2", ...)."""
    first = FIRST[number % len(FIRST)]
    last = LAST[(number // len(FIRST)) % len(LAST)]
    rest = number // (len(FIRST) * len(LAST))
    return f"{first} {last}" + (f" {rest + 1}" if rest else "")


@dataclass
class ClubPlan:
    club_id: int
    number: int
    player_ids: list[int]
    person_of: dict[int, int]  # player id -> person number
    federation_player_of: dict[int, int]  # person number -> federation player id
    table_kinds: list[int]
    stake_minor: int | None


def write_federation(loader, *, when: datetime.datetime) -> int:
    federation_id = loader.next_id(Federation)
    loader.add(
        Federation,
        federation_id,
        f"History federation {federation_id}",
        f"history-{federation_id}",
        "EUR",
        50,
        when,
    )
    return federation_id


def write_club(
    loader,
    rng: random.Random,
    *,
    number: int,
    federation_id: int,
    players: int,
    tables: int,
    shared: int,
    previous: ClubPlan | None,
    when: datetime.datetime,
) -> ClubPlan:
    """The club, its membership and players, each linked to its federation player; the first
    ``shared`` players of the ``previous`` club sit here too, as players ``shared .. 2 * shared
    - 1``, linked to the same federation players."""
    weights = [weight for *_, weight in TABLES]
    kinds = rng.choices(range(len(TABLES)), weights=weights, k=tables)
    players = max(players, sum(TABLES[kind][1] for kind in kinds))
    club_id = loader.next_id(Club)
    loader.add(
        Club,
        club_id,
        f"History club {club_id}",
        f"history-{club_id}",
        "EUR",
        "Europe/Dublin",
        TABLES[kinds[0]][0],
        "{}",
        True,
        False,
        False,
        0,
        when,
    )
    loader.add(
        FederationMembership,
        loader.next_id(FederationMembership),
        federation_id,
        club_id,
        when,
        when,
    )
    plan = ClubPlan(club_id, number, [], {}, {}, kinds, STAKES[number % len(STAKES)])
    for index in range(players):
        person = number * players + index
        if number > 0 and shared <= index < 2 * shared:
            person = (number - 1) * players + index - shared
        player_id = loader.next_id(Player)
        loader.add(Player, player_id, club_id, person_name(person), True, when)
        plan.player_ids.append(player_id)
        plan.person_of[player_id] = person
        federation_player = (
            previous.federation_player_of.get(person) if previous is not None else None
        )
        if federation_player is None:
            federation_player = loader.next_id(FederationPlayer)
            loader.add(
                FederationPlayer,
                federation_player,
                federation_id,
                person_name(person),
                "full",
                True,
                when,
            )
        plan.federation_player_of[person] = federation_player
        loader.add(
            PlayerLink,
            loader.next_id(PlayerLink),
            federation_id,
            federation_player,
            player_id,
            "organiser",
            when,
        )
    return plan


TABLE_COLUMNS = [
    (Federation, ("id", "name", "slug", "currency", "levy_rate_minor", "created_at")),
    (
        Club,
        (
            "id",
            "name",
            "slug",
            "currency",
            "time_zone",
            "default_game",
            "default_house_rules",
            "public_standings",
            "confirm_hands",
            "require_two_factor",
            "names_version",
            "created_at",
        ),
    ),
    (FederationMembership, ("id", "federation_id", "club_id", "invited_at", "accepted_at")),
    (Player, ("id", "club_id", "display_name", "is_active", "created_at")),
    (
        FederationPlayer,
        ("id", "federation_id", "display_name", "name_shown", "ranking_shown", "created_at"),
    ),
    (
        PlayerLink,
        ("id", "federation_id", "federation_player_id", "player_id", "how", "created_at"),
    ),
]
