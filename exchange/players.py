"""The import mapping of players: which club player each player of an exchange document is.

What it does: ``resolve_players(club, site, players, conflicts)`` returns ``{source id: club
player}`` for the file's players. A player mapped before (``ImportedPlayer``: the same site and
source id in this club) is that club player; renamed in the file since the last import, the club
player is renamed too (``clubs.services.update_player``), unless they were renamed here as well
(a conflict). An unmapped player is matched by name (the club's names are unique whatever their
case): one club player of that name, not already mapped from the site to another source id, is
them; none, a new club player (``clubs.services.add_player``). Two players of the file matching
one club player, or a name mapped to another source id, is a conflict. Conflicts are appended to
``conflicts`` (``{"code", "detail", "pointer"}``), never merged.

What it does not do: decide whether the import goes on (the caller raises when there are
conflicts, in the same transaction, so nothing stays stored).
"""

from __future__ import annotations

from django.utils.translation import gettext

from clubs import services as club_services
from clubs.models import Player
from config.problems import Problem
from exchange.checks import pointer
from exchange.models import ImportedPlayer


def _conflict(code: str, where: str, detail: str) -> dict:
    return {"code": code, "detail": detail, "pointer": where}


def resolve_players(
    club, site: str, players: list[dict], conflicts: list[dict]
) -> tuple[dict, dict]:
    """``({source id: Player}, counts)``; counts are ``created``, ``matched``, ``renamed``."""
    mapped = {
        row.source_id: row
        for row in ImportedPlayer.objects.filter(club=club, site=site).select_related("player")
    }
    mapped_players = {row.player_id: source for source, row in mapped.items()}
    by_name = {
        player.display_name.casefold(): player for player in Player.objects.filter(club=club)
    }
    counts = {"created": 0, "matched": 0, "renamed": 0}
    found: dict[int, Player] = {}
    taken: dict[int, int] = {}
    for index, item in enumerate(players):
        where, name = pointer("players", index), item["name"].strip()
        row = mapped.get(item["id"])
        if row is not None:
            player = row.player
            if name != row.name:
                if player.display_name != row.name:
                    conflicts.append(
                        _conflict(
                            "exchange_player_renamed_here",
                            pointer("players", index, "name"),
                            gettext(
                                "%(name)s was renamed in this club (now %(here)s) and in the file."
                            )
                            % {"name": row.name, "here": player.display_name},
                        )
                    )
                    continue
                try:
                    club_services.update_player(player=player, display_name=name)
                except Problem as problem:
                    conflicts.append(
                        _conflict(
                            "exchange_player_ambiguous",
                            pointer("players", index, "name"),
                            str(problem.detail),
                        )
                    )
                    continue
                row.name = name
                row.save(update_fields=["name"])
                counts["renamed"] += 1
        else:
            player = by_name.get(name.casefold())
            if player is not None and mapped_players.get(player.pk, item["id"]) != item["id"]:
                conflicts.append(
                    _conflict(
                        "exchange_player_ambiguous",
                        where,
                        gettext(
                            "%(name)s of this club stands already for another player of the "
                            "file's site."
                        )
                        % {"name": player.display_name},
                    )
                )
                continue
            if player is None:
                try:
                    player = club_services.add_player(club=club, display_name=name)
                except Problem as problem:
                    conflicts.append(
                        _conflict("exchange_player_ambiguous", where, str(problem.detail))
                    )
                    continue
                by_name[name.casefold()] = player
                counts["created"] += 1
            else:
                counts["matched"] += 1
            ImportedPlayer.objects.create(
                club=club, site=site, source_id=item["id"], player=player, name=name
            )
            mapped_players[player.pk] = item["id"]
        if player.pk in taken:
            conflicts.append(
                _conflict(
                    "exchange_player_ambiguous",
                    where,
                    gettext("Two players of the file are %(name)s of this club.")
                    % {"name": player.display_name},
                )
            )
            continue
        taken[player.pk] = item["id"]
        found[item["id"]] = player
    return found, counts
