"""Reads of games, hands, ledgers and balances, in the shape the API and the pages need.

What it does: builds querysets with their ``select_related``/``prefetch_related`` so that every
endpoint costs a fixed number of queries however many games, seats or hands there are (pinned in
tests/games/test_queries.py), and fetches one game by id (``get_game``, ``get_game_for_check``)
for the views, which then check permissions on it. For the pages: what a game page's poll
compares (``get_game_live_state``, one query), the corrections and undos of a game's hands
(``list_hand_corrections_and_undos``), and a player's games, results and balance over time
(``list_games_of_player``, ``count_results_of_player``, ``list_balance_steps``).

A private draw stays private: the games of a round not yet released (``games.match_links``) are
left out of every read for all but the club's organisers (``without_private_draws``,
``is_hidden_from``; the fetched games carry ``in_private_draw``).

What it does not do: decide who may read what (``clubs.permissions``) or write (``services``).
"""

from __future__ import annotations

from django.db.models import (
    Count,
    F,
    Prefetch,
    Q,
    QuerySet,
    Sum,
)
from django.http import Http404

from clubs.models import Club, Player
from clubs.permissions import can_manage
from clubs.selectors import annotate_viewer
from games import match_links
from games.models import Game, GameSeat, GameSide, Hand, LedgerEntry


def _with_seating(queryset: QuerySet[Game]) -> QuerySet[Game]:
    """With club, creator, seats and sides, and ``tournament_match_id`` (the game's match, kept
    by the app above games: ``games.match_links``; a join in the same query)."""
    queryset = queryset.annotate(
        tournament_match_id=match_links.match_id_expression(),
        in_private_draw=match_links.private_draw_expression(),
    )
    return queryset.select_related("club", "created_by").prefetch_related(
        Prefetch("seats", queryset=GameSeat.objects.select_related("player").order_by("seat")),
        Prefetch("sides", queryset=GameSide.objects.select_related("team").order_by("index")),
    )


def list_games(*, club: Club) -> QuerySet[Game]:
    """The club's games, newest first, each with its seats, players and sides."""
    return _with_seating(Game.objects.filter(club=club)).order_by("-created_at", "-id")


def get_game(*, game_id: int) -> Game:
    """The game with its club, seats and sides; Http404 if there is none."""
    game = _with_seating(Game.objects.filter(pk=game_id)).first()
    if game is None:
        raise Http404("No game with this id.")
    return game


def get_game_for_check(*, game_id: int) -> Game:
    """The game with its club only (for permission checks before a write); Http404 if none."""
    game = (
        Game.objects.select_related("club")
        .annotate(in_private_draw=match_links.private_draw_expression())
        .filter(pk=game_id)
        .first()
    )
    if game is None:
        raise Http404("No game with this id.")
    return game


def without_private_draws(games: QuerySet[Game], *, user, club: Club) -> QuerySet[Game]:
    """``games`` less those of rounds not yet released, unless ``user`` organises ``club``."""
    condition = match_links.private_draw_q()
    if condition is None or can_manage(user, club):
        return games
    return games.exclude(condition)


def is_hidden_from(game: Game, user) -> bool:
    """Whether ``game`` (fetched by ``get_game``/``get_game_for_check``) is of a round not yet
    released and ``user`` does not organise its club: for them it does not exist."""
    return bool(getattr(game, "in_private_draw", False)) and not can_manage(user, game.club)


def list_hands(*, game: Game) -> QuerySet[Hand]:
    return (
        Hand.objects.filter(game=game)
        .select_related("entered_by", "confirmed_by", "scored_by", "accepted_by_organiser")
        .order_by("number")
    )


def get_hand(*, game: Game, number: int) -> Hand:
    hand = list_hands(game=game).filter(number=number).first()
    if hand is None:
        raise Http404(f"Game {game.pk} has no hand {number}.")
    return hand


def list_ledger_entries(*, game: Game) -> QuerySet[LedgerEntry]:
    return LedgerEntry.objects.filter(game=game).select_related("player").order_by("booking", "id")


def club_balances(*, club: Club) -> list[tuple[Player, int]]:
    """Each player of the club with a ledger entry, and their net (minor units), by name."""
    nets = dict(
        LedgerEntry.objects.filter(club=club)
        .values_list("player_id")
        .annotate(net=Sum("amount_minor"))
        .values_list("player_id", "net")
    )
    players = Player.objects.filter(pk__in=nets).order_by("display_name", "id")
    return [(player, nets[player.pk]) for player in players]


def get_game_live_state(*, game_id: int, club_slug: str, user) -> dict | None:
    """What a game page shows changes only when this changes: one query.

    Returns ``{"version", "club_is_public", "viewer_role", "viewer_player", "in_private_draw"}``
    for the game of that club (None if there is none): the game's version grows with every hand,
    correction and undo; ``names_version`` grows when a name the page shows is changed (a
    rename); the reader's role and linked player, and whether the game is of a round
    not yet released, are read in the same query so that a poll answered ``304`` costs this
    query alone.
    """
    queryset = Game.objects.filter(pk=game_id, club__slug=club_slug).annotate(
        in_private_draw=match_links.private_draw_expression()
    )
    queryset = annotate_viewer(queryset, user)
    return queryset.values(
        "version",
        "viewer_role",
        "viewer_player",
        "in_private_draw",
        club_is_public=F("club__public_standings"),
        names_version=F("club__names_version"),
    ).first()


def list_hand_corrections_and_undos(*, game: Game) -> list:
    """The hands of ``game`` that were corrected or undone, as simple-history records (one
    query): each with ``number``, ``history_type`` ("~" changed, "-" deleted), the
    ``history_change_reason`` the services wrote ("hand 2 corrected", "hand 7 undone", ...),
    ``history_date``, ``history_user`` and the values the hand had (``totals_after``, ``result``).
    Recomputations of later hands after a correction are left out: the correction says it."""
    return list(
        Hand.history.filter(game_id=game.pk)
        .filter(
            Q(history_type="-") | Q(history_type="~", history_change_reason__endswith=" corrected")
        )
        .select_related("history_user")
        .order_by("history_date", "history_id")
    )


def list_games_of_player(*, player, user) -> QuerySet[Game]:
    """The games the player sat in that ``user`` may see (no private draw unless they organise
    the club), newest first, each with its seats and sides."""
    games = list_games(club=player.club).filter(seats__player=player)
    return without_private_draws(games, user=user, club=player.club)


def count_results_of_player(*, player, user) -> dict:
    """``{"played", "won"}``: the player's finished games and those their side won (one query),
    of the games ``user`` may see (no private draw unless they organise the club)."""
    seats = GameSeat.objects.filter(player=player, game__status="finished")
    condition = match_links.private_draw_q()
    if condition is not None and not can_manage(user, player.club):
        seats = seats.exclude(
            game__in=Game.objects.filter(condition, seats__player=player).values("pk")
        )
    return seats.aggregate(
        played=Count("id"), won=Count("id", filter=Q(game__winner_side=F("side")))
    )


def list_balance_steps(*, player) -> list[tuple]:
    """``(when, amount_minor)`` of each of the player's ledger entries, oldest first (one
    query): the steps of their balance over time."""
    return list(
        LedgerEntry.objects.filter(player=player)
        .order_by("created_at", "id")
        .values_list("created_at", "amount_minor")
    )
