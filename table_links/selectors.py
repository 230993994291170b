"""Reads of table links: the grant a credential carries, a table's games, a club's links.

What it does: ``get_grant(credential)`` turns a token or a short code into a ``TableGrant`` (or
None when it names no live link: unknown, revoked or expired); ``list_table_games`` gives the
games of a link's table in the order they were started (for an event's table, the games of the
match at that table in the latest released round: the link follows the movement; for a club
night's table, the games started at that table: the link follows it from game to game);
``table_etag`` a fingerprint of what the table shows, in one query, for the tablet's
conditional polling; ``list_table_links`` a club's links; ``live_event_links`` and
``list_event_table_links`` an event's or a night's live links, table by table.

What it does not do: check who may make or revoke links (the API views, ``clubs.permissions``),
or write anything (``table_links.services``).

Terms: a *grant* is what a request authenticated by a table link may do. It follows the small
protocol ``clubs.permissions`` checks by duck typing — ``allows_game(game_id) -> bool`` — so that
clubs and games never import this app. Its ``user`` is the organiser who made the link: hands
entered through the link are recorded as theirs (``Hand.entered_by``).
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field

from django.db.models import Count, Max, Q, QuerySet, Sum
from django.utils import timezone
from django.utils.translation import gettext

from clubs.models import Club
from games.models import Game
from settlements.models import Night, NightGame, NightStatus
from table_links.models import TableLink
from tournaments.models import Match, MatchGame, TournamentStatus

CODE_ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"  # Crockford's base32: no I, L, O, U
# What a person may mistype for a code character (Crockford's decoding rules).
_CODE_READS_AS = str.maketrans({"I": "1", "L": "1", "O": "0", "U": "V"})


def digest(secret: str) -> str:
    return hashlib.sha256(secret.encode()).hexdigest()


def normalise_code(typed: str) -> str:
    """A short code as typed (any case, spaces and dashes, O for 0) in its canonical form."""
    kept = "".join(character for character in typed.upper() if character.isalnum())
    return kept.translate(_CODE_READS_AS)


def is_event_over(link: TableLink) -> bool:
    """An event's or a night's table whose event or night is closed: the link opens no game any
    more."""
    if link.night_id is not None:
        return link.night.status == NightStatus.CLOSED
    return link.tournament_id is not None and link.tournament.status == TournamentStatus.CLOSED


def _night_table_games(link: TableLink):
    """The ``NightGame`` rows of a night's table N: the games started at that table."""
    return NightGame.objects.filter(night_id=link.night_id, table_number=link.table_number)


def current_event_match(link: TableLink) -> tuple[int | None, Match | None]:
    """An event's table: the latest released round's number and its match at this table (None
    when the table is empty in that round, or no round is released yet)."""
    latest = (
        link.tournament.rounds.filter(released_at__isnull=False)
        .order_by("-number")
        .values_list("number", flat=True)
        .first()
    )
    if latest is None:
        return None, None
    match = (
        Match.objects.filter(
            tournament_id=link.tournament_id, round__number=latest, table=link.table_number
        )
        .select_related("round__tournament")
        .first()
    )
    return latest, match


def list_table_games(link: TableLink, match: Match | None = None) -> list[Game]:
    """The games of the link's table, oldest first (a match's next game appears when started).

    For an event's table, ``match`` is its match this round (``current_event_match``)."""
    if link.game_id is not None:
        return list(Game.objects.filter(pk=link.game_id).select_related("club"))
    if link.night_id is not None:
        if is_event_over(link):
            return []
        return list(
            Game.objects.filter(pk__in=_night_table_games(link).values("game_id"))
            .select_related("club")
            .order_by("created_at", "id")
        )
    if link.tournament_id is not None:
        if match is None or is_event_over(link):
            return []
        return list(
            Game.objects.filter(pk__in=_match_game_ids(match.pk))
            .select_related("club")
            .order_by("created_at", "id")
        )
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
            elif self.link.night_id is not None:
                # Every game started at table N of the night, none once the night is closed.
                self._game_ids = (
                    frozenset()
                    if is_event_over(self.link)
                    else frozenset(_night_table_games(self.link).values_list("game_id", flat=True))
                )
            elif self.link.tournament_id is not None:
                # Table N's games of every released round (a late hand of the last round
                # still goes in), none once the event is closed.
                self._game_ids = (
                    frozenset()
                    if is_event_over(self.link)
                    else frozenset(
                        MatchGame.objects.filter(
                            match__tournament_id=self.link.tournament_id,
                            match__table=self.link.table_number,
                            match__round__released_at__isnull=False,
                        ).values_list("game_id", flat=True)
                    )
                )
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
    # One query: a token and a code are both 256-bit digests, so they never name two links.
    link = (
        TableLink.objects.select_related(
            "club", "created_by", "game", "match__round__tournament", "tournament", "night"
        )
        .filter(Q(token_hash__in=hashes) | Q(code_hash__in=hashes))
        .first()
    )
    if link is None or link.revoked_at is not None:
        return None
    if link.expires_at is not None and link.expires_at <= timezone.now():
        return None
    if not link.created_by.is_active:
        return None
    return link


def is_live(link: TableLink, now) -> bool:
    """Not revoked, not expired, and (an event's or a night's table) its event not closed."""
    if link.revoked_at is not None or (link.expires_at is not None and link.expires_at <= now):
        return False
    return not is_event_over(link)


def get_grant(credential: str) -> TableGrant | None:
    link = get_live_link(credential)
    return None if link is None else TableGrant(link)


def list_table_links(*, club: Club) -> QuerySet[TableLink]:
    return TableLink.objects.filter(club=club).select_related(
        "created_by", "game", "match__round__tournament", "tournament", "night"
    )


def event_scope(event) -> dict:
    """The ``TableLink`` fields naming an event's tables: a tournament's or a club night's."""
    return {"night": event} if isinstance(event, Night) else {"tournament": event}


def live_event_links(event) -> QuerySet[TableLink]:
    """The live table links of an event (a tournament) or a club night: not revoked (their links
    never expire; they end when the event or the night closes)."""
    return TableLink.objects.filter(**event_scope(event), revoked_at__isnull=True)


def list_event_table_links(event) -> list[TableLink]:
    """The live table links of an event or a night, table by table; the newest link of a table
    when it has several."""
    links = live_event_links(event).order_by("table_number", "-created_at", "-id")
    newest: dict[int, TableLink] = {}
    for link in links:
        newest.setdefault(link.table_number, link)
    return list(newest.values())


def table_etag(link: TableLink) -> str:
    """A fingerprint of everything ``table_state`` shows, from one query (the link is loaded):
    it changes when a round is released, a game starts (at a night's table too), a hand is
    stored or corrected, a match is decided, or the event or the night closes."""
    if link.game_id is not None:
        parts = Game.objects.filter(pk=link.game_id).values_list("version", "status").first()
    elif link.night_id is not None:
        parts = _night_table_games(link).aggregate(
            games=Count("game_id"), last=Max("game_id"), versions=Sum("game__version")
        )
        parts = (link.night.status, sorted(parts.items()))
    elif link.match_id is not None:
        parts = Match.objects.filter(pk=link.match_id).aggregate(
            updated=Max("updated_at"),
            games=Count("match_games"),
            versions=Sum("match_games__game__version"),
        )
    else:
        here = Q(table=link.table_number)
        parts = Match.objects.filter(
            tournament_id=link.tournament_id, round__released_at__isnull=False
        ).aggregate(
            round=Max("round__number"),
            updated=Max("updated_at", filter=here),
            games=Count("match_games", filter=here),
            versions=Sum("match_games__game__version", filter=here),
        )
        parts = (link.tournament.status, sorted(parts.items()))
    fingerprint = hashlib.sha256(repr((link.pk, parts)).encode()).hexdigest()[:20]
    return f'"table-{fingerprint}"'


def table_label(link: TableLink) -> str:
    """The table in words: "Game 12 (45)", "Winter Cup, round 2, table 3", "Winter Cup,
    table 3" (an event's table, every round) or "Tuesday night, table 3" (a night's table)."""
    if link.night_id is not None:
        return gettext("%(night)s, table %(table)s") % {
            "night": link.night.name,
            "table": link.table_number,
        }
    if link.tournament_id is not None:
        return gettext("%(tournament)s, table %(table)s") % {
            "tournament": link.tournament.name,
            "table": link.table_number,
        }
    if link.game_id is not None:
        return gettext("Game %(number)s (%(name)s)") % {
            "number": link.game_id,
            "name": link.game.variant,
        }
    match = link.match
    return gettext("%(tournament)s, round %(round)s, table %(table)s") % {
        "tournament": match.round.tournament.name,
        "round": match.round.number,
        "table": match.table,
    }
