"""A player's rating change over an event and their season position, for the results message.

What it does: ``results_figures(club_id, player_ids, game_ids)`` — for each player, the change of
their rating (the ordinal, mu - 3 sigma) over the event's games as rated so far (their rating
after the event's last rated game minus their rating before its first; 0 before a player's first
game: OpenSkill's newcomer, 25 - 3 × 25/3), their rating now, and their place in this season's
table with its size (``seasons.league_table.read_season``). Named in ``JINK_RESULTS_MAIL_FIGURES``:
settlements, which sends the message, does not import seasons.

What it does not do: rate anything (``seasons.ratings``: a game not rated yet by the time the
message goes is simply not in the change) or format numbers (the message does).
"""

from __future__ import annotations

from collections import defaultdict

from clubs.models import Club
from seasons.league_table import read_season
from seasons.models import RatingChange

NEWCOMER_ORDINAL = 0.0


def results_figures(*, club_id: int, player_ids: list[int], game_ids: list[int]) -> dict:
    """Player id -> ``{"rating_change", "rating", "season_place", "season_size"}`` (a rating
    figure is None for a player none of whose event games is rated)."""
    in_event = defaultdict(list)
    for player_id, sequence in RatingChange.objects.filter(
        player_id__in=player_ids, game_id__in=game_ids
    ).values_list("player_id", "sequence"):
        in_event[player_id].append(sequence)
    history = defaultdict(list)
    if in_event:
        last = max(max(sequences) for sequences in in_event.values())
        for player_id, sequence, ordinal in (
            RatingChange.objects.filter(player_id__in=list(in_event), sequence__lte=last)
            .order_by("player_id", "sequence")
            .values_list("player_id", "sequence", "ordinal")
        ):
            history[player_id].append((sequence, ordinal))
    season = read_season(Club.objects.get(pk=club_id))
    places = {row["player"]["id"]: row["rank"] for row in season["rows"]}
    figures = {}
    for player_id in player_ids:
        change = rating = None
        if player_id in in_event:
            first, last = min(in_event[player_id]), max(in_event[player_id])
            steps = history[player_id]
            before = [ordinal for sequence, ordinal in steps if sequence < first]
            rating = next(ordinal for sequence, ordinal in steps if sequence == last)
            change = rating - (before[-1] if before else NEWCOMER_ORDINAL)
        figures[player_id] = {
            "rating_change": change,
            "rating": rating,
            "season_place": places.get(player_id),
            "season_size": len(season["rows"]),
        }
    return figures
