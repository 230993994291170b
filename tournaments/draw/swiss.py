"""Swiss rounds: tables of entrants on equal or near scores who have not met before.

What it does: ``next_round`` draws the next round of a Swiss tournament from the rounds played so
far; ``next_round_after`` draws it from their ``History`` alone (``swiss_history``: each entrant's
match points and byes, and who met whom: all the draw reads of them, which the service sums in the
database). At tables of two it solves a maximum-weight perfect matching (networkx, blossom
algorithm) whose costs put, in order of importance: no repeated opponents, no second bye, small
score gaps, then the usual Swiss order inside a score group (top half against bottom half). At
tables of more than two it groups entrants with a *heuristic*: the pairing order (below, dealt in
as many bands as a table has seats) is cut into tables, then ``improve_grouping`` swaps entrants
between tables while that lowers a cost in which one repeat outweighs every score gap; it stops at
a local minimum, so no optimum is promised (repeats may remain that a cleverer search would avoid).

What it does not do: rank the final standings (``ranking``), score byes (``ScoringRule`` does, in
``ranking``), or store anything.

Terms:
- *score*: an entrant's match points so far (as ``ranking.tally`` counts them), byes included;
  ``swiss_history.match_points`` counts only those, not the whole tally (its tie-break figures
  and fractions cost more than the pairing itself by round 12 of 500 entrants).
- *score group*: entrants on the same score; groups are numbered 0 (highest) downwards and the
  *gap* of two entrants is the difference of their group numbers.
- *pairing order*: entrants by score (highest first), then by seed (their order in ``entrants``).
  Inside a score group the order is interleaved (1, h+1, 2, h+2, ... with h half the group) so
  that neighbours in it are the preferred Swiss pairs.
- *repeat*: two entrants at one table who have met before (counted once per earlier meeting).
- *bye*: when the entrants do not fill the tables, the lowest-ranked entrants without a bye (or,
  when everyone has had one, with the fewest) sit the round out; ``ScoringRule.bye`` scores it.

Two-sided pairing tries three graphs in turn, each a repeat-free pairing or nothing until the last:
1. *score brackets*, top down: each score group, with the entrant floated down from the group
   above, is matched on its own sparse graph (each entrant's next ``WINDOW`` not-yet-met entrants
   in pairing order); an odd group floats one entrant down to the next (the lowest-ranked costs
   least), and the last group gives the bye to one of its entrants with the fewest byes (again the
   lowest-ranked costs least). A group of more than ``LARGE_BRACKET`` is matched in consecutive
   *parts* of about ``PART`` (its odd one out floating to the next part), and a group or part
   whose neighbours in the interleaved order have not met is paired with them at once: that is
   the least-cost matching there, so no search is run. A group or part with no repeat-free
   matching is merged with the one below (the last one: with the block above it) and matched
   again. So every graph searched stays small, whatever the field and the round: a round of 500
   costs a few tens of milliseconds in round 1 and about a hundred in round 12, where matching
   whole groups cost up to a second and a failed group sent the whole field (500 entrants) to
   step 2 for over three seconds (``bench/bench_jobs.py``, ``bench/bench_draw.py``).
2. when even the merged brackets have no perfect matching (every group merged into one): the
   same sparse graph over every entrant at once, a bye only to entrants with the fewest byes;
3. when that fails too: the complete graph, where a repeat costs more than every other cost
   together, so a repeat-free pairing is always found when one exists (and otherwise the fewest
   repeats). Steps 1 and 2 only ever return pairings without repeats, so none is lost by trying
   them first.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping, Sequence

import networkx as nx

from tournaments.draw.errors import N_, DrawError, check_count, check_entrants
from tournaments.draw.swiss_history import History, check_sequence, history_of
from tournaments.draw.types import (
    PlayedRound,
    RoundDraw,
    ScoringRule,
    Table,
    pair_key,
    table_sizes,
)

WINDOW = 8
# Brackets of more entrants than this are matched in parts of about PART (see _units).
LARGE_BRACKET = 32
PART = 16
SCORE_GAP_COST = 64
BYE = "bye"
FLOAT = "float"


def pairing_order(
    entrants: Sequence[int], scores: Mapping[int, int]
) -> tuple[list[int], dict[int, int]]:
    """Entrants by score then seed, and each entrant's score group number (0 = highest)."""
    seed = {entrant: index for index, entrant in enumerate(entrants)}
    order = sorted(entrants, key=lambda entrant: (-scores[entrant], seed[entrant]))
    distinct = sorted({scores[entrant] for entrant in entrants}, reverse=True)
    group_number = {score: number for number, score in enumerate(distinct)}
    return order, {entrant: group_number[scores[entrant]] for entrant in entrants}


def _interleaved(order: list[int], group: Mapping[int, int], ways: int = 2) -> list[int]:
    """``order`` with each score group dealt in ``ways`` bands and interleaved.

    A group of g splits into ``ways`` bands of g // ways, read across: with two ways
    1, h+1, 2, h+2, ... (top half against bottom half); with four, 1, 5, 9, 13, 2, 6, ... for a
    group of 16. The lowest g mod ``ways`` members follow, next to the group below.
    """
    sequence: list[int] = []
    start = 0
    while start < len(order):
        end = start
        while end < len(order) and group[order[end]] == group[order[start]]:
            end += 1
        members = order[start:end]
        band = len(members) // ways
        for index in range(band):
            sequence.extend(members[index + way * band] for way in range(ways))
        sequence.extend(members[band * ways :])
        start = end
    return sequence


def _bye_costs(order, group, byes_had, *, eligible_only: bool) -> dict[int, int]:
    """Cost of giving the bye to each candidate: lowest-ranked and fewest byes cost least."""
    fewest = min(byes_had[entrant] for entrant in order)
    bottom = group[order[-1]]
    costs: dict[int, int] = {}
    candidates = [entrant for entrant in reversed(order)]
    if eligible_only:
        candidates = [entrant for entrant in candidates if byes_had[entrant] == fewest][:WINDOW]
    for rank_from_bottom, entrant in enumerate(candidates):
        gap = bottom - group[entrant]
        costs[entrant] = SCORE_GAP_COST * gap * gap + rank_from_bottom
    return costs


def _pair_two_sided(
    order: list[int],
    group: Mapping[int, int],
    met: Mapping[tuple[int, int], int],
    byes_had: Mapping[int, int],
) -> tuple[list[tuple[int, int]], tuple[int, ...]]:
    """The pairs (higher-ranked entrant first) and the bye (empty or one entrant)."""
    sequence = _interleaved(order, group)
    need_bye = len(order) % 2 == 1
    mates = _pair_by_brackets(sequence, group, met, byes_had)
    for complete in (False, True):
        if mates is not None:
            break
        pair_costs = _pair_costs(sequence, group, met, complete=complete)
        bye_costs = (
            _bye_costs(order, group, byes_had, eligible_only=not complete) if need_bye else {}
        )
        if complete:
            # Lexicographic costs: one more repeat must outweigh any other saving, and one more
            # second bye must outweigh any saving in score gaps and order.
            other = (len(order) // 2) * max(pair_costs.values(), default=0) + max(
                bye_costs.values(), default=0
            )
            bye_step = other + 1
            fewest = min(byes_had[entrant] for entrant in order)
            most = max(byes_had[entrant] for entrant in order)
            repeat_step = bye_step * (most - fewest + 1)
            pair_costs = {
                pair: cost + repeat_step * met.get(pair_key(*pair), 0)
                for pair, cost in pair_costs.items()
            }
            bye_costs = {
                entrant: cost + bye_step * (byes_had[entrant] - fewest)
                for entrant, cost in bye_costs.items()
            }
        costs = {**pair_costs, **{(BYE, entrant): cost for entrant, cost in bye_costs.items()}}
        # The complete graph always has a perfect matching: every pair and every bye is an edge.
        mates = _matched(sequence + [BYE] * need_bye, costs)
    pairs, bye = [], ()
    for first, second in mates:
        if BYE in (first, second):
            bye = (second if first == BYE else first,)
        else:
            pairs.append((first, second))
    rank = {entrant: index for index, entrant in enumerate(order)}
    pairs = [
        (first, second) if rank[first] < rank[second] else (second, first)
        for first, second in pairs
    ]
    pairs.sort(key=lambda pair: rank[pair[0]])
    return pairs, bye


def _matched(nodes: list, costs: Mapping[tuple, int]) -> set[tuple] | None:
    """A perfect matching of ``nodes`` of least total cost over the edges of ``costs``, or None."""
    graph = nx.Graph()
    graph.add_nodes_from(nodes)
    ceiling = max(costs.values(), default=0) + 1
    for (first, second), cost in costs.items():
        # Floats holding whole numbers (exact below 2**53): networkx then skips the check of its
        # own optimum that it runs on integer weights, which costs as much as the matching.
        graph.add_edge(first, second, weight=float(ceiling - cost))
    mates = nx.max_weight_matching(graph, maxcardinality=True)
    return mates if len(mates) * 2 == len(nodes) else None


def _units(brackets: list[list[int]]) -> list[tuple[list[int], bool]]:
    """Each bracket as it is, or (over ``LARGE_BRACKET`` entrants) cut into consecutive *parts*
    of about ``PART`` entrants in the interleaved order, even-sized but the last; with whether
    it is such a part."""
    units: list[tuple[list[int], bool]] = []
    for bracket in brackets:
        if len(bracket) <= LARGE_BRACKET:
            units.append((bracket, False))
            continue
        parts = round(len(bracket) / PART)
        size = len(bracket) // parts // 2 * 2
        for index in range(parts):
            stop = (index + 1) * size if index < parts - 1 else len(bracket)
            units.append((bracket[index * size : stop], True))
    return units


def _adjacent_pairs(
    members: list[int], group: Mapping[int, int], met: Mapping[tuple[int, int], int]
) -> list[tuple[int, int]] | None:
    """Neighbours in the interleaved order paired (the last one left over when odd), when no
    such pair has met and everyone but a floater on top shares one score group; else None.

    Then it is *the* least-cost matching of the unit (the one ``_matched`` would find): every
    pair costs nothing, a floater on top pays its gap whoever it meets, and the one left over
    is the cheapest to float or to sit out (the lowest-ranked; for the bye, when it has the
    fewest byes), and any other pairing pairs someone further than a neighbour."""
    body = members[1:] if group[members[0]] != group[members[-1]] else members
    if len({group[entrant] for entrant in body}) != 1:
        return None
    even = members[: len(members) // 2 * 2]
    pairs = [(even[index], even[index + 1]) for index in range(0, len(even), 2)]
    if any(met.get(pair_key(*pair), 0) for pair in pairs):
        return None
    return pairs


def _pair_by_brackets(
    sequence: list[int],
    group: Mapping[int, int],
    met: Mapping[tuple[int, int], int],
    byes_had: Mapping[int, int],
) -> set[tuple] | None:
    """Pairs (and the bye) matched score group by score group, or None when even the brackets
    merged as below cannot be.

    Every pair is between entrants who have not met; see the module docstring (step 1). A
    bracket with no repeat-free matching is merged with the group below (its members all float
    down) and matched again; when the last bracket fails, it is merged with the block matched
    just above it, whose pairs are undone. A large bracket is matched in parts (``_units``), a
    part whose neighbours have not met needing no search at all (``_adjacent_pairs``). So every
    graph matched stays small, and a bracket that cannot be paired never costs the whole field.
    """
    fewest = min(byes_had[entrant] for entrant in sequence)
    brackets: list[list[int]] = []
    for entrant in sequence:
        if brackets and group[brackets[-1][0]] == group[entrant]:
            brackets[-1].append(entrant)
        else:
            brackets.append([entrant])
    units = _units(brackets)

    def match_block(start: int, end: int, members: list[int]):
        last = end == len(units)
        odd = len(members) % 2 == 1
        if end == start + 1 and not (last and odd and byes_had[members[-1]] != fewest):
            pairs = _adjacent_pairs(members, group, met)
            if pairs is not None:
                if odd and last:
                    return {*pairs, (BYE, members[-1])}, []
                return set(pairs), members[-1:] if odd else []
        costs: dict[tuple, int] = dict(_pair_costs(members, group, met, complete=False))
        nodes: list = list(members)
        if odd:
            # The odd one out floats to the part or group below, or (from the last group) takes
            # the bye.
            lowest = group[units[end - 1][0][0]]
            destination = lowest if last or group[units[end][0][0]] == lowest else lowest + 1
            nodes.append(BYE if last else FLOAT)
            for rank_from_bottom, entrant in enumerate(reversed(members)):
                if last and byes_had[entrant] != fewest:
                    continue
                gap = destination - group[entrant]
                costs[(nodes[-1], entrant)] = SCORE_GAP_COST * gap * gap + rank_from_bottom
        found = _matched(nodes, costs)
        if found is None:
            return None
        mates, floater = set(), []
        for first, second in found:
            if FLOAT in (first, second):
                floater = [second if first == FLOAT else first]
            else:
                mates.add((first, second))
        return mates, floater

    # Blocks matched so far, top down: (first unit, incoming floater, pairs).
    blocks: list[tuple[int, list[int], set[tuple]]] = []
    start, incoming = 0, []
    while start < len(units):
        end = start + 1
        while True:
            members = incoming + [entrant for unit, _ in units[start:end] for entrant in unit]
            found = match_block(start, end, members)
            if found is not None:
                break
            if end < len(units):
                end += 1  # merge with the part or group below
                continue
            if not blocks:
                return None
            start, incoming, _ = blocks.pop()  # merge with the block above
        mates, floater = found
        blocks.append((start, incoming, mates))
        start, incoming = end, floater
    return {pair for _, _, mates in blocks for pair in mates}


def _pair_costs(sequence, group, met, *, complete: bool) -> dict[tuple[int, int], int]:
    """Edge costs: score gap squared (heavily) plus distance in the interleaved order."""
    costs: dict[tuple[int, int], int] = {}
    for index, first in enumerate(sequence):
        found = 0
        for other_index in range(index + 1, len(sequence)):
            second = sequence[other_index]
            if not complete and met.get(pair_key(first, second), 0):
                continue
            gap = group[first] - group[second]
            distance = min(other_index - index - 1, WINDOW)
            costs[(first, second)] = SCORE_GAP_COST * gap * gap + distance
            found += 1
            if not complete and found == WINDOW:
                break
    return costs


def improve_grouping(
    tables: list[list[int]], pair_cost: Callable[[int, int], int], *, max_passes: int = 50
) -> list[list[int]]:
    """A heuristic: swap entrants between tables while a swap lowers the summed pair costs.

    The cost of a grouping is the sum of ``pair_cost`` over every two entrants sharing a table.
    Passes try every swap of two entrants at different tables in a fixed order and keep any that
    lowers the cost, until a pass changes nothing (a local minimum) or ``max_passes`` is reached.
    Table sizes never change. Deterministic; not guaranteed optimal.
    """
    tables = [list(table) for table in tables]

    def cost_with(entrant: int, table: list[int], skip: int) -> int:
        return sum(pair_cost(entrant, other) for other in table if other != skip)

    for _ in range(max_passes):
        changed = False
        for first_index, first_table in enumerate(tables):
            for second_table in tables[first_index + 1 :]:
                for seat, entrant in enumerate(first_table):
                    for other_seat, other in enumerate(second_table):
                        before = cost_with(entrant, first_table, entrant) + cost_with(
                            other, second_table, other
                        )
                        after = cost_with(other, first_table, entrant) + cost_with(
                            entrant, second_table, other
                        )
                        if after < before:
                            first_table[seat], second_table[other_seat] = other, entrant
                            entrant = other
                            changed = True
        if not changed:
            break
    return tables


def _group_tables(
    order: list[int],
    group: Mapping[int, int],
    met: Mapping[tuple[int, int], int],
    byes_had: Mapping[int, int],
    sizes: tuple[int, ...],
    bye_count: int,
) -> tuple[list[list[int]], tuple[int, ...]]:
    """Tables of more than two: byes to the lowest-ranked, interleaved chunks, then swaps."""
    rank = {entrant: index for index, entrant in enumerate(order)}
    by_bye_need = sorted(order, key=lambda entrant: (byes_had[entrant], -rank[entrant]))
    byes = tuple(sorted(by_bye_need[:bye_count], key=rank.__getitem__))
    playing = _interleaved([entrant for entrant in order if entrant not in byes], group, sizes[0])
    tables, start = [], 0
    for size in sizes:
        tables.append(playing[start : start + size])
        start += size
    widest_gap = max(group.values(), default=0)
    pairs_per_round = sum(size * (size - 1) // 2 for size in sizes)
    repeat_cost = widest_gap * widest_gap * pairs_per_round + 1

    def pair_cost(first: int, second: int) -> int:
        gap = group[first] - group[second]
        return repeat_cost * met.get(pair_key(first, second), 0) + gap * gap

    tables = improve_grouping(tables, pair_cost)
    tables = [sorted(table, key=rank.__getitem__) for table in tables]
    tables.sort(key=lambda table: rank[table[0]])
    return tables, byes


def _check_rounds_left(drawn: int, total_rounds: int) -> None:
    if drawn >= total_rounds:
        raise DrawError(
            "tournament_complete",
            N_("all %(total_rounds)s rounds have already been drawn"),
            params={"total_rounds": total_rounds},
        )


def next_round(
    entrants: Sequence[int],
    rounds: Sequence[PlayedRound],
    *,
    total_rounds: int,
    table_size: int = 2,
    min_table_size: int | None = None,
    scoring: ScoringRule | None = None,
) -> RoundDraw:
    """The next Swiss round after ``rounds`` (every one complete), for ``entrants`` in seed order.

    Tables come best-ranked first, each in rank order (seat 0 the higher-ranked). With
    ``min_table_size`` (tables of more than two), short tables replace byes when they can
    (``types.table_sizes``). Raises ``round_incomplete``, ``tournament_complete`` after
    ``total_rounds``, ``too_few_entrants``, and the entrant and result errors of ``types``.
    """
    entrants = check_entrants(entrants, minimum=1)
    total_rounds = check_count("total_rounds", total_rounds, minimum=1)
    shape = table_sizes(len(entrants), table_size, min_table_size)
    check_sequence(rounds)
    _check_rounds_left(len(rounds), total_rounds)  # before the rounds themselves are checked
    return _draw(entrants, history_of(entrants, rounds, scoring), table_size, shape)


def next_round_after(
    entrants: Sequence[int],
    history: History,
    *,
    total_rounds: int,
    table_size: int = 2,
    min_table_size: int | None = None,
) -> RoundDraw:
    """``next_round`` from a ``History`` of the rounds played, for ``entrants`` in seed order
    (those drawn this round: an entrant of the history who is not among them sits it out, and
    one new to the history starts on no points). Raises ``tournament_complete`` after
    ``total_rounds``, ``too_few_entrants`` and the entrant errors of ``types``."""
    entrants = check_entrants(entrants, minimum=1)
    total_rounds = check_count("total_rounds", total_rounds, minimum=1)
    shape = table_sizes(len(entrants), table_size, min_table_size)
    _check_rounds_left(history.rounds, total_rounds)
    return _draw(entrants, history, table_size, shape)


def _draw(
    entrants: Sequence[int],
    history: History,
    table_size: int,
    shape: tuple[tuple[int, ...], int],
) -> RoundDraw:
    """The pairing itself, for checked ``entrants`` and the ``shape`` of the round (the tables'
    sizes and the bye count, ``types.table_sizes``)."""
    sizes, bye_count = shape
    scores = {entrant: history.scores.get(entrant, 0) for entrant in entrants}
    order, group = pairing_order(entrants, scores)
    met = history.met
    byes_had = Counter({entrant: history.byes.get(entrant, 0) for entrant in entrants})
    if table_size == 2:
        pairs, byes = _pair_two_sided(order, group, met, byes_had)
        return RoundDraw(tuple(Table(pair) for pair in pairs), byes)
    tables, byes = _group_tables(order, group, met, byes_had, sizes, bye_count)
    return RoundDraw(tuple(Table(tuple(table)) for table in tables), byes)
