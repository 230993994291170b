"""Live pages: the entity tag of what a page shows, and the poll's conditional requests.

What it does: the event and game pages are polled every 10–20 seconds by
``static/js/pages/live.js`` with ``If-None-Match``. ``tournament_etag`` and ``game_etag`` read
one cheap row (``tournaments.selectors.get_tournament_live_state``,
``games.selectors.get_game_live_state``: versions, counts and the reader's role and player) and
build a weak entity tag from it, the language and whose "tonight" panel is shown;
``not_modified_or_none`` answers ``304 Not Modified`` when the poll's tag still matches — after
checking the reader may read the page, with the same answer (404) the page itself would give — so
a poll that finds nothing new costs that one query. ``with_live_headers`` puts the tag on the full
page (and tells caches to revalidate every time). ``render_live`` answers the poll that finds a
change (header ``X-Jink-Poll``) with the live region alone — the only part the module swaps in —
and the page otherwise; both go out compressed when the browser accepts it (``gzip_page``, on the
views), so a changed poll costs a few kilobytes, not the whole page (``make bench`` prints both).

Names are part of what a page shows: renaming the club, a player or a team (or changing a
team's members, ``clubs.services``) grows the club's ``names_version``, read in the same query
and part of every tag, so the open pages show the new name at their next poll.

What it does not do: render anything or decide what a page shows. A game page of a round not
yet released is a 404 for all but the club's organisers (a private draw), its poll too; the
event page's tag of a non-organiser leaves the unreleased rounds out (``draft_…``).
The event page reads the stored standings (``tournaments.snapshots``), so the snapshot's version
is part of its tag: the job that stores new standings after a result changes the tag too.

Terms: *weak tag* — ``W/"…"``: two responses with the same tag show the same thing, though not
necessarily byte for byte (the "updated at" time differs).
"""

from __future__ import annotations

import hashlib

from django.http import Http404, HttpRequest, HttpResponse, HttpResponseNotModified
from django.shortcuts import render
from django.utils.cache import patch_vary_headers
from django.utils.translation import get_language

from games.selectors import get_game_live_state
from tournaments.selectors import get_tournament_live_state

# The page's own poll interval (seconds); a test may shorten it with ``?poll=`` (see live.js).
POLL_SECONDS = 15
# The header live.js sends with its poll: the answer to it is the live region alone.
POLL_HEADER = "X-Jink-Poll"


def _tag(*parts) -> str:
    digest = hashlib.sha256("|".join(str(part) for part in parts).encode()).hexdigest()[:24]
    return f'W/"{digest}"'


def tournament_etag(request: HttpRequest, slug: str, tournament_id: int, viewer: int | None):
    """The tag of a tournament page for this reader; Http404 when they may not read it.

    ``viewer`` is the player picked on the club page (a cookie) when the reader has no player of
    their own; the state's ``viewer_player`` (the reader's linked player) wins.
    """
    state = get_tournament_live_state(
        tournament_id=tournament_id, club_slug=slug, user=request.user
    )
    if state is None or not (state["is_public"] or state["viewer_role"]):
        raise Http404("No tournament with this id in this club.")
    player = state["viewer_player"] or viewer
    # Rounds not yet released change only an organiser's tag: a player's poll learns nothing of
    # a private draw until it is released.
    drafts = (
        (
            state["draft_games"],
            state["draft_game_versions"],
            state["draft_matches_count"],
            state["draft_matches_changed"],
        )
        if state["viewer_role"] == "organiser"
        else ()
    )
    return _tag(
        "tournament",
        tournament_id,
        state["version"],
        state["games"],
        state["game_versions"],
        state["matches_count"],
        state["matches_changed"],
        state["viewer_role"],
        state["club_is_public"],
        player,
        get_language(),
        state["standings_version"],
        state["names_version"],
        *drafts,
    ), state


def game_etag(request: HttpRequest, slug: str, game_id: int, viewer: int | None):
    """The tag of a game page for this reader; Http404 when they may not read it."""
    state = get_game_live_state(game_id=game_id, club_slug=slug, user=request.user)
    if state is None or not (state["club_is_public"] or state["viewer_role"]):
        raise Http404("No game with this id in this club.")
    # A game of a round not yet released is there for the organisers only (a private draw).
    if state["in_private_draw"] and state["viewer_role"] != "organiser":
        raise Http404("No game with this id in this club.")
    player = state["viewer_player"] or viewer
    return _tag(
        "game",
        game_id,
        state["version"],
        state["viewer_role"],
        state["club_is_public"],
        player,
        get_language(),
        state["names_version"],
    ), state


def not_modified_or_none(request: HttpRequest, etag: str) -> HttpResponse | None:
    """``304`` when the request's ``If-None-Match`` names ``etag`` (weak comparison)."""
    sent = request.headers.get("If-None-Match", "")
    tags = {tag.strip().removeprefix("W/") for tag in sent.split(",") if tag.strip()}
    if etag.removeprefix("W/") in tags or "*" in tags:
        response = HttpResponseNotModified()
        return with_live_headers(response, etag)
    return None


def with_live_headers(response: HttpResponse, etag: str) -> HttpResponse:
    response["ETag"] = etag
    response["Cache-Control"] = "no-cache"
    patch_vary_headers(response, ("Cookie", "Accept-Language", POLL_HEADER))
    return response


def is_poll(request: HttpRequest) -> bool:
    """Whether the request is live.js's poll (it swaps in the live region only)."""
    return bool(request.headers.get(POLL_HEADER))


def render_live(
    request: HttpRequest, page_template: str, region_template: str, context: dict, etag: str
) -> HttpResponse:
    """The page, or for the poll the live region alone (``region_template``), with the tag."""
    template = region_template if is_poll(request) else page_template
    return with_live_headers(render(request, template, context), etag)
