"""The "tonight" panel: where I sit in the current round, with whom, and how I stand.

What it does: whose panel to show is the reader's own club player when their account is linked
to one (the live state's ``viewer_player``, read by the page), else the player they picked on
the club page: ``picked_player_id`` reads it from the browser's cookie ``PICKED_COOKIE`` + club
slug, set by ``remember_pick``. ``tonight_view``
finds that player's entrant (themselves, or the team they play in) in the event's rounds (already
in display form: ``web.pages.tables``) and standings, and returns the panel: my table in the
current round, my seat, my partner(s) and my opponents, the score at my table, my place and
points so far, and where I go next (the table my table feeds in a knockout, or "drawn when the
round ends"). While my table of a released round is still to be played, ``seat_banner`` says
where to sit in one line, shown at the top of the event page (``static/js/pages/seat.js``
announces a new one with a system notification where the player allowed it).

What it does not do: query (everything comes from the page's data) or remember anything on the
server: the pick is the browser's cookie, and changes nothing anybody else sees.

Terms: *seat* — the seat number (1-based) the player takes at the table's game, as
``tournaments.play`` seats a table: each entrant in table order, or a drive's partners
alternating side after side so partners never sit together.
"""

from __future__ import annotations

from django.utils.translation import gettext as _

PICKED_COOKIE = "jink_player_"
PICK_SECONDS = 60 * 60 * 24 * 365


def picked_player_id(request, slug: str) -> int | None:
    """The player picked on this club's page in this browser (a cookie), or None."""
    value = request.COOKIES.get(PICKED_COOKIE + slug, "")
    return int(value) if value.isdigit() else None


def remember_pick(response, slug: str, player_id: int | None) -> None:
    """Remember (or forget, with None) the picked player of this club in the browser."""
    if player_id is None:
        response.delete_cookie(PICKED_COOKIE + slug, path="/", samesite="Lax")
    else:
        response.set_cookie(
            PICKED_COOKIE + slug,
            str(player_id),
            max_age=PICK_SECONDS,
            path="/",
            samesite="Lax",
            httponly=False,
        )


def entrant_of_player(
    player_id: int | None, entrants: dict[int, object], members: dict[int, list]
) -> int | None:
    """The entrant the player plays as: their own entry, or their team's."""
    if player_id is None:
        return None
    for entrant in entrants.values():
        if entrant.player_id == player_id:
            return entrant.pk
        if entrant.team_id and any(
            player.pk == player_id for player in members.get(entrant.team_id, [])
        ):
            return entrant.pk
    return None


def _seat(table: dict, me: int, is_team: bool) -> int | None:
    if is_team:
        return None
    sides = table["sides"]
    if any(side["is_partnership"] for side in sides):
        for side_index, side in enumerate(sides):
            for index, entry in enumerate(side["entrants"]):
                if entry["id"] == me:
                    return index * len(sides) + side_index + 1
        return None
    for side in sides:
        for entry in side["entrants"]:
            if entry["id"] == me:
                return entry["position"] + 1
    return None


def seat_banner(panel: dict) -> dict:
    """Where to sit, in one line a person reads ("Round 2: table 4, seat 2, with Mary Byrne":
    names, never seat numbers, for the people; the seat as printed on the table), and its *key*
    (round, table, seat), which the page's script remembers so a seat is announced once."""
    values = {
        "round": panel["round_name"],
        "table": panel["table"],
        "seat": panel["seat"],
        "partners": " & ".join(panel["partners"]),
    }
    if panel["seat"] and panel["partners"]:
        text = _("%(round)s: table %(table)s, seat %(seat)s, with %(partners)s") % values
    elif panel["seat"]:
        text = _("%(round)s: table %(table)s, seat %(seat)s") % values
    elif panel["partners"]:
        text = _("%(round)s: table %(table)s, with %(partners)s") % values
    else:
        text = _("%(round)s: table %(table)s") % values
    return {"text": text, "key": f"{panel['round_number']}-{panel['table']}-{panel['seat'] or 0}"}


def tonight_view(
    *,
    player_name: str,
    me: int | None,
    rounds: list[dict],
    standings: dict,
    is_team: bool,
    tournament_finished: bool,
) -> dict:
    """The panel's data (``me``: the reader's entrant id, None when they are not entered)."""
    panel = {"player_name": player_name, "is_entered": me is not None}
    if me is None:
        return panel
    row = next((line for line in standings["rows"] if line["entrant_id"] == me), None)
    if row is not None and standings["is_started"]:
        figures = row["figures"]
        panel["place"] = row["place_text"]
        panel["is_shared_place"] = row["is_shared"]
        panel["of"] = len(standings["rows"])
        panel["points"] = figures.get("points_for")
        panel["match_points"] = figures.get("match_points")
        panel["wins"] = figures.get("match_wins")
    current = next((round_ for round_ in rounds if round_["is_current"]), None)
    if current is None:
        panel["waiting_text"] = _("The first round has not been drawn yet.")
        return panel
    panel["round_name"] = current["name"]
    panel["round_number"] = current["number"]
    table = next((table for table in current["tables"] if table["has_me"]), None)
    if table is None:
        panel["waiting_text"] = (
            _("You have no table this round.")
            if not tournament_finished
            else _("The tournament is over.")
        )
        return panel
    my_side = next(
        side for side in table["sides"] if any(entry["id"] == me for entry in side["entrants"])
    )
    partners = [entry["name"] for entry in my_side["entrants"] if entry["id"] != me]
    mine = next(entry for entry in my_side["entrants"] if entry["id"] == me)
    if is_team:
        partners = [name for name in mine["members"] if name != player_name]
    panel.update(
        table=table["number"],
        table_dom_id=table["dom_id"],
        is_third_place=table["is_third_place"],
        status=table["status"],
        seat=_seat(table, me, is_team),
        partners=partners,
        opponents=[side["name"] for side in table["sides"] if side is not my_side],
        games=table["games"],
        is_bye=table["status_code"] in ("bye", "walkover"),
    )
    if not table["is_decided"] and not panel["is_bye"] and not tournament_finished:
        panel["seat_banner"] = seat_banner(panel)
    if table["is_decided"]:
        if mine["is_winner"] and table["feeds"]:
            round_number, table_number = table["feeds"].split("-")[1::2]
            panel["next_text"] = _("Next: round %(round)s, table %(table)s.") % {
                "round": round_number,
                "table": table_number,
            }
        elif not mine["is_winner"] and table["feeds_losers"]:
            panel["next_text"] = _("Next: the third-place match.")
        elif table["feeds"]:
            panel["next_text"] = _("You are out of the knockout.")
        elif not tournament_finished:
            panel["next_text"] = _("Your next table is drawn when this round ends.")
    return panel
