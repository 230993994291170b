"""The public ranking pages: a federation's ranking and a player's history across its clubs.

What it does: ``ranking`` lists the ranked players (``rankings.selectors.list_ranking``) best
first, 50 a page, with a filter form (game, club: ``rankings.filters.RankingFilter``, the API's
own; a value it refuses is a 400 page with the form's error) and the names each player chose to
show; ``player_history`` shows one player's rating and form, their form over time as a chart
drawn on the server (``form_chart``: an SVG polyline, no script, coordinates written as text in
Python, never localised), the figures beside it, their events and places and their latest games
across clubs. Anyone may read them (no login); a player who chose not to be ranked, or was
merged into another, is a 404 like one who does not exist.

What it does not do: write anything, or compute (``rankings.build`` stores what these read).

Terms: *form* — docs/rankings.md.
"""

from __future__ import annotations

from django.core.paginator import Paginator
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_safe

from rankings import representations, selectors
from rankings.filters import RankingFilter

PAGE_SIZE = 50
HISTORY_GAMES = 30
CHART_WIDTH = 320
CHART_HEIGHT = 120
CHART_MARGIN = 8


def form_chart(forms: list[float]) -> dict | None:
    """The form after each game (oldest first) as a polyline in a fixed box, with the line of
    100 (playing to one's rating). None with no game."""
    if not forms:
        return None
    lowest, highest = min([*forms, 100.0]), max([*forms, 100.0])
    span = (highest - lowest) or 1.0
    inner_width = CHART_WIDTH - 2 * CHART_MARGIN
    inner_height = CHART_HEIGHT - 2 * CHART_MARGIN

    def y_of(value: float) -> str:
        return f"{CHART_MARGIN + inner_height * (highest - value) / span:.1f}"

    count = len(forms)
    points = " ".join(
        f"{CHART_MARGIN + inner_width * index / max(count - 1, 1):.1f},{y_of(value)}"
        for index, value in enumerate(forms)
    )
    return {
        "points": points,
        "par_y": y_of(100.0),
        "width": CHART_WIDTH,
        "height": CHART_HEIGHT,
        "count": count,
        "first": forms[0],
        "last": forms[-1],
        "lowest": min(forms),
        "highest": max(forms),
    }


@require_safe
def ranking(request: HttpRequest, federation_slug: str) -> HttpResponse:
    federation = selectors.get_federation(slug=federation_slug)
    clubs = list(selectors.club_choices(federation))
    chosen = RankingFilter(request.GET, queryset=selectors.list_ranking(federation=federation))
    valid = chosen.is_valid()
    rows_queryset = chosen.qs if valid else selectors.list_ranking(federation=federation)
    page = Paginator(rows_queryset, PAGE_SIZE).get_page(request.GET.get("page"))
    rows = [
        representations.ranking_row(rating, page.start_index() + index)
        for index, rating in enumerate(page.object_list)
    ]
    query = request.GET.copy()
    query.pop("page", None)
    context = {
        "federation": federation,
        "title": federation.name,
        "rows": rows,
        "page": page,
        "query": query.urlencode(),
        "clubs": clubs,
        "variants": selectors.variant_choices(),
        "chosen_game": request.GET.get("game", ""),
        "chosen_club": request.GET.get("club", ""),
        "errors": [] if valid else [str(e) for errs in chosen.errors.values() for e in errs],
    }
    return render(request, "rankings/ranking.html", context, status=200 if valid else 400)


@require_safe
def player_history(
    request: HttpRequest, federation_slug: str, federation_player_id: int
) -> HttpResponse:
    federation = selectors.get_federation(slug=federation_slug)
    player = selectors.get_ranked_player(federation=federation, player_id=federation_player_id)
    rating = selectors.get_rating(player=player)
    row = None
    if rating is not None:
        rating.federation, rating.federation_player = federation, player
        row = representations.ranking_row(rating, selectors.position_of(rating))
    steps = [
        representations.history_step(change)
        for change in selectors.list_history(player=player)[:HISTORY_GAMES]
    ]
    forms = [step["form"] for step in reversed(steps) if step["form"] is not None]
    context = {
        "federation": federation,
        "player": player,
        "name": player.public_name,
        "title": f"{player.public_name} · {federation.name}",
        "row": row,
        "chart": form_chart(forms),
        "steps": steps,
        "placings": [
            representations.placing_row(placing)
            for placing in selectors.list_placings(player=player)
        ],
    }
    return render(request, "rankings/player.html", context)
