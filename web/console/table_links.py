"""The tables of a round and their links as the console shows them: cards, the live board, the
print view, the table-link sheet.

What it does: ``round_tables(club, round_)`` loads a round's matches with their entrants, games,
seats and hands (``tournaments.play.load_matches``: a fixed number of queries) and the
players' names (one query), and returns one plain dict per table — the seats by name with their
compass place (partners opposite), the sides' names and totals, the current game (the one in
progress, else the last) and its state: *not started*, *hand N*, *finished*, *disputed* (with
its note). ``table_link`` is the game's page of a table; ``event_table_links`` the event's (or a
club night's) table links (``tables``: table *N* of the event, every round, or of the night,
every game) with their URL, short code and QR code, which the printed cards and the table-tent
sheet carry; ``qr_svg`` draws a QR code as inline SVG
(segno, drawn on the server: no script, no outside request). ``table_sheet`` is the one view
body of the table-tent sheet of an event and of a club night (``event_views.event_table_sheet``,
``night_views.night_table_sheet``), whose Revoke ends one link through
``table_links.services.revoke_event_table_link``.

What it does not do: decide anything or write itself: the sheet's revoke goes through the
table-link services, the board's writes through games' services.
"""

from __future__ import annotations

import io

import segno
from django.contrib import messages
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext, pgettext

from clubs.models import Player
from config.problems import Problem
from table_links import selectors as table_selectors
from table_links import services as table_services
from tournaments.play import load_matches
from web.console.access import ProblemShown
from web.console.club_views import _integer, _status

COMPASS = ("north", "east", "south", "west")
SIDE_CLASSES = ("side-a", "side-b", "side-c", "side-d", "side-e")


def qr_svg(url: str) -> str:
    """The QR code of ``url`` as an SVG element (no XML declaration), sized by CSS."""
    buffer = io.BytesIO()
    segno.make(url, error="m").save(
        buffer,
        kind="svg",
        xmldecl=False,
        svgns=True,
        scale=1,
        border=2,
        omitsize=True,
        title=f"QR code of {url}",
    )
    return buffer.getvalue().decode()


def table_link(club, game) -> str | None:
    if game is None:
        return None
    return reverse("pages:game", kwargs={"slug": club.slug, "game_id": game.pk})


def event_table_links(event, *, base_url: str, with_qr: bool) -> dict[int, dict]:
    """The live table links of an event (or a club night) by table number: id, URL, short code,
    QR code (the token and the code derived again from each link's salt:
    ``table_links.services.reveal_table_link``)."""
    shown = {}
    for link in table_selectors.list_event_table_links(event):
        secrets = table_services.reveal_table_link(link)
        if secrets is None:
            continue
        token, code = secrets
        url = f"{base_url}{reverse('table:link', kwargs={'credential': token})}"
        shown[link.table_number] = {
            "id": link.pk,
            "number": link.table_number,
            "url": url,
            "code": table_services.format_code(code),
            "qr": qr_svg(url) if with_qr else None,
        }
    return shown


def _current_game(match):
    games = sorted(match.games.all(), key=lambda game: game.pk)
    playing = [game for game in games if game.status == "in_progress"]
    if playing:
        return playing[-1]
    return games[-1] if games else None


def _state(match, game) -> tuple[str, str]:
    if match.is_bye:
        return "bye", gettext("Bye")
    if match.disputed_at is not None:
        return "disputed", gettext("Disputed")
    if match.status == "decided":
        return "finished", pgettext("table", "Finished")
    if game is None:
        return "waiting", gettext("Waiting")
    if game.hands_played == 0:
        return "not_started", gettext("Not started")
    return "playing", gettext("Hand %(number)s") % {"number": game.hands_played + 1}


def round_tables(
    club, round_, *, with_qr: bool = False, base_url: str = "", links: dict[int, dict] | None = None
) -> list[dict]:
    """``links``: the event's table links (``event_table_links``); a card whose table has one
    carries it (its QR code and short code) instead of the game's page."""
    matches = [
        match
        for match in load_matches([match.pk for match in round_.matches.all()])
        if match is not None
    ]
    player_ids = {
        seat.player_id
        for match in matches
        for game in match.games.all()
        for seat in game.seats.all()
    }
    names = dict(Player.objects.filter(pk__in=player_ids).values_list("pk", "display_name"))
    tables = []
    for match in sorted(matches, key=lambda match: match.table):
        game = _current_game(match)
        state, state_label = _state(match, game)
        seats, sides = [], []
        if game is not None:
            ordered = sorted(game.seats.all(), key=lambda seat: seat.seat)
            for seat in ordered:
                seats.append(
                    {
                        "seat": seat.seat,
                        "name": names.get(seat.player_id, "?"),
                        "side": seat.side,
                        "place": COMPASS[seat.seat] if len(ordered) == 4 else "",
                        "side_class": SIDE_CLASSES[seat.side % len(SIDE_CLASSES)],
                    }
                )
            totals = game.totals or []
            for index in range(len(totals)):
                members = [seat["name"] for seat in seats if seat["side"] == index]
                sides.append(
                    {
                        "index": index,
                        "field": f"paper_score_{index}",
                        "name": " & ".join(members),
                        "total": totals[index],
                        "is_winner": game.winner_side == index,
                        "side_class": SIDE_CLASSES[index % len(SIDE_CLASSES)],
                    }
                )
        link = table_link(club, game)
        device = (links or {}).get(match.table)
        hands = sorted(game.hands.all(), key=lambda hand: hand.number) if game else []
        tables.append(
            {
                "match": match,
                "number": match.table,
                "game": game,
                "seats": seats,
                "compass": len(seats) == 4,
                "sides": sides,
                "state": state,
                "state_label": state_label,
                "last_hand": hands[-1] if hands else None,
                "link": device["url"] if device else link,
                "absolute_link": device["url"]
                if device
                else (f"{base_url}{link}" if link else None),
                "code": device["code"] if device else None,
                "qr": (device["qr"] if device else None) if with_qr else None,
                "entrant_ids": [slot.entrant_id for slot in match.slots.all()],
                "dispute_note": match.dispute_note,
                "dealer_names": {seat["seat"]: seat["name"] for seat in seats},
            }
        )
    return tables


def table_sheet(request, club, event, *, sheet: str, closed: bool, context: dict):
    """The QR sheet of an event's or a night's tables (table tents), and its Revoke: a POST ends
    one link (``table_links.services.revoke_event_table_link``) and comes back to ``sheet`` (a
    console URL name taking the club's slug and the event's id). ``context`` names the event for the
    template (``tournament`` or ``night``)."""
    problem = None
    if request.method == "POST":
        try:
            table_services.revoke_event_table_link(
                event=event, link_id=_integer(request.POST.get("revoke")), user=request.user
            )
            messages.success(
                request,
                gettext(
                    "The link is revoked: that table's tablet stops at once. Make the table links "
                    "again for a new one; no other table is touched."
                ),
            )
            return redirect(sheet, club.slug, event.pk)
        except Problem as error:
            problem = ProblemShown(error)
    base_url = request.build_absolute_uri("/").rstrip("/")
    links = event_table_links(event, base_url=base_url, with_qr=True)
    context = {
        **context,
        "club": club,
        "event_name": event.name,
        "links": [links[number] for number in sorted(links)],
        "closed": closed,
        "problem": problem,
    }
    response = render(request, "console/table_sheet.html", context, status=_status(problem))
    response["Cache-Control"] = "private, no-store"  # it shows the tables' keys
    return response
