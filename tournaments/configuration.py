"""Checking a tournament's settings and entrants before anything is stored.

What it does: ``check_settings`` validates a whole set of tournament settings against each other
(format, table size, advancing, partners, rounds, match rule, tie-breaks, house rules, seating)
and returns them normalised — the rules of one format are its policy's
(``FormatPolicy.check_settings``, ``tournaments.formats``), and so is which options a format
takes (``FORMAT_OPTIONS`` is built from the policies); ``check_entrants`` validates entrants to
register (players or teams of the club, not entered twice, one kind, teams of one size,
distinct seeds) and returns what to create. Both collect every error, each with a stable code
and a JSON pointer, and raise one ``config.problems.Problem`` (400).

What it does not do: store anything, lock anything, or check who asks (the services and views do).

Terms:
- *play settings*: those that shape the draw and the games (``PLAY_SETTINGS``); once round 1 is
  drawn they may no longer change.
- *formation*: the seats and sides of a table's game; the rules engine knows which a game allows
  (45 and auction 45 only certain ones), and partners may never be neighbours.
"""

from __future__ import annotations

from django.utils.translation import gettext, gettext_lazy

from clubs.models import Player, Team, normalize_house_rule_overrides
from config.problems import Problem, localized_detail
from rules_engine import HouseRules, RulesError
from rules_engine.seating import check_seating
from tournaments.draw import ranking
from tournaments.formats import FORMATS
from tournaments.models import EntrantKind, Tournament

PLAY_SETTINGS = (
    "game",
    "house_rules",
    "format",
    "entrant_kind",
    "table_size",
    "advancing_per_table",
    "sides_per_table",
    "movement",
    "min_table_size",
    "match_rule",
    "match_games",
    "round_count",
    "third_place_match",
    "bye_rule",
    "stake_minor",
    "lots_seed",
)
FREE_SETTINGS = (
    "name",
    "is_public",
    "tie_breaks",
    "entry_fee_minor",
    "auto_advance",
    "private_draws",
)
SETTINGS = PLAY_SETTINGS + FREE_SETTINGS

# The options that belong to some formats only, and which formats take each (their policies'
# ``options``); giving one to another format is refused, never ignored.
FORMAT_OPTIONS = {
    option: tuple(name for name, policy in FORMATS.items() if option in policy.options)
    for option in (
        "advancing_per_table",
        "third_place_match",
        "sides_per_table",
        "movement",
        "min_table_size",
        "round_count",
        "bye_rule",
    )
}
MAX_TEAM_TABLE = 3  # "a table seats ... two to three partnerships"
MAX_PLAYER_TABLE = 10


def _error(errors: list, code: str, detail: str, pointer: str) -> None:
    errors.append({"code": code, "detail": detail, "pointer": pointer})


def raise_errors(errors: list[dict]) -> None:
    if errors:
        first = errors[0]
        detail = (
            first["detail"]
            if len(errors) == 1
            else gettext("%(count)s problems: %(details)s")
            % {"count": len(errors), "details": "; ".join(error["detail"] for error in errors)}
        )
        raise Problem(code=first["code"], detail=detail, errors=errors)


def _check_formation(values: dict, errors: list, team_size: int | None = None) -> None:
    """The rules engine accepts the seats and sides of one table's game."""
    try:
        rules = HouseRules.for_game(values["game"], **values["house_rules"])
    except RulesError:
        return  # reported at /house_rules already
    table_size = values["table_size"]
    if values["entrant_kind"] == EntrantKind.TEAM:
        if team_size is None:
            return  # known once teams are registered
        seats = table_size * team_size
        sides = [
            [index * table_size + side for index in range(team_size)] for side in range(table_size)
        ]
    elif values.get("sides_per_table"):
        count = values["sides_per_table"]
        if table_size % count:
            return  # the drive check reports it
        seats = table_size
        sides = [
            [index * count + side for index in range(table_size // count)] for side in range(count)
        ]
    else:
        # Individuals each for themselves; swiss and round robin may also seat short tables.
        smallest = values.get("min_table_size") or table_size
        for size in range(min(smallest, table_size), table_size + 1):
            try:
                check_seating(rules, size, None)
            except RulesError as error:
                pointer = "/table_size" if size == table_size else "/min_table_size"
                _error(
                    errors,
                    "invalid_seating",
                    gettext("%(game)s cannot be played at tables of %(size)s: %(detail)s")
                    % {"game": values["game"], "size": size, "detail": localized_detail(error)},
                    pointer,
                )
                return
        return
    try:
        check_seating(rules, seats, sides)
    except RulesError as error:
        params = {
            "game": values["game"],
            "team_size": team_size,
            "size": table_size,
            "detail": localized_detail(error),
        }
        if team_size:
            template = gettext(
                "%(game)s cannot be played by teams of %(team_size)s at tables "
                "of %(size)s: %(detail)s"
            )
        else:
            template = gettext("%(game)s cannot be played at tables of %(size)s: %(detail)s")
        _error(errors, "invalid_seating", template % params, "/table_size")


def check_settings(values: dict, *, given: set[str], pointer: str = "") -> dict:
    """Validate a full set of settings (``values``); ``given`` names the keys the client sent.

    Returns the values with the house rules normalised; raises a 400 ``Problem`` listing every
    error.
    """
    errors: list[dict] = []
    values = dict(values)
    try:
        values["house_rules"] = normalize_house_rule_overrides(
            values["game"], values["house_rules"]
        )
    except RulesError as error:
        for single in error.errors:
            _error(
                errors,
                single.code,
                localized_detail(single),
                f"{pointer}/house_rules{single.pointer}",
            )
    tournament_format = values["format"]
    for option, formats in FORMAT_OPTIONS.items():
        if (
            option in given
            and tournament_format not in formats
            and values.get(option) not in (None, False)
        ):
            _error(
                errors,
                "option_not_applicable",
                gettext("%(option)s does not apply to a %(format)s tournament.")
                % {"option": option, "format": tournament_format},
                f"{pointer}/{option}",
            )
    table_size = values["table_size"]
    if values["entrant_kind"] == EntrantKind.TEAM and table_size > MAX_TEAM_TABLE:
        _error(
            errors,
            "invalid_table_size",
            gettext("A table seats at most %(most)s teams, not %(size)s.")
            % {"most": MAX_TEAM_TABLE, "size": table_size},
            f"{pointer}/table_size",
        )
    if values["entrant_kind"] == EntrantKind.TEAM and values.get("sides_per_table"):
        _error(
            errors,
            "option_not_applicable",
            gettext("Teams are fixed partners; sides_per_table partners individuals."),
            f"{pointer}/sides_per_table",
        )
    policy = FORMATS.get(tournament_format)  # the serializers and forms accept no other
    if policy is not None:
        errors.extend(policy.check_settings(values, pointer))
    minimum = values.get("min_table_size")
    if minimum is not None and not 2 <= minimum <= table_size:
        _error(
            errors,
            "invalid_table_size",
            gettext("min_table_size must be 2 to the table size (%(size)s).")
            % {"size": table_size},
            f"{pointer}/min_table_size",
        )
    tie_breaks = values.get("tie_breaks") or []
    seen: set[str] = set()
    for index, name in enumerate(tie_breaks):
        if name not in ranking.TIE_BREAKS:
            _error(
                errors,
                "unknown_tie_break",
                gettext("%(name)r is not a tie-break; choose from %(choices)s.")
                % {"name": name, "choices": ", ".join(ranking.TIE_BREAKS)},
                f"{pointer}/tie_breaks/{index}",
            )
        elif name in seen:
            _error(
                errors,
                "duplicate_tie_break",
                gettext("%(name)r is listed twice.") % {"name": name},
                f"{pointer}/tie_breaks/{index}",
            )
        seen.add(name)
    if not errors:
        _check_formation(values, errors)
    raise_errors(errors)
    return values


def settings_of(tournament: Tournament) -> dict:
    return {name: getattr(tournament, name) for name in SETTINGS}


# ---------------------------------------------------------------------------------------------
# Entrants


WRONG_KIND_DETAIL = {
    # the tournament's entrant kind -> what an entrant of the other kind is told
    EntrantKind.PLAYER: gettext_lazy(
        "This tournament is played by individual players; enter players."
    ),
    EntrantKind.TEAM: gettext_lazy("This tournament is played by teams; enter a team."),
}


def _may_enter(
    tournament: Tournament, kind: str, name: str, is_active: bool, errors: list, field: str
) -> bool:
    """An entrant of ``kind`` may enter: the tournament's kind, and active (else an error)."""
    if tournament.entrant_kind != kind:
        _error(errors, "wrong_entrant_kind", str(WRONG_KIND_DETAIL[tournament.entrant_kind]), field)
        return False
    if not is_active:
        _error(
            errors, "entrant_inactive", gettext("%(name)s is not active.") % {"name": name}, field
        )
        return False
    return True


def check_entrants(tournament: Tournament, items: list[dict], *, pointer: str = "/entrants"):
    """Validate entrants to add to ``tournament`` (each ``{"player"|"team": id, "seed"?: n}``).

    Returns a list of ``(player or None, team or None, seed)``; raises a 400 ``Problem``.
    """
    errors: list[dict] = []
    club = tournament.club
    existing = list(
        tournament.entrants.select_related("team").prefetch_related("team__team_members")
    )
    # player id -> None when entered alone, else the name of the team they are entered in
    entered_players: dict[int, str | None] = {e.player_id: None for e in existing if e.player_id}
    entered_teams = {e.team_id for e in existing if e.team_id}
    for entrant in existing:
        if entrant.team_id:
            for member in entrant.team.team_members.all():
                entered_players[member.player_id] = entrant.team.name
    seeds_taken = {e.seed for e in existing if e.seed is not None}
    team_sizes = {len(e.team.team_members.all()) for e in existing if e.team_id}
    player_ids = [item["player"] for item in items if item.get("player") is not None]
    team_ids = [item["team"] for item in items if item.get("team") is not None]
    players = {p.pk: p for p in Player.objects.filter(club=club, pk__in=player_ids)}
    teams = {
        t.pk: t
        for t in Team.objects.filter(club=club, pk__in=team_ids).prefetch_related(
            "team_members__player"
        )
    }
    accepted = []
    for index, item in enumerate(items):
        here = f"{pointer}/{index}"
        player_id, team_id, seed = item.get("player"), item.get("team"), item.get("seed")
        if (player_id is None) == (team_id is None):
            _error(errors, "player_or_team", gettext("Give exactly one of player and team."), here)
            continue
        if seed is not None:
            if seed in seeds_taken:
                _error(
                    errors,
                    "duplicate_seed",
                    gettext("Seed %(seed)s is already taken.") % {"seed": seed},
                    f"{here}/seed",
                )
                continue
        if player_id is not None:
            player = players.get(player_id)
            field = f"{here}/player"
            if player is None:
                _error(
                    errors,
                    "entrant_not_in_club",
                    gettext("Player %(id)s is not a player of club %(club)s.")
                    % {"id": player_id, "club": club.slug},
                    field,
                )
                continue
            if player_id in entered_players:
                team_name = entered_players[player_id]
                if team_name is None:
                    _error(
                        errors,
                        "already_entered",
                        gettext("%(name)s is already entered alone.")
                        % {"name": player.display_name},
                        field,
                    )
                else:
                    _error(
                        errors,
                        "player_entered_twice",
                        gettext("%(name)s is already entered in team %(team)s.")
                        % {"name": player.display_name, "team": team_name},
                        field,
                    )
                continue
            if not _may_enter(
                tournament, EntrantKind.PLAYER, player.display_name, player.is_active, errors, field
            ):
                continue
            entered_players[player_id] = None
            accepted.append((player, None, seed))
        else:
            team = teams.get(team_id)
            field = f"{here}/team"
            if team is None:
                _error(
                    errors,
                    "entrant_not_in_club",
                    gettext("Team %(id)s is not a team of club %(club)s.")
                    % {"id": team_id, "club": club.slug},
                    field,
                )
                continue
            if team_id in entered_teams:
                _error(
                    errors,
                    "already_entered",
                    gettext("%(name)s is already entered.") % {"name": team.name},
                    field,
                )
                continue
            members = [member.player for member in team.team_members.all()]
            clash = next((m for m in members if m.pk in entered_players), None)
            if clash is not None:
                other_team = entered_players[clash.pk]
                if other_team is None:
                    detail = gettext("%(name)s of %(team)s is already entered alone.")
                else:
                    detail = gettext("%(name)s of %(team)s is already entered in team %(other)s.")
                _error(
                    errors,
                    "player_entered_twice",
                    detail % {"name": clash.display_name, "team": team.name, "other": other_team},
                    field,
                )
                continue
            if not _may_enter(
                tournament, EntrantKind.TEAM, team.name, team.is_active, errors, field
            ):
                continue
            if team_sizes and len(members) not in team_sizes:
                _error(
                    errors,
                    "team_size_mismatch",
                    gettext("%(name)s has %(count)s players; the other teams have %(others)s.")
                    % {"name": team.name, "count": len(members), "others": min(team_sizes)},
                    field,
                )
                continue
            team_sizes.add(len(members))
            entered_teams.add(team_id)
            for member in members:
                entered_players[member.pk] = team.name
            accepted.append((None, team, seed))
        if seed is not None:
            seeds_taken.add(seed)
    if not errors and tournament.entrant_kind == EntrantKind.TEAM and team_sizes:
        _check_formation(settings_of(tournament), errors, team_size=min(team_sizes))
        for error in errors:
            error["pointer"] = pointer
    raise_errors(errors)
    return accepted
