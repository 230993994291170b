"""Deciding a match from the winners of its games: best of N, or first to K.

What it does: given the entrant who won each game of a match so far (in order), says whether the
match is decided and by whom, and turns a decided match into a ``MatchResult`` the draw modules
advance and rank with.

What it does not do: score hands or games (the rules engine does), or store anything.

Terms:
- *game*: one game to a target score; it always has a winner (a tied hand is replayed).
- *match*: the games the same table plays in one round of a tournament.
- ``best_of`` N: decided as soon as one side has won more games than any other side could still
  reach in the N games; if N games leave several sides level at the top, play goes on and the
  first game that leaves one side alone in front decides it (a play-off).
- ``first_to`` K: decided when a side has won K games.
- A game won by any member of a side counts for that side (partners win together).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from tournaments.draw.errors import N_, DrawError, check_count, check_entrant_id
from tournaments.draw.types import MatchResult, Table

MATCH_MODES = ("best_of", "first_to")


def _check_mode(mode: str, games: int) -> None:
    if mode not in MATCH_MODES:
        raise DrawError(
            "invalid_option",
            N_("match mode must be one of %(MATCH_MODES)s, got %(mode)r"),
            params={"MATCH_MODES": MATCH_MODES, "mode": mode},
        )
    check_count("games per match", games, minimum=1)


def _decided_after(wins: Mapping[object, int], played: int, mode: str, games: int) -> object:
    """The side that has decided the match after ``played`` games, or None."""
    if not wins:
        return None
    ordered = sorted(wins.items(), key=lambda item: -item[1])
    leader, leader_wins = ordered[0]
    if mode == "first_to":
        return leader if leader_wins >= games else None
    runner_up_wins = ordered[1][1] if len(ordered) > 1 else 0
    remaining = max(games - played, 0)
    return leader if leader_wins > runner_up_wins + remaining else None


def decide_match(
    game_winners: Sequence[int],
    mode: str = "best_of",
    games: int = 1,
    *,
    entrants: Sequence[int] | None = None,
) -> int | None:
    """The entrant who has won the match, or None while it is undecided.

    ``game_winners`` lists the winner of each game played, in order; ``games`` is N of best-of-N
    or K of first-to-K. With ``entrants`` given, every winner must be one of them
    (``invalid_entrant``); the entrants also count as sides still able to catch up. A game listed
    after the one that decided the match raises ``match_decided``.
    """
    _check_mode(mode, games)
    wins: dict[object, int] = {check_entrant_id(entrant): 0 for entrant in entrants or ()}
    for played, winner in enumerate(game_winners, start=1):
        check_entrant_id(winner)
        if entrants is not None and winner not in wins:
            raise DrawError(
                "invalid_entrant",
                N_("game %(played)s winner %(winner)s is not in the match"),
                params={"played": played, "winner": winner},
            )
        if _decided_after(wins, played - 1, mode, games) is not None:
            raise DrawError(
                "match_decided",
                N_("game %(played)s was played after the match ended"),
                params={"played": played},
            )
        wins[winner] = wins.get(winner, 0) + 1
    return _decided_after(wins, len(game_winners), mode, games)  # type: ignore[return-value]


def match_result(
    table: Table,
    game_winners: Sequence[int],
    *,
    mode: str = "best_of",
    games: int = 1,
    points: Mapping[int, int] | None = None,
    tricks: Mapping[int, int] | None = None,
) -> MatchResult | None:
    """The ``MatchResult`` of a decided match at ``table``, or None while it is undecided.

    Placings: the winning side first, then the other sides by games won and, among those level on
    games, by ``points`` (highest first); sides level on both share a placing group.
    ``games_won`` is filled from ``game_winners``; ``points`` and ``tricks`` are passed through.
    """
    _check_mode(mode, games)
    side_of = {entrant: side for side in table.all_sides for entrant in side}
    side_winners = []
    for number, winner in enumerate(game_winners, start=1):
        if check_entrant_id(winner) not in side_of:
            raise DrawError(
                "invalid_entrant",
                N_("game %(number)s winner %(winner)s is not at the table"),
                params={"number": number, "winner": winner},
            )
        side_winners.append(side_of[winner])
    side_ids = {side: index for index, side in enumerate(table.all_sides)}
    decider = decide_match(
        [side_ids[side] for side in side_winners],
        mode,
        games,
        entrants=list(side_ids.values()),
    )
    if decider is None:
        return None
    side_wins = {side: side_winners.count(side) for side in table.all_sides}
    points = dict(points or {})

    def side_points(side: tuple[int, ...]) -> int:
        return max((points.get(entrant, 0) for entrant in side), default=0)

    winning_side = table.all_sides[decider]
    others = [side for side in table.all_sides if side != winning_side]
    others.sort(key=lambda side: (-side_wins[side], -side_points(side)))
    placings: list[tuple[int, ...]] = [winning_side]
    previous_key = None
    for side in others:
        key = (side_wins[side], side_points(side))
        if key == previous_key:
            placings[-1] = placings[-1] + side
        else:
            placings.append(side)
        previous_key = key
    games_won = {entrant: side_wins[side_of[entrant]] for entrant in table.entrants}
    return MatchResult.build(
        table, placings, games_won=games_won, points=points or None, tricks=tricks
    )
