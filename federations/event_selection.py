"""Which players a federation event's rule selects, and their seeds (reads only).

What it does: ``compute_entrants(event, season_year)`` gives the entrants the event's rule
gives now, seeded; ``links_of`` maps club players to their current federation players.

How entrants are computed (deterministic, the same data gives the same entrants and seeds):
- The member clubs are taken in name order (then id).
- ``top_n``: each club's season table of the calendar year ``season_year`` (or the current year
  when the event names none) as computed at selection from the club's finished games
  (``seasons.league_table.compute_season_rows``, not a possibly stale snapshot). Players are
  ordered by wins, then points (both most first), then **fewer games played**, then **the lower
  club player id** (who joined the club's books first): that breaks every tie, including a tie
  at the cut-off (the season table itself orders ties by name, which is no merit). The first
  ``quota`` who may enter are taken.
- ``nominations``: each club's nominations in their order.
- Who may not enter is passed over (the next one takes the place): an inactive club player, and a
  person already taken for an earlier club (the same club player, or a club player linked to the
  same federation player): a person qualifying at two clubs enters once, for the first club.
- Seeds: the clubs' firsts in club order, then their seconds, and so on.

What it does not do: store the selection (``federations.events.select_entrants``).
"""

from __future__ import annotations

from dataclasses import dataclass

from clubs.models import Club, Player
from federations import selectors
from federations.models import Federation, FederationEvent, PlayerLink, SelectionRule
from seasons.league_table import compute_season_rows, season_range


def links_of(federation: Federation, player_ids) -> dict[int, int]:
    """Club player id -> its current federation player id in ``federation``."""
    return dict(
        PlayerLink.objects.current()
        .filter(federation=federation, player_id__in=list(player_ids))
        .values_list("player_id", "federation_player_id")
    )


@dataclass(frozen=True)
class Candidate:
    """One selected entrant before it is stored: its club, club player, federation player (if
    linked), place at the club and seed."""

    club: Club
    player_id: int
    federation_player_id: int | None
    place: int
    seed: int = 0


def _season_order(club: Club, date_from, date_to) -> list[int]:
    rows = compute_season_rows(club.pk, date_from, date_to)
    rows.sort(key=lambda row: (-row["wins"], -row["points"], row["games"], row["player"]["id"]))
    return [row["player"]["id"] for row in rows]


def compute_entrants(event: FederationEvent, season_year: int | None = None) -> list[Candidate]:
    """The entrants the rule gives now, seeded (see the module's docstring). Reads only."""
    clubs = list(selectors.list_member_clubs(federation=event.federation))
    ordered: dict[int, list[int]] = {}
    if event.rule == SelectionRule.TOP_N:
        date_from, date_to = season_range(season_year)
        for club in clubs:
            ordered[club.pk] = _season_order(club, date_from, date_to)
    else:
        for nomination in event.nominations.filter(club__in=clubs).order_by("club_id", "order"):
            ordered.setdefault(nomination.club_id, []).append(nomination.player_id)
    every = [player_id for ids in ordered.values() for player_id in ids]
    players = {
        player.pk: player
        for player in Player.objects.filter(pk__in=every).only("pk", "club_id", "is_active")
    }
    links = links_of(event.federation, every)
    taken_players: set[int] = set()
    taken_people: set[int] = set()
    chosen: list[list[Candidate]] = []
    for club in clubs:
        mine: list[Candidate] = []
        for place, player_id in enumerate(ordered.get(club.pk, []), start=1):
            if len(mine) >= event.quota:
                break
            player = players.get(player_id)
            person = links.get(player_id)
            if player is None or player.club_id != club.pk or not player.is_active:
                continue
            if player_id in taken_players or (person is not None and person in taken_people):
                continue
            taken_players.add(player_id)
            if person is not None:
                taken_people.add(person)
            mine.append(Candidate(club, player_id, person, place))
        chosen.append(mine)
    seeded: list[Candidate] = []
    for index in range(event.quota):
        for mine in chosen:
            if index < len(mine):
                each = mine[index]
                seeded.append(
                    Candidate(
                        each.club,
                        each.player_id,
                        each.federation_player_id,
                        each.place,
                        len(seeded) + 1,
                    )
                )
    return seeded
