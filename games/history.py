"""The audit history of a game: every change to the game or its hands, who made it and when.

What it does: reads django-simple-history's records of a ``Game`` and of its ``Hand`` rows (two
queries, however long the game) and turns each record into an entry with the fields that changed,
before and after, by comparing it with the previous record of the same object. Services label
each change with a reason ("hand 4 recorded", "hand 2 corrected", "recomputed after a correction
of hand 2", "hand 7 undone") through simple-history's ``_change_reason``.

Each hand entry also says who entered that version at the table (``scored_by``) and who
accepted it (``accepted_by``: a player; ``accepted_by_organiser``: an organiser's own console
entry standing as the acceptance) — every version its own.

What it does not do: write history (simple-history does, on every save and delete, with the user
the services set as ``_history_user``) or decide who may read it (the view does).

Terms: *action* — "created", "changed" or "deleted" (simple-history's "+", "~", "-").
"""

from __future__ import annotations

from typing import Any

from games.models import Game, Hand

_ACTIONS = {"+": "created", "~": "changed", "-": "deleted"}

# Fields whose changes are shown. ``version`` and the engine's internal state change with every
# hand and would drown the changes a person cares about.
GAME_FIELDS = (
    "status",
    "winner_side",
    "double_stake",
    "totals",
    "next_dealer",
    "hands_played",
    "stake_minor",
    "first_dealer",
    "house_rules",
)
HAND_FIELDS = ("number", "dealer", "record", "result", "totals_after")


def _user_summary(user) -> dict[str, Any] | None:
    if user is None:
        return None
    return {"id": user.pk, "username": user.get_username()}


def _acceptance(record) -> dict[str, Any]:
    """Who entered this version of a hand at the table and who accepted it (a player of another
    side, or the organiser whose own console entry stood as the acceptance)."""

    def player(player_id, loaded):
        return None if player_id is None else {"id": player_id, "name": loaded.display_name}

    return {
        "scored_by": player(record.scored_by_id, record.scored_by if record.scored_by_id else None),
        "accepted_by": player(
            record.confirmed_by_id, record.confirmed_by if record.confirmed_by_id else None
        ),
        "accepted_by_organiser": _user_summary(record.accepted_by_organiser),
    }


def _entries(records, object_kind: str, fields: tuple[str, ...]) -> list[dict[str, Any]]:
    entries = []
    previous_by_object: dict[Any, Any] = {}
    for record in records:
        previous = previous_by_object.get(record.id)
        action = _ACTIONS.get(record.history_type, record.history_type)
        changes = []
        for field in fields:
            if action == "deleted":
                before, after = getattr(record, field), None
            else:
                before = getattr(previous, field) if previous is not None else None
                after = getattr(record, field)
            if before != after:
                name = field.removesuffix("_id")
                changes.append({"field": name, "before": before, "after": after})
        previous_by_object[record.id] = record
        entries.append(
            {
                "id": f"{object_kind}-{record.history_id}",
                "at": record.history_date,
                "by": _user_summary(record.history_user),
                "object": object_kind,
                "hand": getattr(record, "number", None) if object_kind == "hand" else None,
                "action": action,
                "reason": record.history_change_reason or "",
                "table_link": getattr(record, "history_table_link_id", None),
                "changes": changes,
                **(_acceptance(record) if object_kind == "hand" else {}),
            }
        )
    return entries


def game_history(*, game: Game) -> list[dict[str, Any]]:
    """All changes of the game and its hands, oldest first."""
    game_records = (
        Game.history.filter(id=game.pk)
        .select_related("history_user")
        .order_by("history_date", "history_id")
    )
    hand_records = (
        Hand.history.filter(game_id=game.pk)
        .select_related("history_user", "confirmed_by", "scored_by", "accepted_by_organiser")
        .order_by("history_date", "history_id")
    )
    entries = _entries(game_records, "game", GAME_FIELDS)
    entries += _entries(hand_records, "hand", HAND_FIELDS)
    entries.sort(key=lambda entry: (entry["at"], entry["object"] != "hand", entry["id"]))
    return entries
