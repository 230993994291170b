"""The drive policy: one game per round, winners move up and partners change.

What it does: checks a drive's settings (``round_count``, and the table, sides and movement
``tournaments.draw.drive.DriveRules`` accepts); draws the first game from the seeds (or a random
seating from the stored seed) and each next one from the last game's tables and results, seating
late arrivals; cuts each table between those who move up (``advancing_per_table`` winners) and
the others, splitting ties by tricks then lots; every later match depends on an earlier result,
and a changed result redraws the later rounds while nothing in them has begun (``RoundByRound``).

What it does not do: store or start anything itself (``RoundByRound``, ``bridge``, the callers).

Locks: as ``tournaments.formats.base``.
"""

from __future__ import annotations

from config.problems import localized_detail
from tournaments import bridge, rounds
from tournaments.draw import drive as drive_draw
from tournaments.draw.errors import DrawError
from tournaments.draw.types import MatchResult, RoundDraw
from tournaments.formats.base import break_ties, round_count_required, settings_error
from tournaments.formats.round_by_round import RoundByRound, present_order
from tournaments.models import Format, Tournament


class DrivePolicy(RoundByRound):
    format = Format.DRIVE
    options = frozenset({"advancing_per_table", "sides_per_table", "movement", "round_count"})
    default_tie_breaks = ("match_wins", "points_for", "tricks_won", "lots")
    accepts_late_entrants = True
    draws_from_results = True

    def check_settings(self, values: dict, pointer: str) -> list[dict]:
        errors = round_count_required(values, pointer)
        if values.get("round_count"):
            try:
                drive_draw.DriveRules(
                    table_size=values["table_size"],
                    games=values["round_count"],
                    sides_per_table=values.get("sides_per_table"),
                    winners_per_table=values.get("advancing_per_table"),
                    movement=values.get("movement") or "losers_stay",
                )
            except DrawError as error:
                errors.append(
                    settings_error(error.code, localized_detail(error), f"{pointer}/table_size")
                )
        return errors

    def advancing_per_table(self, tournament: Tournament) -> int:
        return bridge.drive_rules_of(tournament).winners

    def rank_table(self, tournament: Tournament, result: MatchResult) -> MatchResult:
        return break_ties(result, tournament.lots_seed)

    def next_draw(self, tournament: Tournament) -> tuple[int, RoundDraw]:
        played = bridge.played_rounds_of(tournament)
        if not played:
            rounds.start_tournament(tournament)
        order = present_order(tournament) if played else bridge.draw_order_of(tournament)
        rules = bridge.drive_rules_of(tournament)
        if not played:
            # Without seeds a drive starts from a random seating, drawn from the stored seed.
            seeded = tournament.entrants.filter(seed__isnull=False).exists()
            game = drive_draw.first_game(
                order, rules, seed=None if seeded else tournament.lots_seed
            )
        else:
            if not played[-1].is_complete:
                raise DrawError(
                    "round_incomplete", f"round {len(played)} still has undecided games"
                )
            last = (
                tournament.rounds.filter(number=len(played))
                .prefetch_related("matches__slots")
                .get()
            )
            previous = bridge.drive_game_of(last)
            seated = {entrant for table in previous.tables for entrant in table.entrants}
            newcomers = [entrant for entrant in order if entrant not in seated]
            game = drive_draw.next_game(rules, previous, played[-1].results, newcomers)
        return len(played), RoundDraw(game.tables)
