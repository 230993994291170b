"""Checks of an exchange document before anything is stored: the JSON Schema
(docs/exchange.schema.json, draft 2020-12) and the references the schema cannot see.

What it does: ``check_document(document)`` raises one 400 ``exchange_invalid`` problem listing
every failure (at most ``MAX_ERRORS``), each with the JSON pointer of the failing place in the
file; the references checked after the schema: unique ids, every seat's and fee's player among
the file's players, seats numbered 0..n-1, hands numbered 1..n, a night's file with its night,
an event's entrants, rounds and matches consistent (``_event_errors``).
``MAX_BYTES`` is the size limit of a document (the API's ``max_body_bytes``, the console's upload).

What it does not do: compare with what the club holds (``exchange.services``: conflicts) or
re-play the hands (the services, through ``games.services``).
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path

from django.conf import settings
from django.utils.translation import gettext
from jsonschema import Draft202012Validator

from config.problems import Problem, escape_pointer_segment

# Below Django's DATA_UPLOAD_MAX_MEMORY_SIZE (2.5 MB), so the parser answers 413 first.
MAX_BYTES = 2 * 1024 * 1024
MAX_ERRORS = 50


@cache
def _validator() -> Draft202012Validator:
    schema = json.loads((Path(settings.BASE_DIR) / "docs" / "exchange.schema.json").read_text())
    Draft202012Validator.check_schema(schema)
    return Draft202012Validator(schema)


def pointer(*parts) -> str:
    return "".join(f"/{escape_pointer_segment(part)}" for part in parts)


def _schema_errors(document) -> list[dict]:
    errors = sorted(_validator().iter_errors(document), key=lambda error: list(error.path))
    return [
        {
            "code": "exchange_invalid",
            "detail": error.message[:300],
            "pointer": pointer(*error.absolute_path),
        }
        for error in errors[:MAX_ERRORS]
    ]


def _error(where: str, detail: str) -> dict:
    return {"code": "exchange_invalid", "detail": detail, "pointer": where}


def _duplicates(items: list[dict], prefix: str) -> list[dict]:
    seen, errors = set(), []
    for index, item in enumerate(items):
        if item["id"] in seen:
            errors.append(_error(pointer(prefix, index, "id"), gettext("This id is repeated.")))
        seen.add(item["id"])
    return errors


def _reference_errors(document: dict) -> list[dict]:
    errors = _duplicates(document["players"], "players") + _duplicates(document["games"], "games")
    players = {player["id"] for player in document["players"]}
    unknown = gettext("No player of the file has this id.")
    kind = document["origin"]["kind"]
    if document[kind] is None:
        errors.append(_error(pointer(kind), gettext("A file of this kind needs this part.")))
    for index, game in enumerate(document["games"]):
        seats = game["seats"]
        if sorted(seat["seat"] for seat in seats) != list(range(len(seats))):
            errors.append(
                _error(pointer("games", index, "seats"), gettext("Seats are numbered 0 to n-1."))
            )
        for position, seat in enumerate(seats):
            if seat["player"] not in players:
                errors.append(_error(pointer("games", index, "seats", position, "player"), unknown))
        numbers = [hand["number"] for hand in game["hands"]]
        if numbers != list(range(1, len(numbers) + 1)):
            errors.append(
                _error(pointer("games", index, "hands"), gettext("Hands are numbered 1 to n."))
            )
    for index, fee in enumerate((document["night"] or {}).get("fees", [])):
        if fee["player"] not in players:
            errors.append(_error(pointer("night", "fees", index, "player"), unknown))
    if kind == "event" and document["event"] is not None:
        errors.extend(_event_errors(document, players))
    return errors[:MAX_ERRORS]


def _event_errors(document: dict, players: set[int]) -> list[dict]:
    """An event's references: its entrants' players and teams among the file's, its matches'
    entrants among its entrants, every game of the file in exactly one match, rounds numbered
    1..n, a seat's source in an earlier round."""
    event = document["event"]
    errors = _duplicates(document["teams"], "teams") + _duplicates(
        event["entrants"], "event/entrants"
    )
    unknown = gettext("No player of the file has this id.")
    for index, team in enumerate(document["teams"]):
        for position, member in enumerate(team["members"]):
            if member not in players:
                errors.append(_error(pointer("teams", index, "members", position), unknown))
    teams = {team["id"] for team in document["teams"]}
    kind = event["entrant_kind"]
    for index, entrant in enumerate(event["entrants"]):
        where = pointer("event", "entrants", index)
        if (entrant["player"] is None) == (entrant["team"] is None):
            errors.append(_error(where, gettext("An entrant is a player or a team.")))
        elif entrant["player" if kind == "player" else "team"] is None:
            errors.append(_error(where, gettext("The event's entrants are of another kind.")))
        elif entrant["player"] is not None and entrant["player"] not in players:
            errors.append(_error(where + "/player", unknown))
        elif entrant["team"] is not None and entrant["team"] not in teams:
            errors.append(_error(where + "/team", gettext("No team of the file has this id.")))
    entrants = {entrant["id"] for entrant in event["entrants"]}
    no_entrant = gettext("No entrant of the event has this id.")
    for position, entrant in enumerate(event["draw_order"]):
        if entrant not in entrants:
            errors.append(_error(pointer("event", "draw_order", position), no_entrant))
    for index, fee in enumerate(event["fees"]):
        if fee["player"] not in players:
            errors.append(_error(pointer("event", "fees", index, "player"), unknown))
    games = {game["id"] for game in document["games"]}
    placed: set[int] = set()
    numbers = [round_["number"] for round_ in event["rounds"]]
    if numbers != list(range(1, len(numbers) + 1)):
        errors.append(_error("/event/rounds", gettext("Rounds are numbered 1 to n.")))
    for number, round_ in enumerate(event["rounds"]):
        tables = [match["table"] for match in round_["matches"]]
        if len(set(tables)) != len(tables):
            errors.append(
                _error(
                    pointer("event", "rounds", number, "matches"),
                    gettext("A table is numbered twice in the round."),
                )
            )
        for index, match in enumerate(round_["matches"]):
            where = pointer("event", "rounds", number, "matches", index)
            seats = len(match["entrants"])
            if len(match["sides"]) != seats or len(match["sources"]) != seats:
                errors.append(
                    _error(where, gettext("Sides and sources are one per entrant of the match."))
                )
            for position, entrant in enumerate(match["entrants"]):
                if entrant not in entrants:
                    errors.append(_error(f"{where}/entrants/{position}", no_entrant))
            for position, source in enumerate(match["sources"]):
                if source is not None and source["round"] >= round_["number"]:
                    errors.append(
                        _error(
                            f"{where}/sources/{position}",
                            gettext("A seat is filled from an earlier round."),
                        )
                    )
            for position, game in enumerate(match["games"]):
                if game not in games or game in placed:
                    errors.append(
                        _error(
                            f"{where}/games/{position}",
                            gettext("Each game of the file is in one match."),
                        )
                    )
                placed.add(game)
    if games - placed:
        errors.append(_error("/games", gettext("Each game of the file is in one match.")))
    return errors


def check_document(document) -> None:
    """Refuse (400 ``exchange_invalid``, every failure with its pointer) a document that does not
    follow the schema or whose references do not hold."""
    errors = _schema_errors(document)
    if not errors:
        errors = _reference_errors(document)
    if errors:
        raise Problem(
            code="exchange_invalid",
            detail=gettext("The file is not a valid exchange document (version 1)."),
            errors=errors,
        )
