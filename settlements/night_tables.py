"""The physical tables of a club night: start a game at table N, and read what each table plays.

What it does: ``start_night_game`` starts a game at table *N* of an open night in one
transaction — it locks the night, refuses a closed night (409 ``night_closed``), a table number
out of 1..``MAX_TABLES`` (400 ``invalid_table``, pointer ``/table``) and a table whose game is
still in progress (409 ``table_busy``, naming its players), then starts the game through
``games.services.create_game`` (its own checks: the club's players, the seating, the rules) and
links it to the night at that table (``NightGame.table_number``). A refusal stores nothing.
``list_night_tables`` gives the night's tables, each with the game now at it (the one in
progress, else the last) and its players' names, in a fixed number of queries;
``list_night_table_game_ids`` each table's games by id; ``count_night_tables`` the largest table
used.

What it does not do: make table links (``table_links.services.create_night_table_links``: table
*N*'s link opens the game now at table *N*, whichever it is) or check club roles (the API view and
the console page do).

Terms: *table* — table *N* of the room, 1-based, for the whole night; a game at a table is a
``NightGame`` with that ``table_number``. A game started elsewhere during the night (the games
API) has no table and is linked when the night closes.
"""

from __future__ import annotations

from django.db import transaction
from django.db.models import Prefetch
from django.utils.translation import gettext, pgettext

from config.problems import Problem
from games.models import Game, GameSeat, GameStatus
from games.services import create_game
from settlements.models import Night, NightGame, NightStatus

MAX_TABLES = 99


def check_table_number(table_number, pointer: str = "/table") -> int:
    """A table number of a night: a whole number from 1 to ``MAX_TABLES`` (400 otherwise)."""
    if (
        isinstance(table_number, bool)
        or not isinstance(table_number, int)
        or not (1 <= table_number <= MAX_TABLES)
    ):
        raise Problem(
            code="invalid_table",
            pointer=pointer,
            detail=gettext("Give a table number from 1 to %(count)s.") % {"count": MAX_TABLES},
        )
    return table_number


def side_names(game: Game) -> list[str]:
    """Each side's players, "Mary & Tom", by side index (the seats and their players loaded)."""
    sides: dict[int, list[str]] = {}
    for seat in sorted(game.seats.all(), key=lambda seat: seat.seat):
        sides.setdefault(seat.side, []).append(seat.player.display_name)
    return [" & ".join(names) for _, names in sorted(sides.items())]


def sides_in_words(game: Game) -> str:
    """The game's players by side, "Mary & Tom v Seán & Úna"."""
    return f" {pgettext('versus', 'v')} ".join(side_names(game))


def start_night_game(
    *,
    night_id: int,
    table_number,
    user,
    game: str,
    seat_player_ids: list[int],
    teams: list[list[int]] | None = None,
    team_ids: list[int | None] | None = None,
    first_dealer: int = 0,
    stake_minor: int | None = None,
    house_rules: dict | None = None,
) -> Game:
    """Start a game at table ``table_number`` of the open night ``night_id``; returns the game.

    404 ``not_found`` for no such night; 409 ``night_closed`` once it is closed; 400
    ``invalid_table`` (pointer ``/table``) for a table out of 1..99; 409 ``table_busy`` (pointer
    ``/table``) while a game at that table is in progress; then ``create_game``'s own refusals
    (``/seats``, ``/teams``, ``/first_dealer``, ``/game``, ``/house_rules``). Nothing is stored
    unless the game starts.
    """
    check_table_number(table_number)
    with transaction.atomic():
        # The night's row lock serialises two starts at one table (and the close).
        night = (
            Night.objects.select_for_update(of=("self",))
            .select_related("club")
            .filter(pk=night_id)
            .first()
        )
        if night is None:
            raise Problem(
                code="not_found",
                detail=gettext("No night %(night)s.") % {"night": night_id},
            )
        if night.status == NightStatus.CLOSED:
            raise Problem(
                code="night_closed",
                detail=gettext("%(name)s is closed: it starts no more games.")
                % {"name": night.name},
            )
        playing = (
            Game.objects.filter(
                pk__in=NightGame.objects.filter(night=night, table_number=table_number).values(
                    "game_id"
                ),
                status=GameStatus.IN_PROGRESS,
            )
            .prefetch_related(Prefetch("seats", GameSeat.objects.select_related("player")))
            .order_by("-id")
            .first()
        )
        if playing is not None:
            raise Problem(
                code="table_busy",
                pointer="/table",
                detail=gettext(
                    "Table %(table)s is still playing game %(game)s (%(players)s): "
                    "finish it first, or choose another table."
                )
                % {"table": table_number, "game": playing.pk, "players": sides_in_words(playing)},
            )
        started = create_game(
            club=night.club,
            user=user,
            game=game,
            seat_player_ids=seat_player_ids,
            teams=teams,
            team_ids=team_ids,
            first_dealer=first_dealer,
            house_rules=house_rules,
            stake_minor=stake_minor,
        )
        NightGame.objects.create(night=night, game=started, table_number=table_number)
    return started


def list_night_tables(night: Night) -> list[dict]:
    """The night's tables in order, each ``{"number", "game", "games", "sides"}``: the game now at
    the table (in progress, else the last started), how many games it has had, and the current
    game's sides as ``{"names", "total"}`` (two queries)."""
    rows = list(
        NightGame.objects.filter(night=night, table_number__isnull=False)
        .select_related("game")
        .prefetch_related(Prefetch("game__seats", GameSeat.objects.select_related("player")))
        .order_by("table_number", "game_id")
    )
    tables: dict[int, list[Game]] = {}
    for row in rows:
        tables.setdefault(row.table_number, []).append(row.game)
    shown = []
    for number, games in sorted(tables.items()):
        current = next(
            (game for game in reversed(games) if game.status == GameStatus.IN_PROGRESS), games[-1]
        )
        totals = list(current.totals or [])
        shown.append(
            {
                "number": number,
                "game": current,
                "games": len(games),
                "sides": [
                    {"names": names, "total": totals[index] if index < len(totals) else 0}
                    for index, names in enumerate(side_names(current))
                ],
            }
        )
    return shown


def list_night_table_game_ids(night: Night) -> list[dict]:
    """The night's tables in order, each ``{"table", "games"}``: the ids of the games started at
    it, oldest first (one query)."""
    tables: dict[int, list[int]] = {}
    for number, game_id in (
        NightGame.objects.filter(night=night, table_number__isnull=False)
        .order_by("table_number", "game_id")
        .values_list("table_number", "game_id")
    ):
        tables.setdefault(number, []).append(game_id)
    return [{"table": number, "games": games} for number, games in tables.items()]


def count_night_tables(night: Night) -> int:
    """The largest table number a game of the night was started at (0 before the first)."""
    numbers = (
        NightGame.objects.filter(night=night, table_number__isnull=False)
        .values_list("table_number", flat=True)
        .order_by("-table_number")
    )
    return numbers.first() or 0
