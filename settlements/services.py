"""Writes of settlements at the club: open and close a club night, set an event's prize split,
take the entry fees at the door.

What it does:
- ``open_night`` / ``close_night``: a club has at most one open night; closing it links the club's
  games played since it opened outside any tournament (``link_game_to_open_night`` links one
  game explicitly), refuses while one of them is in progress, and enqueues the settle-up on commit
  (``settlements.settle_event_task``).
- ``set_prize_split``: the percentages per place of a tournament's or a night's prize pool
  (``check_prize_split`` checks them).
- ``mark_entry_fee``: a player's entry fee taken at the door in cash or by card (into the club's
  pot), or owed (a transfer to the club in the settle-up); refused when marked twice or already
  paid, or in a club that settles everything between players. After the event closed, a change
  enqueues a new settle-up version.

What it does not do: check club roles for the API (views do); set the club's settle-up rule, store
a settle-up version or mark its transfers paid (``settlements.settle_up``); send the settle-up
e-mails (``settlements.mails``); compute (``settlements.computation``).

Terms: see ``settlements.models`` and ``settlements.computation``; *event*: a tournament or a
club night (``settlements.settle_up.lock_event`` locks one).
"""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext

from clubs.models import Club, Player
from config.problems import Problem
from config.tasks import enqueue
from games.models import Game, GameStatus
from settlements.models import (
    PAID_AT_DOOR,
    EntryFeePayment,
    FeeStatus,
    Night,
    NightGame,
    NightStatus,
    PrizeSplit,
)
from settlements.settle_up import between_players, lock_event
from tournaments.models import Entrant, TournamentStatus

MAX_PLACES = 20


# ---------------------------------------------------------------------------------------------
# Nights


def open_night(
    *,
    club: Club,
    user,
    name: str = "",
    entry_fee_minor: int | None = None,
    prize_split: list[int] | None = None,
) -> Night:
    """Open a night for ``club`` (409 ``night_open`` while another is open)."""
    if entry_fee_minor is not None and entry_fee_minor < 0:
        raise Problem(
            code="invalid_amount",
            detail=gettext("The entry fee may not be negative."),
            pointer="/entry_fee",
        )
    if prize_split is not None:
        check_prize_split(prize_split)
    with transaction.atomic():
        Club.objects.select_for_update().filter(pk=club.pk).first()
        current = Night.objects.filter(club=club, status=NightStatus.OPEN).first()
        if current is not None:
            raise Problem(
                code="night_open",
                detail=gettext("%(name)s is still open (night %(night)s); close it first.")
                % {"name": current.name, "night": current.pk},
            )
        now = timezone.now()
        night = Night.objects.create(
            club=club,
            name=name or f"Night of {now:%Y-%m-%d}",
            entry_fee_minor=entry_fee_minor,
            opened_at=now,
            opened_by=_user_or_none(user),
        )
        if prize_split:
            PrizeSplit.objects.create(night=night, percentages=list(prize_split))
    return night


def _outside_tournaments(games):
    # Games of a tournament match are the tournament's, not the night's.
    return games.filter(match_link__isnull=True)


def link_game_to_open_night(*, game_id: int) -> bool:
    """Link a game just started to its club's open night, when it is outside any tournament."""
    game = _outside_tournaments(Game.objects.filter(pk=game_id)).only("id", "club_id").first()
    if game is None:
        return False
    night = Night.objects.filter(club_id=game.club_id, status=NightStatus.OPEN).first()
    if night is None:
        return False
    _, created = NightGame.objects.get_or_create(game=game, defaults={"night": night})
    return created


def close_night(*, night_id: int, user) -> Night:
    """Close the night: link its games, refuse while one is in progress, settle on commit."""
    with transaction.atomic():
        night = Night.objects.select_for_update().filter(pk=night_id).first()
        if night is None:
            raise Problem(
                code="not_found",
                detail=gettext("No night %(night)s.") % {"night": night_id},
            )
        if night.status == NightStatus.CLOSED:
            raise Problem(code="night_closed", detail=gettext("The night is already closed."))
        evening = _outside_tournaments(
            Game.objects.filter(club_id=night.club_id, created_at__gte=night.opened_at)
        ).exclude(pk__in=NightGame.objects.values("game_id"))
        NightGame.objects.bulk_create(
            [
                NightGame(night=night, game_id=game_id)
                for game_id in evening.values_list("pk", flat=True)
            ],
            ignore_conflicts=True,
        )
        playing = list(
            Game.objects.filter(
                pk__in=night.night_games.values("game_id"), status=GameStatus.IN_PROGRESS
            ).values_list("pk", flat=True)
        )
        if playing:
            raise Problem(
                code="games_in_progress",
                detail=gettext("Games %(games)s are still in progress; finish them first.")
                % {"games": playing},
            )
        night.status = NightStatus.CLOSED
        night.closed_at = timezone.now()
        night.closed_by = _user_or_none(user)
        night.save(update_fields=["status", "closed_at", "closed_by"])
        transaction.on_commit(lambda: _enqueue_settlement(night_id=night.pk))
    return night


def _enqueue_settlement(*, tournament_id: int | None = None, night_id: int | None = None):
    enqueue("settlements.settle_event_task", tournament_id, night_id)


# ---------------------------------------------------------------------------------------------
# Prize split


def check_prize_split(percentages, pointer: str = "/prize_split") -> list[int]:
    if not isinstance(percentages, list) or len(percentages) > MAX_PLACES:
        raise Problem(
            code="invalid_prize_split",
            pointer=pointer,
            detail=gettext(
                "A prize split is a list of at most %(places)s whole percentages, best place first."
            )
            % {"places": MAX_PLACES},
        )
    for index, value in enumerate(percentages):
        if isinstance(value, bool) or not isinstance(value, int) or not 0 < value <= 100:
            raise Problem(
                code="invalid_prize_split",
                pointer=f"{pointer}/{index}",
                detail=gettext("Place %(place)s: a whole percentage from 1 to 100.")
                % {"place": index + 1},
            )
    if sum(percentages) > 100:
        raise Problem(
            code="invalid_prize_split",
            pointer=pointer,
            detail=gettext("The percentages sum to %(sum)s, more than 100.")
            % {"sum": sum(percentages)},
        )
    return percentages


def set_prize_split(
    *,
    percentages: list[int],
    user,
    tournament_id: int | None = None,
    night_id: int | None = None,
    pointer: str = "/prize_split",
) -> PrizeSplit | None:
    """Set (or, with ``[]``, remove) the prize split of a tournament or a night (400
    ``invalid_prize_split`` at ``pointer`` for a place out of 1..100 or a sum over 100)."""
    check_prize_split(percentages, pointer)
    with transaction.atomic():
        event = lock_event(tournament_id=tournament_id, night_id=night_id)
        key = {"tournament": event} if tournament_id else {"night": event}
        if not percentages:
            PrizeSplit.objects.filter(**key).delete()
            return None
        split, _ = PrizeSplit.objects.update_or_create(
            **key, defaults={"percentages": list(percentages)}
        )
    return split


# ---------------------------------------------------------------------------------------------
# The pot at the door


def _fee_payers(event, *, tournament_id: int | None) -> set[int]:
    """Who may have an entry fee: a tournament's entered players (individuals and the members
    of team entrants, marked present or not); for a night, any player of the club."""
    if tournament_id:
        rows = Entrant.objects.filter(tournament=event).values_list(
            "player_id", "team__team_members__player_id"
        )
        return {player for row in rows for player in row if player is not None}
    return set(Player.objects.filter(club_id=event.club_id).values_list("pk", flat=True))


def check_fee_status(status, pointer: str = "/status") -> str:
    if status not in FeeStatus.values:
        raise Problem(
            code="invalid_fee_status",
            pointer=pointer,
            detail=gettext("How the fee was taken: cash, card or owed."),
        )
    return status


def mark_entry_fee(
    *,
    user,
    player_id: int,
    status: str,
    amount_minor: int | None = None,
    tournament_id: int | None = None,
    night_id: int | None = None,
) -> EntryFeePayment:
    """Record how a player's entry fee was taken: in cash or by card at the door (into the
    club's pot), or owed (a transfer to the club in the settle-up).

    ``amount_minor`` defaults to the event's entry fee. A fee already paid at the door, or
    marked the same way again, is refused (409 ``fee_already_marked``, pointer ``/player``);
    owed may become paid. A club that settles everything between players has no pot (409
    ``no_pot``). After the event closed, a change queues a new settle-up version.
    """
    check_fee_status(status)
    if amount_minor is not None and (
        isinstance(amount_minor, bool) or not isinstance(amount_minor, int) or amount_minor < 0
    ):
        raise Problem(
            code="invalid_amount",
            pointer="/amount",
            detail=gettext("An entry fee is an amount of 0 or more."),
        )
    with transaction.atomic():
        event = lock_event(tournament_id=tournament_id, night_id=night_id)
        if between_players(event.club_id):
            raise Problem(
                code="no_pot",
                pointer="/status",
                detail=gettext(
                    "This club settles everything between players: there is no pot at the door."
                ),
            )
        if player_id not in _fee_payers(event, tournament_id=tournament_id):
            raise Problem(
                code="not_entered",
                pointer="/player",
                detail=gettext("Player %(player)s is not entered here.") % {"player": player_id},
            )
        fee = event.entry_fee_minor
        if amount_minor is None:
            if not fee:
                raise Problem(
                    code="required",
                    pointer="/amount",
                    detail=gettext("This event has no entry fee: give the amount."),
                )
            amount_minor = fee
        scope = {"tournament": event} if tournament_id else {"night": event}
        mark = (
            EntryFeePayment.objects.select_for_update().filter(player_id=player_id, **scope).first()
        )
        if mark is not None and (mark.status in PAID_AT_DOOR or mark.status == status):
            name = Player.objects.filter(pk=player_id).values_list("display_name", flat=True)
            raise Problem(
                code="fee_already_marked",
                pointer="/player",
                detail=gettext("%(name)s's entry fee is already marked: %(status)s.")
                % {"name": name.first(), "status": FeeStatus(mark.status).label},
            )
        now = timezone.now()
        if mark is None:
            mark = EntryFeePayment.objects.create(
                club_id=event.club_id,
                player_id=player_id,
                status=status,
                amount_minor=amount_minor,
                marked_at=now,
                marked_by=_user_or_none(user),
                **scope,
            )
        else:
            mark.status, mark.amount_minor = status, amount_minor
            mark.marked_at, mark.marked_by = now, _user_or_none(user)
            mark.save(update_fields=["status", "amount_minor", "marked_at", "marked_by"])
        closed = event.status == (TournamentStatus.CLOSED if tournament_id else NightStatus.CLOSED)
        if closed:
            transaction.on_commit(
                lambda: _enqueue_settlement(tournament_id=tournament_id, night_id=night_id)
            )
    return mark


def _user_or_none(user):
    return user if getattr(user, "is_authenticated", False) else None
