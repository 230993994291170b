"""Request and response shapes of the table-link API.

``TableLinkInput``: the table (``game``, ``match``, ``tournament`` and ``table``: table N of
an event, every round, or ``night`` and ``table``: table N of a club night, every game) and an
optional ``expires_at`` (not for an event's or a night's table: it ends when the event or the
night closes).
``table_link_output``: a link as listed; right after creation it also carries the ``token``, the
``code``, the ``url`` and the QR code (``qr_svg``) — the only time they can be shown, since only
their hashes are stored.
"""

from __future__ import annotations

from typing import Any

from rest_framework import serializers

from config.serializers import StrictFieldsMixin
from table_links.models import TableLink
from table_links.selectors import is_live, table_label
from table_links.services import format_code


class TableLinkInput(StrictFieldsMixin, serializers.Serializer):
    game = serializers.IntegerField(required=False, allow_null=True)
    match = serializers.IntegerField(required=False, allow_null=True)
    tournament = serializers.IntegerField(required=False, allow_null=True)
    night = serializers.IntegerField(
        required=False, allow_null=True, help_text="A club night: with table, table N of it."
    )
    table = serializers.IntegerField(required=False, allow_null=True, min_value=1)
    expires_at = serializers.DateTimeField(
        required=False,
        allow_null=True,
        help_text="Default: the end of today in the club's time zone; at most seven days on.",
    )


class TableLinkOutput(serializers.Serializer):
    id = serializers.IntegerField()
    game = serializers.IntegerField(allow_null=True)
    match = serializers.IntegerField(allow_null=True)
    tournament = serializers.IntegerField(allow_null=True)
    night = serializers.IntegerField(allow_null=True)
    table = serializers.IntegerField(allow_null=True)
    label = serializers.CharField()
    expires_at = serializers.DateTimeField(allow_null=True)
    revoked_at = serializers.DateTimeField(allow_null=True)
    is_live = serializers.BooleanField()
    created_by = serializers.CharField()
    created_at = serializers.DateTimeField()
    token = serializers.CharField(required=False, help_text="Only in the creation response.")
    code = serializers.CharField(required=False, help_text="Only in the creation response.")
    url = serializers.CharField(required=False, help_text="Only in the creation response.")
    qr_svg = serializers.CharField(required=False, help_text="Only in the creation response.")


def table_link_output(link: TableLink, now) -> dict[str, Any]:
    return {
        "id": link.pk,
        "game": link.game_id,
        "match": link.match_id,
        "tournament": link.tournament_id,
        "night": link.night_id,
        "table": link.table_number,
        "label": table_label(link),
        "expires_at": link.expires_at,
        "revoked_at": link.revoked_at,
        "is_live": is_live(link, now),
        "created_by": link.created_by.get_username(),
        "created_at": link.created_at,
    }


def created_output(link: TableLink, now, *, token: str, code: str, url: str, svg: str) -> dict:
    return {
        **table_link_output(link, now),
        "token": token,
        "code": format_code(code),
        "url": url,
        "qr_svg": svg,
    }
