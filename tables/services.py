"""Writes of table links: make one for a game or a tournament match, revoke one.

What it does: ``create_table_link`` checks that the table belongs to the club, draws a random
token and short code, stores only their SHA-256, and returns the link with the token and code
(the one time they are known); the link expires by default at the end of the day in the club's
time zone. ``revoke_table_link`` ends a link at once (it stays listed, marked revoked).

What it does not do: decide who may call it (organisers, in the API views and the page) or what a
link allows (``tables.selectors.TableGrant``).
"""

from __future__ import annotations

import secrets
from datetime import datetime, time, timedelta
from zoneinfo import ZoneInfo

from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext

from clubs.models import Club
from config.problems import Problem
from games.models import Game
from tables.models import TableLink
from tables.selectors import CODE_ALPHABET, digest
from tournaments.models import Match

CODE_LENGTH = 10


def end_of_day(club: Club, now: datetime | None = None) -> datetime:
    """Midnight at the end of today in the club's time zone, as an aware datetime."""
    zone = ZoneInfo(club.time_zone)
    local = (now or timezone.now()).astimezone(zone)
    return datetime.combine(local.date() + timedelta(days=1), time(0), tzinfo=zone)


def _new_code() -> str:
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))


def create_table_link(
    *,
    club: Club,
    user,
    game_id: int | None = None,
    match_id: int | None = None,
    expires_at: datetime | None = None,
) -> tuple[TableLink, str, str]:
    """Make a link for one game or one match of the club: ``(link, token, code)``.

    400 ``invalid_table`` unless exactly one of ``game_id`` and ``match_id`` names a game or a
    match of this club; 400 ``invalid_expiry`` for an expiry in the past or more than a week on.
    """
    if (game_id is None) == (match_id is None):
        raise Problem(
            status=400,
            code="invalid_table",
            detail=gettext("Give either game or match: the table the link opens."),
            pointer="/game",
        )
    game = match = None
    if game_id is not None:
        game = Game.objects.filter(pk=game_id, club=club).first()
        if game is None:
            raise Problem(
                status=400,
                code="invalid_table",
                detail=gettext("The club has no game %(game)s.") % {"game": game_id},
                pointer="/game",
            )
    else:
        match = Match.objects.filter(pk=match_id, tournament__club=club).first()
        if match is None:
            raise Problem(
                status=400,
                code="invalid_table",
                detail=gettext("The club has no tournament match %(match)s.") % {"match": match_id},
                pointer="/match",
            )
    now = timezone.now()
    if expires_at is None:
        expires_at = end_of_day(club, now)
    elif expires_at <= now or expires_at > now + timedelta(days=7):
        raise Problem(
            status=400,
            code="invalid_expiry",
            detail=gettext("expires_at must be in the future and at most seven days away."),
            pointer="/expires_at",
        )
    for _ in range(3):  # a short code may collide with a live one: draw again
        token = secrets.token_urlsafe(32)
        code = _new_code()
        try:
            with transaction.atomic():
                link = TableLink.objects.create(
                    club=club,
                    game=game,
                    match=match,
                    token_hash=digest(token),
                    code_hash=digest(code),
                    expires_at=expires_at,
                    created_by=user,
                )
        except IntegrityError:
            continue
        return link, token, code
    raise Problem(status=503, code="try_again",
                  detail=gettext("Could not draw a free code; try again."))


def revoke_table_link(*, club: Club, link_id: int, user) -> TableLink:
    """Revoke the club's link ``link_id`` (404 if none; revoking twice changes nothing)."""
    with transaction.atomic():
        link = TableLink.objects.select_for_update().filter(pk=link_id, club=club).first()
        if link is None:
            raise Problem(status=404, code="not_found",
                          detail=gettext("No table link %(link)s.") % {"link": link_id})
        if link.revoked_at is None:
            link.revoked_at = timezone.now()
            link.save(update_fields=["revoked_at"])
    return link


def format_code(code: str) -> str:
    """A short code as shown to people: two groups of five ("7K3QX-92MHD")."""
    return f"{code[:5]}-{code[5:]}"
