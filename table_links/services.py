"""Writes of table links: make one for a game or a tournament match, make every table's link of an
event or of a club night, revoke one.

What it does: ``create_table_link`` checks that the table belongs to the club, draws a random
salt, derives the token and the short code from it (``derive_secrets``: HMACs under
``SECRET_KEY``), stores the salt and the SHA-256 of each, and returns the link with the token and
code; the link expires by default at the end of the day in the club's time zone.
``create_event_table_links`` makes one link per physical table of an event (table 1 to the
largest table drawn so far, or as many tables as the entrants fill before the first draw),
skipping tables that already have a live link; such a link has no expiry and ends when the event
closes. ``create_night_table_links`` does the same for a club night: tables 1 to the number the
organiser gives (by default the largest table a game of the night was started at), each link
following the games started at its table, until the night closes. ``store_with_secrets`` is
the one way to make a secret link (a salt, the hashes of its token and code), for the hall links
too. ``reveal_table_link`` gives a link's token and code again (for the printed cards), from its
salt — None for a link made before salts, or when ``SECRET_KEY`` changed since.
``revoke_table_link`` ends one link at once (it stays listed, marked revoked); no other link is
touched; ``revoke_event_table_link`` does it for one of an event's or a night's links (404 when
the link is not one of them). ``count_event_tables`` and ``count_live_event_links`` say how many
tables an event (or a night) uses and how many of them have a live link, for the console.

What it does not do: decide who may call it (organisers, in the API views and the page) or what a
link allows (``table_links.selectors.TableGrant``).
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import math
import secrets
from datetime import datetime, time, timedelta
from zoneinfo import ZoneInfo

from django.conf import settings
from django.db import IntegrityError, transaction
from django.db.models import Max
from django.utils import timezone
from django.utils.translation import gettext

from clubs.models import Club
from config.problems import Problem
from games.models import Game
from settlements.models import Night, NightStatus
from settlements.night_tables import MAX_TABLES, check_table_number, count_night_tables
from table_links.models import TableLink
from table_links.selectors import CODE_ALPHABET, digest, event_scope, live_event_links
from tournaments.models import Match, Tournament, TournamentStatus

CODE_LENGTH = 10


def end_of_day(club: Club, now: datetime | None = None) -> datetime:
    """Midnight at the end of today in the club's time zone, as an aware datetime."""
    zone = ZoneInfo(club.time_zone)
    local = (now or timezone.now()).astimezone(zone)
    return datetime.combine(local.date() + timedelta(days=1), time(0), tzinfo=zone)


def derive_secrets(salt: str) -> tuple[str, str]:
    """The token and the short code of a link with this ``salt`` (HMAC-SHA256 under SECRET_KEY)."""
    key = settings.SECRET_KEY.encode()
    token_mac = hmac.new(key, f"jink-table-token:{salt}".encode(), hashlib.sha256).digest()
    code_mac = hmac.new(key, f"jink-table-code:{salt}".encode(), hashlib.sha256).digest()
    token = base64.urlsafe_b64encode(token_mac).rstrip(b"=").decode()
    # 10 characters of 5 bits each from the code MAC's first 50 bits.
    number = int.from_bytes(code_mac[:8], "big") >> 14
    code = "".join(
        CODE_ALPHABET[(number >> (5 * (CODE_LENGTH - 1 - index))) & 31]
        for index in range(CODE_LENGTH)
    )
    return token, code


def reveal_table_link(link: TableLink) -> tuple[str, str] | None:
    """``(token, code)`` of a link, derived again from its salt; None when that cannot be done."""
    if not link.salt:
        return None
    token, code = derive_secrets(link.salt)
    if digest(token) != link.token_hash:
        return None  # SECRET_KEY changed since the link was made
    return token, code


def _store_link(**fields) -> tuple[TableLink, str, str]:
    return store_with_secrets(TableLink, **fields)


def store_with_secrets(model, **fields):
    """Create a ``model`` row with a fresh salt and the hashes of the token and short code
    derived from it (``token_hash``, ``code_hash``, ``salt``): ``(row, token, code)``. Shared by
    the table links and the hall links (``hall.services``): one way to make a secret link."""
    for _ in range(3):  # a short code may collide with another link's: draw again
        salt = secrets.token_hex(16)
        token, code = derive_secrets(salt)
        try:
            with transaction.atomic():
                link = model.objects.create(
                    token_hash=digest(token), code_hash=digest(code), salt=salt, **fields
                )
        except IntegrityError:
            continue
        return link, token, code
    raise Problem(code="try_again", detail=gettext("Could not draw a free code; try again."))


def create_table_link(
    *,
    club: Club,
    user,
    game_id: int | None = None,
    match_id: int | None = None,
    tournament_id: int | None = None,
    night_id: int | None = None,
    table_number: int | None = None,
    expires_at: datetime | None = None,
) -> tuple[TableLink, str, str]:
    """Make a link for one game, one match, or table ``table_number`` of one event or one club
    night of the club: ``(link, token, code)``.

    400 ``invalid_table`` unless exactly one of ``game_id``, ``match_id``, ``tournament_id`` and
    ``night_id`` names a game, a match, an open event or an open night of this club (an event's
    table needs a number from 1 to its tables' count, a night's from 1 to 99); 400
    ``invalid_expiry`` for an expiry in the past or more than a week on (an event's or a night's
    table takes none: it ends when the event or the night closes).
    """
    named = [value for value in (game_id, match_id, tournament_id, night_id) if value is not None]
    if len(named) > 1:
        raise Problem(
            code="invalid_table",
            detail=gettext(
                "Give one table only: a game, a match, an event's table or a night's table."
            ),
            pointer="/game",
        )
    if night_id is not None:
        return _create_night_table_link(
            club=club, user=user, night_id=night_id, table_number=table_number
        )
    if tournament_id is not None:
        return _create_event_table_link(
            club=club, user=user, tournament_id=tournament_id, table_number=table_number
        )
    if (game_id is None) == (match_id is None):
        raise Problem(
            code="invalid_table",
            detail=gettext("Give either game or match: the table the link opens."),
            pointer="/game",
        )
    game = match = None
    if game_id is not None:
        game = Game.objects.filter(pk=game_id, club=club).first()
        if game is None:
            raise Problem(
                code="invalid_table",
                detail=gettext("The club has no game %(game)s.") % {"game": game_id},
                pointer="/game",
            )
    else:
        match = Match.objects.filter(pk=match_id, tournament__club=club).first()
        if match is None:
            raise Problem(
                code="invalid_table",
                detail=gettext("The club has no tournament match %(match)s.") % {"match": match_id},
                pointer="/match",
            )
    now = timezone.now()
    if expires_at is None:
        expires_at = end_of_day(club, now)
    elif expires_at <= now or expires_at > now + timedelta(days=7):
        raise Problem(
            code="invalid_expiry",
            detail=gettext("expires_at must be in the future and at most seven days away."),
            pointer="/expires_at",
        )
    return _store_link(club=club, game=game, match=match, expires_at=expires_at, created_by=user)


def _create_event_table_link(*, club, user, tournament_id, table_number):
    tournament = Tournament.objects.filter(pk=tournament_id, club=club).first()
    if tournament is None or tournament.status == TournamentStatus.CLOSED:
        raise Problem(
            code="invalid_table",
            detail=gettext("The club has no open event %(event)s.") % {"event": tournament_id},
            pointer="/tournament",
        )
    tables = count_event_tables(tournament)
    if table_number is None or not 1 <= table_number <= max(tables, 1):
        raise Problem(
            code="invalid_table",
            detail=gettext("Give a table number from 1 to %(count)s.") % {"count": max(tables, 1)},
            pointer="/table",
        )
    return _store_link(
        club=club,
        tournament=tournament,
        table_number=table_number,
        expires_at=None,
        created_by=user,
    )


def _open_night_of(club: Club, night_id) -> Night:
    night = Night.objects.filter(pk=night_id, club=club).first()
    if night is None or night.status == NightStatus.CLOSED:
        raise Problem(
            code="invalid_table",
            detail=gettext("The club has no open night %(night)s.") % {"night": night_id},
            pointer="/night",
        )
    return night


def _create_night_table_link(*, club, user, night_id, table_number):
    night = _open_night_of(club, night_id)
    check_table_number(table_number)
    return _store_link(
        club=club, night=night, table_number=table_number, expires_at=None, created_by=user
    )


def count_event_tables(tournament: Tournament) -> int:
    """The physical tables an event uses: the largest table drawn so far, or, before the first
    draw, as many tables as its entrants fill (``table_size`` entrants a table)."""
    drawn = Match.objects.filter(tournament=tournament).aggregate(largest=Max("table"))["largest"]
    if drawn:
        return drawn
    entrants = tournament.entrants.filter(is_present=True).count()
    return max(1, math.ceil(entrants / max(tournament.table_size or 1, 1))) if entrants else 0


def create_event_table_links(*, tournament: Tournament, user) -> list[TableLink]:
    """One link per physical table of the event that has no live link yet (400 ``event_closed``
    once the event is closed). Returns the links made, table by table."""
    if tournament.status == TournamentStatus.CLOSED:
        raise Problem(
            code="event_closed",
            detail=gettext("The event is closed: its tables need no links any more."),
            pointer="/tournament",
        )
    return _make_table_links(tournament, count_event_tables(tournament), user)


def _make_table_links(event, tables: int, user) -> list[TableLink]:
    """Links for tables 1 to ``tables`` of an event or a night, skipping those with a live
    link (all or none)."""
    live = set(live_event_links(event).values_list("table_number", flat=True))
    scope = event_scope(event)
    made = []
    with transaction.atomic():
        for number in range(1, tables + 1):
            if number in live:
                continue
            link, _token, _code = _store_link(
                club=event.club, table_number=number, expires_at=None, created_by=user, **scope
            )
            made.append(link)
    return made


def create_night_table_links(*, night: Night, user, tables: int | None = None) -> list[TableLink]:
    """One link per table 1 to ``tables`` of the club night that has no live link yet; returns
    the links made, table by table.

    ``tables`` defaults to the largest table a game of the night was started at. 400
    ``event_closed`` (pointer ``/night``) once the night is closed; 400 ``invalid_table``
    (pointer ``/tables``) for a count out of 1..99, or no count before the first game.
    """
    if night.status == NightStatus.CLOSED:
        raise Problem(
            code="event_closed",
            detail=gettext("The night is closed: its tables need no links any more."),
            pointer="/night",
        )
    if tables is None:
        tables = count_night_tables(night)
        if not tables:
            raise Problem(
                code="invalid_table",
                detail=gettext("No game has a table yet: say how many tables the night uses."),
                pointer="/tables",
            )
    if isinstance(tables, bool) or not isinstance(tables, int) or not 1 <= tables <= MAX_TABLES:
        raise Problem(
            code="invalid_table",
            detail=gettext("Give a number of tables from 1 to %(count)s.") % {"count": MAX_TABLES},
            pointer="/tables",
        )
    return _make_table_links(night, tables, user)


def count_live_event_links(event) -> int:
    """How many of the tables of an event (or a club night) have a live link."""
    return live_event_links(event).values("table_number").distinct().count()


def revoke_event_table_link(*, event: Tournament | Night, link_id: int | None, user) -> TableLink:
    """Revoke one of the table links of an event (a tournament) or a club night (404 if it is
    not one of them); no other link is touched."""
    if link_id is None or not TableLink.objects.filter(pk=link_id, **event_scope(event)).exists():
        raise Problem(
            code="not_found",
            detail=gettext("No table link %(link)s.") % {"link": link_id},
        )
    return revoke_table_link(club=event.club, link_id=link_id, user=user)


def revoke_table_link(*, club: Club, link_id: int, user) -> TableLink:
    """Revoke the club's link ``link_id`` (404 if none; revoking twice changes nothing)."""
    with transaction.atomic():
        link = TableLink.objects.select_for_update().filter(pk=link_id, club=club).first()
        if link is None:
            raise Problem(
                code="not_found",
                detail=gettext("No table link %(link)s.") % {"link": link_id},
            )
        if link.revoked_at is None:
            link.revoked_at = timezone.now()
            link.save(update_fields=["revoked_at"])
    return link


def format_code(code: str) -> str:
    """A short code as shown to people: two groups of five ("7K3QX-92MHD")."""
    return f"{code[:5]}-{code[5:]}"
