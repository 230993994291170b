"""A tournament's running balances: each player's stakes and entry fee, and who pays whom
so far (live, without prizes; the settle-up with prizes is ``settlements``'s).

What it does: ``running_balances_for(tournament)`` nets the stakes ledger (``games.ledger``) over
the games of the tournament's matches, per player, and proposes the fewest player-to-player
transfers that clear those nets (``games.ledger.fewest_transfers``). Beside them it reports the
entry fees: every player of every entrant (an individual, or each member of a team) owes the
tournament's ``entry_fee`` to the club, and the *pot* is their sum. Everything comes back
JSON-ready, amounts as decimal strings in the club's currency, with an entity tag that changes
exactly when the balances do. It costs a fixed number of queries however many games were played.

What it does not do: mix entry fees into the transfers (fees are reported apart; the stored
settle-up of ``settlements`` takes them at the door into the club's pot and pays the prizes from
it), store anything (this live view is computed on request from the ledger, so a correction that
rebooks a game changes it at once; everything shown after the close reads the stored versions),
count games a reset detached from the tournament (their stakes stay in the club's balances) or
decide who may read it (the views: members of the club only, as for all money).

Terms:
- *stakes*: a player's net over the ledger entries of the tournament's games, in minor units
  (+ receives, - pays); they sum to zero over the players.
- *entry fee due*: what a player owes the club to enter (the fee, or nothing).
- *etag*: a strong entity tag, the SHA-256 of the balances' JSON (without ``computed_at``).
"""

from __future__ import annotations

import hashlib
import json

from django.db.models import Q, Sum
from django.utils import timezone

from clubs.models import Player
from games.ledger import fewest_transfers
from games.models import LedgerEntry
from games.money import amount_string
from tournaments.models import Entrant, Tournament


def tournament_stakes(tournament: Tournament) -> dict[int, int]:
    """Player id -> net stakes (minor units) over the games of the tournament's matches."""
    return dict(
        LedgerEntry.objects.filter(game__match_link__match__tournament=tournament)
        .order_by()
        .values_list("player_id")
        .annotate(net=Sum("amount_minor"))
        .values_list("player_id", "net")
    )


def entered_players(tournament: Tournament) -> set[int]:
    """The ids of the players entered: individual entrants and the members of team entrants —
    those checked in, or drawn at some table (an entrant absent all evening owes no fee)."""
    rows = (
        Entrant.objects.filter(tournament=tournament)
        .filter(Q(is_present=True) | Q(match_slots__isnull=False))
        .order_by()
        .values_list("player_id", "team__team_members__player_id")
        .distinct()
    )
    return {player for row in rows for player in row if player is not None}


def running_balances_for(tournament: Tournament) -> dict:
    """``{"tournament", "currency", "stake", "balances", "transfers", "entry_fees",
    "computed_at", "etag"}`` (see docs/tournaments.md, "Settlement")."""
    club = tournament.club

    def money(amount_minor: int) -> str:
        return amount_string(amount_minor, club)

    stakes = tournament_stakes(tournament)
    entered = entered_players(tournament)
    fee = tournament.entry_fee_minor or 0
    players = (
        Player.objects.filter(pk__in=entered | set(stakes))
        .only("id", "display_name")
        .order_by("display_name", "id")
    )
    names = {player.pk: player.display_name for player in players}

    def reference(player_id: int) -> dict:
        return {"id": player_id, "name": names[player_id]}

    body = {
        "tournament": tournament.pk,
        "currency": club.currency,
        "stake": amount_string(tournament.stake_minor, club),
        "balances": [
            {
                "player": reference(player_id),
                "stakes": money(stakes.get(player_id, 0)),
                "entry_fee_due": money(fee if player_id in entered else 0),
            }
            for player_id in names
        ],
        "transfers": [
            {"payer": reference(payer), "payee": reference(payee), "amount": money(amount)}
            for payer, payee, amount in fewest_transfers(stakes)
        ],
        "entry_fees": {
            "fee": None if tournament.entry_fee_minor is None else money(fee),
            "players": len(entered),
            "pot": money(fee * len(entered)),
        },
    }
    digest = hashlib.sha256(json.dumps(body, sort_keys=True).encode()).hexdigest()[:32]
    return {**body, "computed_at": timezone.now(), "etag": f'"{digest}"'}
