"""Import an event's exchange document (a tournament) into a club: idempotent, all or nothing.

What it does: ``import_event(...)`` is the event's part of ``exchange.services.import_document``
(which has checked the document, locked the club and mapped the players, in its transaction):
- the file's teams are the club's teams of the same name with the same players in the same
  order (409 ``exchange_team_differs`` when they are not), or new club teams
  (``clubs.services.create_team``);
- an event seen for the first time becomes a tournament of the club with the origin's settings
  and entrants (``tournaments.services.create_tournament``), its prize split
  (``settlements.services.set_prize_split``); each round is stored exactly as the origin drew
  it (``tournaments.imported.store_drawn_round``: the same tables, seats, sides, byes,
  third-place match and knockout sources; nothing is drawn again), each match's games are
  started for the match (``games.services.create_game`` with the match's terms) and re-played
  (``exchange.replay``), and the round's matches are recomputed from their games by the
  tournaments app's own recomputation (``tournaments.imported.settle_drawn_round``); a match
  its games leave undecided, or whose placings differ from the file's, is 422
  ``exchange_replay_differs``. The fees are marked and the tournament closed
  (``tournaments.services.close_tournament``): its standings and its settle-up are then what
  the tournaments app and the settle-up job compute for any event;
- an event imported before (``ImportedEvent``) is compared: a draw that differs from the first
  import (entrants, rounds, tables, seats, the games of a match) is 409
  ``exchange_event_redrawn``, never merged; games changed here, added or removed, re-seated, or
  fees changed are the night's conflicts; otherwise each game is brought to the file's hands
  (``exchange.replay.update_games``: ``correct_hand``, which replays the game, and the closed
  tournament's match and settle-up follow as after any correction).

What it does not do: check the document (``exchange.checks``), map players
(``exchange.players``), log the import (``exchange.services``), or import paid marks.

Terms: *draw* — the event's entrants and each round's matches by source ids, as stored in
``ImportedEvent.draw`` to compare a later file with.
"""

from __future__ import annotations

from django.utils.translation import gettext

from clubs import services as club_services
from clubs.models import Team
from config.problems import Problem
from exchange import replay
from exchange.checks import pointer
from exchange.models import ImportedEvent, ImportOutcome
from exchange.replay import at, minor
from games import services as game_services
from settlements import services as settlement_services
from tournaments import imported as imported_rounds
from tournaments import play
from tournaments import services as tournament_services
from tournaments.models import Match

# The settings taken from ``event`` itself (the archive's) and from ``event["settings"]``.
TOP_SETTINGS = (
    "name",
    "game",
    "format",
    "entrant_kind",
    "table_size",
    "round_count",
    "match_rule",
    "match_games",
    "house_rules",
)


def _fees(event: dict) -> list[list]:
    return sorted([fee["player"], fee["status"], fee["amount"]] for fee in event["fees"])


def _draw(event: dict) -> dict:
    """The event's draw by source ids (JSON, comparable with a stored one)."""
    return {
        "entrants": [
            [entrant["id"], entrant["player"], entrant["team"], entrant["seed"]]
            for entrant in event["entrants"]
        ],
        "rounds": [
            [
                [
                    match["table"],
                    match["is_bye"],
                    match["is_third_place"],
                    match["entrants"],
                    match["sides"],
                    match["sources"],
                    sorted(match["games"]),
                ]
                for match in round_["matches"]
            ]
            for round_ in event["rounds"]
        ],
    }


def _redrawn(stored: dict, event: dict) -> list[dict]:
    """``exchange_event_redrawn`` for each part of the file's draw that differs from the stored
    one (the entrants, a round's number of tables, a table)."""
    wanted = _draw(event)
    if wanted == stored:
        return []
    conflicts = []

    def conflict(where: str) -> None:
        conflicts.append(
            {
                "code": "exchange_event_redrawn",
                "pointer": where,
                "detail": gettext(
                    "The draw differs from the first import: an imported draw is not drawn "
                    "again. Import the event as it was first drawn, or delete it here first."
                ),
            }
        )

    if wanted["entrants"] != stored["entrants"]:
        conflict("/event/entrants")
    if len(wanted["rounds"]) != len(stored["rounds"]):
        conflict("/event/rounds")
    for number, (file_round, stored_round) in enumerate(
        zip(wanted["rounds"], stored["rounds"], strict=False)
    ):
        if len(file_round) != len(stored_round):
            conflict(pointer("event", "rounds", number, "matches"))
            continue
        for index, (file_match, stored_match) in enumerate(
            zip(file_round, stored_round, strict=True)
        ):
            if file_match != stored_match:
                conflict(pointer("event", "rounds", number, "matches", index))
    return conflicts


def _teams(club, document: dict, players: dict, conflicts: list[dict]) -> dict:
    """``{source team id: club Team}`` (see the module docstring)."""
    by_name = {
        team.name.casefold(): team
        for team in Team.objects.filter(club=club).prefetch_related("team_members")
    }
    found = {}
    for index, item in enumerate(document["teams"]):
        members = [players[member].pk for member in item["members"]]
        team = by_name.get(item["name"].strip().casefold())
        if team is None:
            team = at(
                pointer("teams", index),
                club_services.create_team,
                club=club,
                name=item["name"].strip(),
                member_ids=members,
            )
        else:
            held = [
                member.player_id
                for member in sorted(team.team_members.all(), key=lambda member: member.position)
            ]
            if held != members:
                conflicts.append(
                    {
                        "code": "exchange_team_differs",
                        "pointer": pointer("teams", index, "members"),
                        "detail": gettext(
                            "The club's team %(name)s has other players than the file's."
                        )
                        % {"name": team.name},
                    }
                )
                continue
        found[item["id"]] = team
    return found


def _values(event: dict, club) -> dict:
    """The tournament's settings: the format's options only where they are not the defaults
    (an option of another format is refused, never ignored)."""
    given = {name: event[name] for name in TOP_SETTINGS}
    given["stake_minor"] = minor(event["stake"], club)
    given["entry_fee_minor"] = minor(event["entry_fee"], club)
    given.update(event["settings"])
    always = ("name", "game", "format", "entrant_kind", "lots_seed")
    return {
        name: value
        for name, value in given.items()
        if name in always or tournament_services.DEFAULTS.get(name) != value
    }


def _tables(match_items: list[dict], entrants: dict) -> list[imported_rounds.DrawnTable]:
    tables = []
    for item in match_items:
        seated = [entrants[entrant].pk for entrant in item["entrants"]]
        sides: dict[int, list[int]] = {}
        for entrant, side in zip(seated, item["sides"], strict=True):
            if side is not None:
                sides.setdefault(side, []).append(entrant)
        sources = {
            entrant: (source["round"], source["table"], source["place"])
            for entrant, source in zip(seated, item["sources"], strict=True)
            if source is not None
        }
        tables.append(
            imported_rounds.DrawnTable(
                table=item["table"],
                entrants=tuple(seated),
                sides=tuple(tuple(sides[side]) for side in sorted(sides)),
                is_bye=item["is_bye"],
                is_third_place=item["is_third_place"],
                sources=sources or None,
            )
        )
    return tables


def _replay_differs(where: str, detail: str) -> Problem:
    return Problem(code="exchange_replay_differs", pointer=where, detail=detail)


def _placings(result: dict, entrants: dict) -> list | None:
    """The file's placings with this club's entrant ids (None when they name no entrant)."""
    try:
        return [
            sorted(entrants[entrant].pk for entrant in group)
            for group in result.get("placings", [])
        ]
    except (KeyError, TypeError, AttributeError):
        return None


def _check_results(tournament, event: dict, entrants: dict) -> None:
    """422 ``exchange_replay_differs`` at the first match whose placings, recomputed here from
    its games, are not the file's."""
    ids = {
        (number, table): pk
        for pk, number, table in Match.objects.filter(tournament=tournament).values_list(
            "pk", "round__number", "table"
        )
    }
    keys = [
        (number, index, ids.get((round_["number"], item["table"])), item)
        for number, round_ in enumerate(event["rounds"])
        for index, item in enumerate(round_["matches"])
        if not item["is_bye"]
    ]
    loaded = play.load_matches([match_id for _, _, match_id, _ in keys])
    for (number, index, _, item), match in zip(keys, loaded, strict=True):
        result = imported_rounds.result_of(match, tournament) if match is not None else None
        wanted = _placings(item["result"], entrants)
        here = [sorted(group) for group in (result or {}).get("placings", [])]
        if here != wanted:
            raise _replay_differs(
                pointer("event", "rounds", number, "matches", index),
                gettext(
                    "This match re-played here has other placings (%(here)s) than the "
                    "file's (%(file)s)."
                )
                % {"here": here, "file": wanted},
            )


def _create_event(club, user, document: dict, players: dict, teams: dict):
    event = document["event"]
    entrant_items = [
        {
            **(
                {"player": players[item["player"]].pk}
                if item["player"] is not None
                else {"team": teams[item["team"]].pk}
            ),
            **({"seed": item["seed"]} if item["seed"] is not None else {}),
        }
        for item in event["entrants"]
    ]
    tournament = at(
        "/event",
        tournament_services.create_tournament,
        club=club,
        user=user,
        values=_values(event, club),
        entrants=entrant_items,
    )
    entrants = _entrants_by_source(tournament, event)
    if event["prize_split"]:
        at(
            "/event/prize_split",
            settlement_services.set_prize_split,
            percentages=event["prize_split"],
            user=user,
            tournament_id=tournament.pk,
            pointer="",
        )
    game_index = {item["id"]: index for index, item in enumerate(document["games"])}
    games: dict[str, dict] = {}
    last = len(event["rounds"])
    for number, round_ in enumerate(event["rounds"], start=1):
        where = pointer("event", "rounds", number - 1)
        _, stored = at(
            where,
            imported_rounds.store_drawn_round,
            tournament_id=tournament.pk,
            number=number,
            tables=_tables(round_["matches"], entrants),
            user=user,
            draw_order=[entrants[entrant].pk for entrant in event["draw_order"]],
        )
        for item, match in zip(round_["matches"], stored, strict=True):
            for source in sorted(item["games"]):
                position = game_index[source]
                game_item = document["games"][position]
                game = at(
                    pointer("games", position),
                    game_services.create_game,
                    club=club,
                    tournament_match=match.pk,
                    **replay.game_terms(game_item, players, club, user),
                )
                games[str(source)] = replay.replay_game(game, game_item, position, user)
        undecided = imported_rounds.settle_drawn_round(
            tournament_id=tournament.pk, number=number, user=user, last=number == last
        )
        if undecided:
            tables = [match.table for match in stored if match.pk in undecided]
            index = [item["table"] for item in round_["matches"]].index(tables[0])
            raise _replay_differs(
                pointer("event", "rounds", number - 1, "matches", index),
                gettext("This match's games, re-played here, do not decide it."),
            )
    _check_results(tournament, event, entrants)
    replay.mark_fees(
        "event",
        settlement_services.mark_entry_fee,
        fees=event["fees"],
        players=players,
        club=club,
        user=user,
        tournament_id=tournament.pk,
    )
    at("/event", tournament_services.close_tournament, tournament_id=tournament.pk, user=user)
    return tournament, games


def _update_event(imported: ImportedEvent, club, user, document: dict, players: dict) -> int:
    """Correct the event's games to the file's; the number of games changed."""
    memory = imported.games
    games = replay.stored_games(memory)
    event = document["event"]
    conflicts = (
        _redrawn(imported.draw, event)
        + replay.game_conflicts(memory, document)
        + replay.fees_conflict(_fees(event), imported.fees, "/event/fees")
        + replay.reseated_conflicts(memory, games, document, players, club)
    )
    if conflicts:
        raise replay.conflicts_problem(conflicts)
    changed = replay.update_games(memory, games, document, user)
    if changed:
        tournament = imported.tournament
        _check_results(tournament, event, _entrants_by_source(tournament, event))
    return changed


def _entrants_by_source(tournament, event: dict) -> dict:
    created = list(tournament.entrants.order_by("pk"))
    return {item["id"]: entrant for item, entrant in zip(event["entrants"], created, strict=True)}


def import_event(
    *, club, user, key: str, document: dict, players: dict, document_hash: str, renamed: bool
) -> tuple[str, int, int]:
    """The event's part of an import: ``(outcome, games changed, the tournament's id)``;
    ``renamed``: the import created or renamed players (an update even with no game changed)."""
    conflicts: list[dict] = []
    teams = _teams(club, document, players, conflicts)
    if conflicts:
        raise replay.conflicts_problem(conflicts)
    imported = ImportedEvent.objects.select_for_update().filter(club=club, origin=key).first()
    if imported is None:
        tournament, games = _create_event(club, user, document, players, teams)
        imported = ImportedEvent.objects.create(
            club=club,
            origin=key,
            tournament=tournament,
            games=games,
            draw=_draw(document["event"]),
            fees=_fees(document["event"]),
            document_hash=document_hash,
        )
        return ImportOutcome.CREATED, len(games), tournament.pk
    changed = _update_event(imported, club, user, document, players)
    if changed or renamed:
        imported.document_hash = document_hash
        imported.save(update_fields=["games", "document_hash", "updated_at"])
    return (
        ImportOutcome.UPDATED if changed else ImportOutcome.UNCHANGED,
        changed,
        imported.tournament_id,
    )
