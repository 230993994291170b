"""A tournament's standings, computed from its stored match results.

What it does: ``compute_standings(tournament)`` gathers every decided match and every bye of the
released rounds (as the format's policy reads them, ``FormatPolicy.standings_input``), ranks the
entrants with ``tournaments.draw.ranking`` — first by the order the policy gives (a knockout's:
how far each entrant got), then by the tournament's tie-break chain (or its format's default
chain) ending, when asked, in a drawing of lots from the stored seed —
and returns plain JSON-ready data with an entity tag that changes exactly when the standings do.
Each row has its ``rank`` (its line in the order, lots included: 1, 2, 3 …) and its ``place``
(entrants level on every criterion before lots share it: 1, 1, 3 …): lots order the list, they
never make a place.

What it does not do: store the standings (``tournaments.snapshots`` stores them, computed here,
after each change; the API and the pages read that snapshot, while the console's results and
archive and the settle-up's prizes call ``compute_standings`` directly) or decide who may read
them (the views do).

Terms:
- *points against*: per match, the average of the opponents' points (exact fraction in the
  ranking; shown rounded to two decimals).
- *etag*: a strong entity tag, the SHA-256 of the standings' JSON (without ``computed_at``).
- *place*: the rank the chain gives without ``lots`` (and without what follows it, which lots
  leave nothing to decide): entrants still level there share it, whatever lots then say.
"""

from __future__ import annotations

import hashlib
import json
from collections import Counter
from fractions import Fraction

from django.utils import timezone

from tournaments import bridge
from tournaments.draw import ranking
from tournaments.formats import policy_for
from tournaments.models import Entrant, Tournament, TournamentStatus


def _number(value: object) -> object:
    if isinstance(value, Fraction):
        return int(value) if value.denominator == 1 else round(float(value), 2)
    if isinstance(value, tuple):
        return [_number(item) for item in value]
    return value


def _entrants_json(tournament: Tournament) -> dict[int, dict]:
    """Each entrant's JSON by id, read as plain rows (``Entrant.name``: the player's display
    name, else the team's name)."""
    return {
        entrant_id: {
            "id": entrant_id,
            "name": player_name if player_id else team_name,
            "player": player_id,
            "team": team_id,
            "seed": seed,
        }
        for entrant_id, player_id, team_id, seed, player_name, team_name in (
            Entrant.objects.filter(tournament=tournament).values_list(
                "pk", "player_id", "team_id", "seed", "player__display_name", "team__name"
            )
        )
    }


def _ranked_with_places(order, results, *, byes, scoring, chain, seed, primary) -> list[tuple]:
    """``(rank, place, line, values)`` per entrant, best first (``line``: a ranking ``Standing``,
    ``values``: the criteria compared for it).

    The ranking runs once, on the chain cut before ``lots``: its shared ranks are the places.
    Lots then only order each block of entrants sharing a place — exactly as the whole chain
    would (lots separate everyone, so the criteria after them never decide anything) — and the
    rank is the line's position. A chain without lots gives rank and place alike.
    """
    if "lots" not in chain:
        lines = ranking.compute_standings(
            order,
            results,
            byes=byes,
            scoring=scoring,
            tie_breaks=chain,
            seed=seed,
            primary=primary,
        )
        return [(line.rank, line.rank, line, line.values) for line in lines]
    lines = ranking.compute_standings(
        order,
        results,
        byes=byes,
        scoring=scoring,
        tie_breaks=chain[: chain.index("lots")],
        seed=seed,
        primary=primary,
    )
    sharing = Counter(line.rank for line in lines)
    ordered = sorted(lines, key=lambda line: (line.rank, -line.lot))
    return [
        (
            position,
            line.rank,
            line,
            {**line.values, "lots": line.lot} if sharing[line.rank] > 1 else line.values,
        )
        for position, line in enumerate(ordered, start=1)
    ]


def compute_standings(tournament: Tournament, *, with_etag: bool = True) -> dict:
    """``{"tournament", "status", "tie_breaks", "computed_at", "etag", "standings": [...]}``
    (without ``etag`` when ``with_etag`` is false: the stored snapshot has its own)."""
    entrants = _entrants_json(tournament)
    order = bridge.draw_order_of(tournament) if entrants else []
    order = [entrant_id for entrant_id in order if entrant_id in entrants]
    # A privately drawn round counts once it is released: until then its results would tell
    # the players what the organiser has not shown them. Late arrivals (absent at round 1, drawn
    # later) rank too; those never drawn do not.
    policy = policy_for(tournament)
    played = policy.standings_input(tournament)
    order += sorted((played.drawn - set(order)) & set(entrants))
    chain = policy.tie_breaks(tournament)
    primary = played.primary
    if primary is not None and set(primary) != set(order):
        primary = None  # an order that does not rank everyone ranks no one
    lines = _ranked_with_places(
        order,
        played.results,
        byes=played.byes,
        scoring=bridge.scoring_of(tournament),
        chain=chain,
        seed=tournament.lots_seed,
        primary=primary,
    )
    rows = []
    for rank, place, line, values in lines:
        tally = line.tally
        rows.append(
            {
                "rank": rank,
                "place": place,
                "entrant": entrants[line.entrant],
                "matches_played": tally.matches_played,
                "match_wins": tally.match_wins,
                "match_draws": tally.match_draws,
                "match_losses": tally.match_losses,
                "byes": tally.byes,
                "match_points": tally.match_points,
                "games_won": tally.games_won,
                "points_for": tally.points_for,
                "points_against": _number(tally.points_against),
                "points_difference": _number(tally.points_difference),
                "tricks_won": tally.tricks_won,
                "buchholz": line.buchholz,
                "tie_break_values": {
                    name: _number(value) for name, value in values.items() if name != "primary"
                },
            }
        )
    body = {
        "tournament": tournament.pk,
        "status": tournament.status,
        "tie_breaks": list(chain),
        "standings": rows,
    }
    if not with_etag:
        return {**body, "computed_at": timezone.now()}
    digest = hashlib.sha256(json.dumps(body, sort_keys=True).encode()).hexdigest()[:32]
    return {**body, "computed_at": timezone.now(), "etag": f'"{digest}"'}


def place_of(row: dict) -> int:
    """A standings row's place; a snapshot stored before places were kept has its rank."""
    return row.get("place", row["rank"])


def winners_of(tournament: Tournament, champion: int | None, rows: list[dict] | None = None):
    """The tournament's winners (entrant ids): a knockout's ``champion``, else once every round
    is played the entrants placed first in the standings (``rows``, computed when not given) —
    all of them when several share first place (lots never choose a winner)."""
    if champion is not None:
        return [champion]
    if tournament.status not in (TournamentStatus.FINISHED, TournamentStatus.CLOSED):
        return []
    if rows is None:
        rows = compute_standings(tournament)["standings"]
    return [row["entrant"]["id"] for row in rows if place_of(row) == 1]
