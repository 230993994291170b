"""What tournaments hooks into games: the match link, the progress subscriber, the correction check.

Games does not import tournaments; it reaches these three through the settings that name them
(config/settings.py), and import-linter proves the arrow stays one way:

- ``MATCH_LINKS`` (``JINK_GAME_MATCH_LINKS``, see ``games.match_links``): the terms a match
  imposes on a game started for it through the API (the tournament's game, house rules and stake),
  the storing of ``MatchGame`` rows when games are created, and the expression that shows a
  game's match id in the games API (``tournament_match``), and the filter of the games of rounds
  not yet released (a private draw, hidden from all but the organisers).
- ``progress_match_of_game`` (in ``JINK_GAME_CHANGE_SUBSCRIBERS``): after the commit of a change
  to a game's result (finished, reopened, winner changed), queues ``match_progress_task`` for the
  game's match, if it has one. Quick and never failing: one small query, ``config.tasks.enqueue``
  by the task's name.
- ``check_match_allows_result_change`` (in ``JINK_GAME_CHANGE_CHECKS``): before a finished
  tournament game's winner changes, ``tournaments.corrections.make_way_for_correction`` decides
  (409 ``match_locked``, ``tournament_closed``, or a reset of the dependent matches).

What it does not do: recompute anything itself (the task and the services do).
"""

from __future__ import annotations

from django.db.models import F, Q

from config.tasks import enqueue
from games.changes import GameChange, GameChangeKind, ProposedResultChange
from games.match_links import MatchTerms
from tournaments.corrections import make_way_for_correction
from tournaments.models import Match, MatchGame, TournamentStatus
from tournaments.play import terms_of


class MatchLinks:
    """The ``games.match_links`` provider (see that module for the contract)."""

    @staticmethod
    def load_terms(*, club, match_ids) -> dict[int, MatchTerms]:
        matches = Match.objects.select_related("tournament").filter(
            pk__in=match_ids, tournament__club=club
        )
        return {match.pk: terms_of(match, match.tournament) for match in matches}

    @staticmethod
    def link_games(*, links) -> None:
        MatchGame.objects.bulk_create(
            MatchGame(game=game, match_id=match_id) for game, match_id in links
        )

    @staticmethod
    def match_id_expression():
        return F("match_link__match_id")

    @staticmethod
    def private_draw_q():
        return Q(match_link__isnull=False, match_link__match__round__released_at__isnull=True)


MATCH_LINKS = MatchLinks()
CORRECTIONS = frozenset({GameChangeKind.HAND_CORRECTED, GameChangeKind.HAND_UNDONE})


def match_id_of_game(game_id: int) -> int | None:
    """The id of the match ``game_id`` is played for, or None."""
    return MatchGame.objects.filter(game_id=game_id).values_list("match_id", flat=True).first()


def progress_match_of_game(change: GameChange) -> None:
    """Queue the match's recomputation when a match game's result changed (a subscriber), or
    when a game of a closed tournament is corrected (its points move the standings and the
    prizes: the settle-up gets a version of differences)."""
    if change.changes_result:
        match_id = match_id_of_game(change.game_id)
    elif change.kinds & CORRECTIONS:
        match_id = (
            MatchGame.objects.filter(
                game_id=change.game_id, match__tournament__status=TournamentStatus.CLOSED
            )
            .values_list("match_id", flat=True)
            .first()
        )
    else:
        return
    if match_id is not None:
        enqueue("tournaments.match_progress_task", match_id)


# What config.announce asks before it writes the change's outbox row (no query): a hand that
# changes no result and corrects nothing needs none.
progress_match_of_game.wants = lambda change: (
    change.changes_result or bool(change.kinds & CORRECTIONS)
)


def check_match_allows_result_change(proposal: ProposedResultChange) -> None:
    """Refuse a result change a decided match does not allow (a check; raises a Problem)."""
    link = (
        MatchGame.objects.filter(game_id=proposal.game_id)
        .values("match_id", "match__tournament_id")
        .first()
    )
    if link is None:
        return
    make_way_for_correction(
        game_id=proposal.game_id,
        match_id=link["match_id"],
        tournament_id=link["match__tournament_id"],
        new_winner_side=proposal.new_winner_side,
        reset_dependents=proposal.reset_dependents,
        user=proposal.actor,
        winner_changes=proposal.winner_changes,
    )
