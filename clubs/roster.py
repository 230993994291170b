"""The organiser's console writes on a club's people: inviting, pasting a list, pairing, merging.

What it does: ``invite_member`` gives an account found by username or e-mail a role (one answer
for every account that cannot be added, so nothing is revealed); ``add_players_from_list`` adds a
pasted list of names, all or none; ``make_pairs`` makes teams of two in the order given;
``merge_players`` moves everything that refers to one player record to another. Each checks its
rules and writes in one transaction through ``clubs.services``' helpers; a broken rule is a
``config.problems.Problem`` with the pointer of the offending field, and nothing is stored.

What it does not do: decide who may call it (``clubs.permissions``) or the single-record writes
(``clubs.services``: clubs, memberships, players and teams one at a time).
"""

from __future__ import annotations

from collections.abc import Sequence

from django.contrib.auth import get_user_model
from django.db import IntegrityError, transaction

from clubs.models import Club, Membership, Player, Team
from clubs.services import (
    _field_problem,
    _save,
    _unique_problem,
    add_player,
    check_club_players,
    create_team,
)
from config.problems import Problem


def account_for_invite(identifier: str):
    """The account whose username or e-mail is ``identifier`` (case-insensitive), or None.

    An e-mail shared by several accounts matches none, so an invite never picks one at random.
    """
    identifier = identifier.strip()
    users = get_user_model().objects
    by_name = users.filter(username__iexact=identifier).first() if identifier else None
    if by_name is not None or "@" not in identifier:
        return by_name
    by_mail = list(users.filter(email__iexact=identifier)[:2])
    return by_mail[0] if len(by_mail) == 1 else None


@transaction.atomic
def invite_member(*, club: Club, identifier: str, role: str) -> Membership:
    """Give the account called (or with the e-mail) ``identifier`` a role in the club.

    An unknown account and an e-mail nobody or several use get one and the same answer, which
    does not say which it was (``no_such_account``).
    """
    user = account_for_invite(identifier)
    if user is None:
        raise _field_problem(
            "/identifier",
            "no_such_account",
            "No account can be added with that username or e-mail. Ask the person for the "
            "username they log in with.",
        )
    if Membership.objects.filter(club=club, user=user).exists():
        raise _unique_problem("/identifier", "This account already has a role in this club.")
    membership = Membership(club=club, user=user, role=role)
    _save(membership)
    return membership


@transaction.atomic
def add_players_from_list(*, club: Club, names: Sequence[str]) -> list[Player]:
    """Add one player per name (blank lines skipped); all or nothing. A name taken in the club,
    or given twice, is a 400 listing each at ``/names/<index>``."""
    wanted = [(index, name.strip()) for index, name in enumerate(names) if name.strip()]
    taken = {
        name.lower()
        for name in Player.objects.filter(club=club).values_list("display_name", flat=True)
    }
    errors, seen = [], set()
    for index, name in wanted:
        key = name.lower()
        if key in taken or key in seen:
            errors.append(
                {
                    "code": "unique",
                    "pointer": f"/names/{index}",
                    "detail": f"A player called {name!r} is already in the club."
                    if key in taken
                    else f"{name!r} is in the list twice.",
                }
            )
        elif len(name) > Player._meta.get_field("display_name").max_length:
            errors.append(
                {
                    "code": "too_long",
                    "pointer": f"/names/{index}",
                    "detail": f"{name[:20]!r}… is longer than 80 characters.",
                }
            )
        seen.add(key)
    if errors:
        raise Problem(
            code=errors[0]["code"],
            detail="; ".join(error["detail"] for error in errors),
            errors=errors,
        )
    return [add_player(club=club, display_name=name) for _, name in wanted]


@transaction.atomic
def make_pairs(*, club: Club, player_ids: Sequence[int]) -> list[Team]:
    """Teams of two from ``player_ids`` taken in order (1st with 2nd, 3rd with 4th, ...), each
    named "First & Second"; an odd count is refused (``odd_count``)."""
    if len(player_ids) % 2 or not player_ids:
        raise _field_problem(
            "/players", "odd_count", f"Pairs need an even number of players, not {len(player_ids)}."
        )
    players = check_club_players(
        club=club, player_ids=player_ids, pointer="/players", twice="is chosen twice"
    )
    return [
        create_team(
            club=club,
            name=f"{first.display_name} & {second.display_name}"[:80],
            member_ids=[first.pk, second.pk],
        )
        for first, second in zip(players[::2], players[1::2], strict=True)
    ]


def _player_references():
    """Every foreign key to ``Player`` in the project (games' seats, tournaments' entrants,
    history rows, ...), found through the model's relations so that clubs imports no app above
    it."""
    return [
        relation
        for relation in Player._meta.get_fields(include_hidden=True)
        if relation.one_to_many and relation.auto_created and not relation.concrete
    ]


@transaction.atomic
def merge_players(*, club: Club, keep: Player, merged: Player) -> Player:
    """Move everything that refers to ``merged`` (seats, ledger, teams, entries, history) to
    ``keep`` and delete ``merged``; ``keep`` takes ``merged``'s account when it has none.

    Refused (409 ``players_overlap``), with nothing changed, when both sat in one game, one team
    or one tournament — the records could not say which one was meant.
    """
    if keep.pk == merged.pk:
        raise _field_problem("/merged", "same_player", "Pick two different players.")
    if keep.club_id != club.pk or merged.club_id != club.pk:
        raise _field_problem(
            "/merged", "unknown_player", "No such player in this club.", status=404
        )
    try:
        with transaction.atomic():
            for relation in _player_references():
                manager = relation.related_model._base_manager
                manager.filter(**{relation.field.name: merged}).update(
                    **{relation.field.name: keep}
                )
    except IntegrityError as error:
        raise _field_problem(
            "/merged",
            "players_overlap",
            f"{keep.display_name} and {merged.display_name} played in the same game, team or "
            "tournament; they cannot be one person.",
        ) from error
    account = merged.user_id
    merged.delete()
    if keep.user_id is None and account is not None:
        keep.user_id = account
        _save(keep)
    return keep
