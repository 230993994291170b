"""A tournament's rounds and tables as the event page shows them, in the reader's language.

What it does: ``rounds_view`` turns ``tournaments.selectors.bracket_of`` (rounds, tables, their
matches with slots and games, prefetched: no query here) into display data: each table's sides
(a drive's partners together: "Ann & Bill v Cait & Dan"), its entrants with their figures and
team members, its games with each side's score named ("Ann 25 – 0 Dan"), and for a knockout the
table each table feeds (``feeds``: the DOM ids the bracket's lines join). It marks the reader's
own entrant (``is_me``) and says which round is current.

What it does not do: query, rank, or decide who advances (the tournaments app did); draw lines
(``static/js/pages/bracket.js`` draws them between the ids given here).

Terms:
- *side of a table*: the entrants who score together in its games — one entrant, or a drive's
  partners (``MatchEntrant.side``). Side i of a game is the i-th side of its table.
- *current round*: the last round drawn (stored); earlier rounds are folded on the page.
- *feeds*: a knockout table at position p of round r sends its advancing entrants to position
  ``p // (table_size // advancing)`` of round r + 1; the semi-finals also feed the third-place
  match (their losers).
"""

from __future__ import annotations

from django.urls import reverse
from django.utils.translation import gettext as _

from tournaments.formats import policy_for
from web.pages.labels import GAME_STATUSES, MATCH_STATUSES, ROUND_STATUSES, label


def table_dom_id(round_number: int, table_number: int) -> str:
    return f"round-{round_number}-table-{table_number}"


def _source_text(slot, where: dict[int, tuple[int, int]]) -> str:
    """ "Winner of round 1 table 2" for a seat waiting on another table."""
    source = where.get(slot.source_match_id)
    if source is None:
        return _("To be decided")
    values = {"round": source[0], "table": source[1]}
    if slot.source_place == 1:
        return _("Winner of round %(round)s table %(table)s") % values
    if slot.source_place == 2:
        return _("Runner-up of round %(round)s table %(table)s") % values
    return _("Place %(place)s of round %(round)s table %(table)s") % {
        **values,
        "place": slot.source_place,
    }


def _entrant(entrant, members: dict[int, list], me: int | None) -> dict:
    team_members = []
    if entrant.team_id:
        team_members = [player.display_name for player in members.get(entrant.team_id, [])]
    return {
        "id": entrant.pk,
        "name": entrant.name,
        "members": team_members,
        "is_me": me is not None and entrant.pk == me,
    }


def _sides_of(slots) -> list[list]:
    """The slots grouped by the side they play on (a drive's partners), sides in index order."""
    if any(slot.side is not None for slot in slots):
        by_side: dict[int, list] = {}
        for slot in slots:
            by_side.setdefault(slot.side if slot.side is not None else -1, []).append(slot)
        return [by_side[index] for index in sorted(by_side)]
    return [[slot] for slot in slots]


def _game_line(game, side_names: list[str], slug: str, link_games: bool, number: int) -> dict:
    totals = list(game.totals or []) + [0] * (len(side_names) - len(game.totals or []))
    scores = [
        {"name": name, "total": totals[index], "is_winner": game.winner_side == index}
        for index, name in enumerate(side_names)
    ]
    return {
        "number": number,
        "url": reverse("pages:game", kwargs={"slug": slug, "game_id": game.pk})
        if link_games
        else None,
        "scores": scores,
        "status": label(GAME_STATUSES, game.status),
        "is_live": game.status == "in_progress",
    }


def _match_table(table: dict, match, where, slug, link_games, members, me) -> dict:
    slots = list(match.slots.all())
    placings = (match.result or {}).get("placings") or []
    if match.is_bye:
        placings = [[slot.entrant_id for slot in slots]]
    winners = set(placings[0]) if placings else set()
    is_decided = match.status == "decided" and not match.is_bye
    sides = []
    for side_slots in _sides_of(slots):
        entrants = []
        for slot in side_slots:
            if slot.entrant_id:
                entry = _entrant(slot.entrant, members, me)
            else:
                entry = {
                    "id": None,
                    "name": _source_text(slot, where),
                    "members": [],
                    "is_me": False,
                }
            entry.update(
                is_known=slot.entrant_id is not None,
                is_winner=slot.entrant_id in winners,
                games_won=slot.games_won if is_decided else None,
                points=slot.points_for if is_decided else None,
                position=slot.position,
            )
            entrants.append(entry)
        sides.append(
            {
                "entrants": entrants,
                "name": " & ".join(entry["name"] for entry in entrants),
                "is_partnership": len(entrants) > 1,
                "is_winner": any(entry["is_winner"] for entry in entrants),
            }
        )
    side_names = [side["name"] for side in sides]
    stored_games = list(match.games.all())
    games = [
        _game_line(game, side_names, slug, link_games, number)
        for number, game in enumerate(stored_games, start=1)
    ]
    # Each side's score on the card: the points of the table's one game once a hand is in (or
    # the game is over); with several games, the games each side has won.
    for index, side in enumerate(sides):
        if len(stored_games) == 1:
            game = stored_games[0]
            played = game.hands_played or game.status != "in_progress"
            side["score"] = games[0]["scores"][index]["total"] if played else None
        elif stored_games:
            side["games_won"] = sum(1 for game in stored_games if game.winner_side == index)
    status_code = "bye" if match.is_bye else match.status
    return {
        "sides": sides,
        "games": games,
        "game_url": games[0]["url"] if len(games) == 1 else None,
        "status": label(MATCH_STATUSES, status_code),
        "status_code": status_code,
        "is_decided": bool(winners),
        "match": match,
    }


def _feeder_text(feeder: dict, is_third_place: bool) -> str:
    """ "Winner of round 1 table 2" (the semi-final's loser for the third-place table)."""
    values = {"round": feeder["round"], "table": feeder["table"]}
    if is_third_place:
        return _("Loser of round %(round)s table %(table)s") % values
    return _("Winner of round %(round)s table %(table)s") % values


def _unstored_table(table: dict, names: dict[int, object], members, me) -> dict:
    """A knockout table not stored yet: a walkover (its entrants go through), or a table still
    waiting for a feeder, holding those already through and naming the tables it waits for."""
    kind = table["kind"]
    sides = []
    for entrant_id in table["entrants"]:
        entrant = names.get(entrant_id)
        entry = (
            _entrant(entrant, members, me)
            if entrant is not None
            else {"id": entrant_id, "name": str(entrant_id), "members": [], "is_me": False}
        )
        entry.update(
            is_known=True,
            is_winner=kind == "walkover",
            games_won=None,
            points=None,
            position=len(sides),
        )
        sides.append(
            {
                "entrants": [entry],
                "name": entry["name"],
                "is_partnership": False,
                "is_winner": kind == "walkover",
            }
        )
    for feeder in table.get("waiting_for", []):
        entry = {
            "id": None,
            "name": _feeder_text(feeder, table["is_third_place"]),
            "members": [],
            "is_me": False,
            "is_known": False,
            "is_winner": False,
            "games_won": None,
            "points": None,
            "position": len(sides),
        }
        sides.append(
            {
                "entrants": [entry],
                "name": entry["name"],
                "is_partnership": False,
                "is_winner": False,
            }
        )
    return {
        "sides": sides,
        "games": [],
        "game_url": None,
        "status": label(MATCH_STATUSES, kind),
        "status_code": kind,
        "is_decided": kind == "walkover",
        "match": None,
    }


def _feeds(tournament, round_number: int, position: int, rounds_total: int) -> tuple[list, list]:
    """DOM ids of the tables a knockout table sends its winners and (semi-finals) losers to."""
    if round_number >= rounds_total:
        return [], []
    group = max(tournament.table_size // (tournament.advancing_per_table or 1), 1)
    winners = [table_dom_id(round_number + 1, position // group + 1)]
    losers = []
    if tournament.third_place_match and round_number == rounds_total - 1:
        losers = [table_dom_id(round_number + 1, 2)]
    return winners, losers


def rounds_view(
    tournament,
    bracket: dict,
    entrants: dict[int, object],
    *,
    link_games: bool,
    members: dict[int, list],
    me: int | None,
    round_names,
) -> list[dict]:
    """The rounds in display form, first round first (the template puts the current first).

    ``entrants`` maps entrant ids to ``Entrant`` rows (names of tables not stored yet);
    ``members`` team id -> players; ``me`` the reader's entrant id or None; ``round_names`` a
    function (number, rounds total) -> the round's name.
    """
    where = {
        table["match"].pk: (round_["number"], table["table"])
        for round_ in bracket["rounds"]
        for table in round_["tables"]
        if table["match"] is not None
    }
    slug = tournament.club.slug
    is_knockout = policy_for(tournament).plans_a_bracket
    rounds_total = len(bracket["rounds"])
    drawn = [round_["number"] for round_ in bracket["rounds"] if round_["status"] != "waiting"]
    current = max(drawn) if drawn else None
    output = []
    for round_ in bracket["rounds"]:
        tables = []
        for table in round_["tables"]:
            if table["match"] is not None:
                view = _match_table(table, table["match"], where, slug, link_games, members, me)
            else:
                view = _unstored_table(table, entrants, members, me)
            winners, losers = (
                _feeds(tournament, round_["number"], table["table"] - 1, rounds_total)
                if is_knockout
                else ([], [])
            )
            view.update(
                number=table["table"],
                dom_id=table_dom_id(round_["number"], table["table"]),
                kind=table["kind"],
                is_third_place=table["is_third_place"],
                feeds=" ".join(winners),
                feeds_losers=" ".join(losers),
                has_me=any(entry["is_me"] for side in view["sides"] for entry in side["entrants"]),
                # A table playing in a round in progress says nothing its round does not.
                shows_status=not (
                    view["status_code"] == "in_progress" and round_["status"] == "in_progress"
                ),
            )
            tables.append(view)
        output.append(
            {
                "number": round_["number"],
                "name": round_names(round_["number"], rounds_total if is_knockout else None),
                "status": label(ROUND_STATUSES, round_["status"]),
                "status_code": round_["status"],
                "is_current": round_["number"] == current,
                "tables": tables,
            }
        )
    return output
