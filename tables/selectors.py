"""Reads of table links: the grant a credential carries, a table's games, a club's links.

What it does: ``get_grant(credential)`` turns a token or a short code into a ``TableGrant`` (or
None when it names no live link: unknown, revoked or expired); ``list_table_games`` gives the
games of a link's table in the order they were started; ``list_table_links`` a club's links.

What it does not do: check who may make or revoke links (the API views, ``clubs.permissions``),
or write anything (``tables.services``).

Terms: a *grant* is what a request authenticated by a table link may do. It follows the small
protocol ``clubs.permissions`` checks by duck typing — ``allows_game(game_id) -> bool`` — so that
clubs and games never import this app. Its ``user`` is the organiser who made the link: hands
entered through the link are recorded as theirs (``Hand.entered_by``).
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field

from django.db.models import QuerySet
from django.utils import timezone
from django.utils.translation import gettext

from clubs.models import Club
from games.models import Game
from tables.models import TableLink
from tournaments.models import MatchGame

CODE_ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"  # Crockford's base32: no I, L, O, U
# What a person may mistype for a code character (Crockford's decoding rules).
_CODE_READS_AS = str.maketrans({"I": "1", "L": "1", "O": "0", "U": "V"})


def digest(secret: str) -> str:
    return hashlib.sha256(secret.encode()).hexdigest()


def normalise_code(typed: str) -> str:
    """A short code as typed (any case, spaces and dashes, O for 0) in its canonical form."""
    kept = "".join(character for character in typed.upper() if character.isalnum())
    return kept.translate(_CODE_READS_AS)


def list_table_games(link: TableLink) -> list[Game]:
    """The games of the link's table, oldest first (a match's next game appears when started)."""
    if link.game_id is not None:
        return list(Game.objects.filter(pk=link.game_id).select_related("club"))
    # A game's match is known to tournaments only (MatchGame): read the link from that side.
    return list(
        Game.objects.filter(pk__in=_match_game_ids(link.match_id))
        .select_related("club")
        .order_by("created_at", "id")
    )


def _match_game_ids(match_id: int):
    return MatchGame.objects.filter(match_id=match_id).values("game_id")


@dataclass
class TableGrant:
    """What a request holding a live table link may do: read and score its table's games."""

    link: TableLink
    _game_ids: frozenset[int] | None = field(default=None, repr=False)

    @property
    def user(self):
        return self.link.created_by

    @property
    def game_ids(self) -> frozenset[int]:
        if self._game_ids is None:
            if self.link.game_id is not None:
                self._game_ids = frozenset({self.link.game_id})
            else:
                self._game_ids = frozenset(
                    MatchGame.objects.filter(match_id=self.link.match_id).values_list(
                        "game_id", flat=True
                    )
                )
        return self._game_ids

    def allows_game(self, game_id) -> bool:
        try:
            return int(game_id) in self.game_ids
        except (TypeError, ValueError):
            return False


def get_live_link(credential: str) -> TableLink | None:
    """The live link whose token (or short code) is ``credential``; None if none is live."""
    if not credential or len(credential) > 128:
        return None
    hashes = {digest(credential), digest(normalise_code(credential))}
    link = (
        TableLink.objects.select_related("club", "created_by", "game", "match__round__tournament")
        .filter(token_hash__in=hashes)
        .first()
    ) or (
        TableLink.objects.select_related("club", "created_by", "game", "match__round__tournament")
        .filter(code_hash__in=hashes)
        .first()
    )
    if link is None or link.revoked_at is not None or link.expires_at <= timezone.now():
        return None
    if not link.created_by.is_active:
        return None
    return link


def get_grant(credential: str) -> TableGrant | None:
    link = get_live_link(credential)
    return None if link is None else TableGrant(link)


def list_table_links(*, club: Club) -> QuerySet[TableLink]:
    return TableLink.objects.filter(club=club).select_related(
        "created_by", "game", "match__round__tournament"
    )


def table_label(link: TableLink) -> str:
    """The table in words: "Game 12 (45)" or "Winter Cup, round 2, table 3"."""
    if link.game_id is not None:
        return gettext("Game %(number)s (%(name)s)") % {"number": link.game_id,
                                                        "name": link.game.game}
    match = link.match
    return gettext("%(tournament)s, round %(round)s, table %(table)s") % {
        "tournament": match.round.tournament.name, "round": match.round.number,
        "table": match.table,
    }
