"""A club's season table and ratings, computed from the generated games as the jobs compute them.

What it does: ``write_season`` stores the club's ``SeasonSnapshot`` of the calendar year as
``seasons.league_table.refresh_season`` would (its ``data_stamp``: finished games and the sum of
their versions; its rows: games, wins, points and net stakes per player, ranked by wins, points,
then name); ``write_ratings`` rates the club's games in their rating order (when their last hand
was entered, then id) through ``seasons.ratings.rate_stream``, the one OpenSkill mechanism, and
stores what ``seasons.ratings`` stores: each player's ``PlayerRating``, a ``RatingChange`` per
rated seat, a ``RatedGame`` per game and the club's ``ClubRatingState``.

What it does not do: the federation's rankings (``manage.py rebuild_rankings`` builds them from
these rows), or snapshots of other ranges than the year.

Terms: as in ``seasons.league_table`` and ``seasons.ratings``.
"""

from __future__ import annotations

import datetime
from collections import defaultdict
from types import SimpleNamespace

from scale.pool import dumps
from seasons.models import ClubRatingState, PlayerRating, RatedGame, RatingChange, SeasonSnapshot
from seasons.ratings import rate_stream


def season_rows(games, names: dict[int, str]) -> list[dict]:
    """``compute_season_rows`` over ``games`` (``GameFacts``), with the players' ``names``."""
    tally: dict[int, dict] = defaultdict(lambda: {"games": 0, "wins": 0, "points": 0})
    stakes: dict[int, int] = defaultdict(int)
    for facts in games:
        for _, player_id, side in facts.seats:
            line = tally[player_id]
            line["games"] += 1
            line["wins"] += 1 if side == facts.winner_side else 0
            line["points"] += facts.totals[side] if side < len(facts.totals) else 0
        for player_id, amount in facts.shares.items():
            stakes[player_id] += amount
    ordered = sorted(
        tally.items(),
        key=lambda item: (-item[1]["wins"], -item[1]["points"], names[item[0]].lower(), item[0]),
    )
    rows: list[dict] = []
    for index, (player_id, line) in enumerate(ordered):
        previous = rows[-1] if rows else None
        tied = previous is not None and (previous["wins"], previous["points"]) == (
            line["wins"],
            line["points"],
        )
        rows.append(
            {
                "rank": previous["rank"] if tied else index + 1,
                "player": {"id": player_id, "name": names[player_id]},
                **line,
                "net_stakes_minor": stakes.get(player_id, 0),
            }
        )
    return rows


def write_season(loader, club_id: int, games, names: dict[int, str], year: int) -> None:
    stamp = f"{len(games)}:{sum(facts.version for facts in games)}"
    loader.add(
        SeasonSnapshot,
        loader.next_id(SeasonSnapshot),
        club_id,
        datetime.date(year, 1, 1),
        datetime.date(year, 12, 31),
        1,
        stamp,
        dumps(season_rows(games, names)),
        datetime.datetime(year + 1, 1, 1, tzinfo=datetime.UTC),
    )


def _as_game(facts) -> SimpleNamespace:
    """What ``rate_stream`` reads of a game: its seats, totals and winner."""
    seats = [SimpleNamespace(seat=s, player_id=p, side=side) for s, p, side in facts.seats]
    return SimpleNamespace(
        pk=facts.game_id,
        seats=SimpleNamespace(all=lambda: seats),
        totals=facts.totals,
        winner_side=facts.winner_side,
        facts=facts,
    )


def write_ratings(loader, club_id: int, games, year: int) -> None:
    ordered = sorted(games, key=lambda facts: (facts.finished_at, facts.game_id))
    known: dict[int, tuple[float, float]] = {}
    current: dict[int, list] = {}
    sequence = 0
    for game, steps in rate_stream(map(_as_game, ordered), lambda player: player, known):
        sequence += 1
        facts = game.facts
        for step in steps:
            loader.add(
                RatingChange,
                loader.next_id(RatingChange),
                step.key,
                facts.game_id,
                sequence,
                step.mu,
                step.sigma,
                step.ordinal,
            )
            played = current.get(step.key, [0])[0]
            current[step.key] = [played + 1, step.mu, step.sigma, step.ordinal]
        loader.add(RatedGame, facts.game_id, club_id, sequence, facts.version, facts.finished_at)
    updated = datetime.datetime(year + 1, 1, 1, tzinfo=datetime.UTC)
    for player, (played, mu, sigma, ordinal) in sorted(current.items()):
        loader.add(PlayerRating, player, club_id, mu, sigma, ordinal, played, updated)
    last = ordered[-1] if ordered else None
    loader.add(
        ClubRatingState,
        club_id,
        sequence,
        last.finished_at if last else None,
        last.game_id if last else None,
        False,
    )


TABLE_COLUMNS = [
    (
        SeasonSnapshot,
        ("id", "club_id", "date_from", "date_to", "version", "data_stamp", "rows", "computed_at"),
    ),
    (PlayerRating, ("player_id", "club_id", "mu", "sigma", "ordinal", "games", "updated_at")),
    (RatingChange, ("id", "player_id", "game_id", "sequence", "mu", "sigma", "ordinal")),
    (RatedGame, ("game_id", "club_id", "sequence", "game_version", "finished_at")),
    (
        ClubRatingState,
        ("club_id", "last_sequence", "last_finished_at", "last_game_id", "catching_up"),
    ),
]
