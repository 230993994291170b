"""Standings for any format: totals per entrant, ordered by a configurable chain of tie-breaks.

What it does: adds up each entrant's match results and byes into a ``Tally``, then orders the
entrants by an optional ``primary`` key (a knockout passes how far each entrant got) followed by
the chain of criteria in ``tie_breaks``, and numbers them 1, 2, 2, 4 ... (entrants still level
after the whole chain share a rank). Drawing of lots is reproducible: it derives from a stored seed.

What it does not do: decide matches (``matches``), store standings, or know which format is played.

Criteria (every one is "higher is better"):
- ``match_points``: points from ``ScoringRule`` for wins, draws, losses and byes.
- ``match_wins``: matches won (a bye counts when ``ScoringRule.bye_is_match_win``).
- ``games_won``: games won across matches.
- ``points_for``: points scored; ``points_difference``: points for minus points against, where
  *points against* in one match is the average of the opponents' points (at a table of two, simply
  the opponent's points), kept exact as a ``Fraction``.
- ``tricks_won``: tricks taken.
- ``head_to_head``: among the entrants still tied, the results of matches between them only: at
  each such table an entrant scores 2 for every tied opponent it finished above and 1 for every
  one it finished level with. When this splits the group but leaves a smaller group tied, it is
  applied again to that smaller group alone, before moving on down the chain.
- ``buchholz``: the sum of the match points of every opponent met, once per meeting.
- ``lots``: a number drawn for each entrant from ``seed`` (SHA-256 of seed and id): the same seed
  always gives the same order, and it always separates entrants.
"""

from __future__ import annotations

import hashlib
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction

from tournaments.draw.errors import N_, DrawError, check_entrant_id, check_entrants
from tournaments.draw.types import MatchResult, ScoringRule

TIE_BREAKS = (
    "match_points",
    "match_wins",
    "games_won",
    "points_for",
    "points_difference",
    "tricks_won",
    "head_to_head",
    "buchholz",
    "lots",
)
DEFAULT_TIE_BREAKS = ("match_points", "head_to_head", "games_won", "points_difference", "lots")


@dataclass(frozen=True)
class Tally:
    """What one entrant has done: counts over its matches and byes."""

    entrant: int
    matches_played: int = 0
    match_wins: int = 0
    match_draws: int = 0
    match_losses: int = 0
    byes: int = 0
    match_points: int = 0
    games_won: int = 0
    points_for: int = 0
    points_against: Fraction = Fraction(0)
    tricks_won: int = 0
    opponents: tuple[int, ...] = ()

    @property
    def points_difference(self) -> Fraction:
        return self.points_for - self.points_against


@dataclass(frozen=True)
class Standing:
    """One line of the standings: the rank, the tally, and the values the chain compared."""

    rank: int
    entrant: int
    tally: Tally
    buchholz: int
    lot: int
    values: dict[str, object] = field(default_factory=dict, compare=False, hash=False)


def lot(seed: int | str, entrant: int) -> int:
    """The drawing-of-lots number of ``entrant`` under ``seed`` (the same on every machine)."""
    digest = hashlib.sha256(f"{seed}:{entrant}".encode()).digest()
    return int.from_bytes(digest[:8], "big")


def tally(
    entrants: Sequence[int],
    results: Iterable[MatchResult],
    *,
    byes: Iterable[int] | Mapping[int, int] = (),
    scoring: ScoringRule | None = None,
) -> dict[int, Tally]:
    """Each entrant's ``Tally`` from ``results`` and ``byes`` (ids, once per bye, or id -> count).

    Raises ``invalid_entrant`` when a result or bye names an entrant not in ``entrants``.
    """
    scoring = scoring or ScoringRule()
    entrants = check_entrants(entrants, minimum=0)
    counts: dict[int, dict] = {
        entrant: {"opponents": [], "points_against": Fraction(0)} for entrant in entrants
    }
    bye_counts = Counter(byes) if not isinstance(byes, Mapping) else Counter(dict(byes))
    for entrant, number in bye_counts.items():
        if check_entrant_id(entrant) not in counts:
            raise DrawError(
                "invalid_entrant",
                N_("bye for unknown entrant %(entrant)s"),
                params={"entrant": entrant},
            )
        line = counts[entrant]
        line["byes"] = number
        line["match_points"] = scoring.bye * number
        if scoring.bye_is_match_win:
            line["match_wins"] = number
    points_by_outcome = {"win": scoring.win, "draw": scoring.draw, "loss": scoring.loss}
    counter_of = {"win": "match_wins", "draw": "match_draws", "loss": "match_losses"}
    # Points against per match are the opponents' average: a whole number at a table of two
    # (kept as an int, summed once into the Fraction at the end), a fraction otherwise.
    whole_against = dict.fromkeys(counts, 0)
    for result in results:
        table = result.table
        entrants_at = table.entrants
        for entrant in entrants_at:
            if entrant not in counts:
                raise DrawError(
                    "invalid_entrant",
                    N_("result for unknown entrant %(entrant)s"),
                    params={"entrant": entrant},
                )
        first = set(result.placings[0])
        side_of = {member: side for side in table.all_sides for member in side}
        games, points, tricks = result.games_won, result.points, result.tricks
        for index, entrant in enumerate(entrants_at):
            line = counts[entrant]
            side = side_of[entrant]
            if entrant not in first:
                outcome = "loss"
            else:
                outcome = "win" if first == set(side) else "draw"
            opponents = [other for other in entrants_at if other not in side]
            line["matches_played"] = line.get("matches_played", 0) + 1
            key = counter_of[outcome]
            line[key] = line.get(key, 0) + 1
            line["match_points"] = line.get("match_points", 0) + points_by_outcome[outcome]
            line["games_won"] = line.get("games_won", 0) + (games[index] if games else 0)
            line["points_for"] = line.get("points_for", 0) + (points[index] if points else 0)
            line["tricks_won"] = line.get("tricks_won", 0) + (tricks[index] if tricks else 0)
            line["opponents"].extend(opponents)
            if opponents and points:
                against = sum(
                    points[position]
                    for position, other in enumerate(entrants_at)
                    if other not in side
                )
                if len(opponents) == 1:
                    whole_against[entrant] += against
                else:
                    line["points_against"] += Fraction(against, len(opponents))
    for entrant, line in counts.items():
        if whole_against[entrant]:
            line["points_against"] += whole_against[entrant]
    return {
        entrant: Tally(entrant=entrant, **{**line, "opponents": tuple(line["opponents"])})
        for entrant, line in counts.items()
    }


def _check_chain(tie_breaks: Sequence[str]) -> tuple[str, ...]:
    if isinstance(tie_breaks, str):
        raise DrawError("invalid_option", N_("tie_breaks must be a sequence of criterion names"))
    chain = tuple(tie_breaks)
    for criterion in chain:
        if criterion not in TIE_BREAKS:
            raise DrawError(
                "invalid_option",
                N_("unknown tie-break %(criterion)r; choose from %(TIE_BREAKS)s"),
                params={"criterion": criterion, "TIE_BREAKS": TIE_BREAKS},
            )
    if len(set(chain)) != len(chain):
        raise DrawError(
            "invalid_option",
            N_("tie-break chain %(chain)r repeats a criterion"),
            params={"chain": chain},
        )
    return chain


class _Meetings:
    """The results indexed once for head to head: each entrant's results, and per result each
    entrant's rank and side, so a tied group reads only its members' results."""

    def __init__(self, results: Sequence[MatchResult]):
        self.results = results
        self.of_entrant: dict[int, list[int]] = {}
        self.ranks: list[dict[int, int] | None] = [None] * len(results)
        for index, result in enumerate(results):
            for entrant in result.table.entrants:
                self.of_entrant.setdefault(entrant, []).append(index)

    def _ranks_of(self, index: int) -> dict[int, int]:
        ranks = self.ranks[index]
        if ranks is None:
            ranks = self.ranks[index] = {
                entrant: place
                for place, group in enumerate(self.results[index].placings, start=1)
                for entrant in group
            }
        return ranks

    def head_to_head(self, group: Sequence[int]) -> dict[int, int]:
        """At each table where two or more of ``group`` met: 2 for every one of them an entrant
        finished above, 1 for every one level with it (partners do not count)."""
        members = set(group)
        scores = dict.fromkeys(group, 0)
        seen: set[int] = set()
        for member in group:
            for index in self.of_entrant.get(member, ()):
                if index in seen:
                    continue
                seen.add(index)
                table = self.results[index].table
                present = [entrant for entrant in table.entrants if entrant in members]
                if len(present) < 2:
                    continue
                ranks = self._ranks_of(index)
                for entrant in present:
                    side = table.side_of(entrant) if table.sides else (entrant,)
                    rank = ranks[entrant]
                    for other in present:
                        if other in side:
                            continue
                        other_rank = ranks[other]
                        if rank < other_rank:
                            scores[entrant] += 2
                        elif rank == other_rank:
                            scores[entrant] += 1
        return scores


def compute_standings(
    entrants: Sequence[int],
    results: Iterable[MatchResult],
    *,
    byes: Iterable[int] | Mapping[int, int] = (),
    scoring: ScoringRule | None = None,
    tie_breaks: Sequence[str] = DEFAULT_TIE_BREAKS,
    seed: int | str = 0,
    primary: Mapping[int, object] | None = None,
) -> tuple[Standing, ...]:
    """The standings, best first.

    ``primary`` (entrant -> comparable value, higher better) orders before the chain; every
    entrant must have one when it is given. ``tie_breaks`` is the chain, from ``TIE_BREAKS``.
    """
    chain = _check_chain(tie_breaks)
    results = list(results)
    tallies = tally(entrants, results, byes=byes, scoring=scoring)
    if primary is not None:
        missing = set(tallies) - set(primary)
        if missing:
            raise DrawError(
                "invalid_option",
                N_("primary key missing for entrants %(sorted_missing)s"),
                params={"sorted_missing": sorted(missing)},
            )
    buchholz = {
        entrant: sum(tallies[opponent].match_points for opponent in line.opponents)
        for entrant, line in tallies.items()
    }
    lots = {entrant: lot(seed, entrant) for entrant in tallies}
    global_values = {
        "match_points": lambda entrant: tallies[entrant].match_points,
        "match_wins": lambda entrant: tallies[entrant].match_wins,
        "games_won": lambda entrant: tallies[entrant].games_won,
        "points_for": lambda entrant: tallies[entrant].points_for,
        "points_difference": lambda entrant: tallies[entrant].points_difference,
        "tricks_won": lambda entrant: tallies[entrant].tricks_won,
        "buchholz": lambda entrant: buchholz[entrant],
        "lots": lambda entrant: lots[entrant],
    }
    recorded: dict[int, dict[str, object]] = {entrant: {} for entrant in tallies}
    meetings = _Meetings(results) if "head_to_head" in chain else None

    def split(group: list[int], value_of) -> list[list[int]]:
        """``group`` split into blocks of equal value, best block first."""
        ordered = sorted(group, key=value_of, reverse=True)
        blocks: list[list[int]] = []
        for entrant in ordered:
            if blocks and value_of(blocks[-1][0]) == value_of(entrant):
                blocks[-1].append(entrant)
            else:
                blocks.append([entrant])
        return blocks

    def order(group: list[int], position: int) -> list[list[int]]:
        """``group`` (tied so far) as ordered blocks of entrants still tied after the chain."""
        if len(group) == 1 or position == len(chain):
            return [group]
        criterion = chain[position]
        if criterion == "head_to_head":
            scores = meetings.head_to_head(group)
            for entrant in group:
                recorded[entrant][criterion] = scores[entrant]
            blocks = split(group, scores.__getitem__)
            if len(blocks) == 1:
                return order(group, position + 1)
            # A smaller tied block is judged again on its own meetings (re-applied head to head).
            return [part for block in blocks for part in order(block, position)]
        value_of = global_values[criterion]
        for entrant in group:
            recorded[entrant][criterion] = value_of(entrant)
        return [part for block in split(group, value_of) for part in order(block, position + 1)]

    everyone = sorted(tallies)
    if primary is not None:
        top_blocks = split(everyone, primary.__getitem__)
    else:
        top_blocks = [everyone]
    standings: list[Standing] = []
    for top_block in top_blocks:
        for block in order(top_block, 0):
            rank = len(standings) + 1
            for entrant in sorted(block):
                values = dict(recorded[entrant])
                if primary is not None:
                    values = {"primary": primary[entrant], **values}
                standings.append(
                    Standing(
                        rank=rank,
                        entrant=entrant,
                        tally=tallies[entrant],
                        buchholz=buchholz[entrant],
                        lot=lots[entrant],
                        values=values,
                    )
                )
    return tuple(standings)
