"""The ``If-Match`` header of conditional writes, read and compared one way everywhere.

What it does: ``read_if_match(request, required=...)`` returns the header's value, or None when
it is absent and not required. A header that is absent where required, or present but empty (a
client that meant to send the ETag and sent nothing), is 428 ``precondition_required``: an empty
header is no precondition, so it cannot be "stale" (412 is for a tag that no longer matches).
``etag_matches(header, etag)`` compares a header's tags with the current ETag (strong
comparison, ``*`` matches anything; also used for ``If-None-Match`` of the table and game
reads, whose ETags are strong); ``check_if_match(if_match, etag, detail)`` is the 412
``precondition_failed`` a stale tag gets, in the caller's words.

What it does not do: read the current version (the services do, under their lock).
"""

from __future__ import annotations

from django.utils.translation import gettext

from config.problems import Problem


def read_if_match(request, *, required: bool, what: str | None = None) -> str | None:
    """``what`` names the tag to send, already translated (default: "the current ETag")."""
    value = request.headers.get("If-Match")
    if value is None and not required:
        return None
    if value is None or not value.strip():
        raise Problem(
            code="precondition_required",
            detail=(
                gettext("Send If-Match with %(what)s (the header was empty).")
                if value is not None
                else gettext("Send If-Match with %(what)s.")
            )
            % {"what": what or gettext("the current ETag")},
        )
    return value


def etag_matches(header: str, etag: str) -> bool:
    """RFC 9110 strong comparison of an ``If-Match`` (or ``If-None-Match``) header's tags with
    the current ``etag``."""
    candidates = [candidate.strip() for candidate in header.split(",")]
    return "*" in candidates or etag in candidates


def check_if_match(if_match: str | None, etag: str, detail: str) -> None:
    """412 ``precondition_failed`` with ``detail`` unless ``if_match`` (None: no precondition)
    names ``etag``."""
    if if_match is not None and not etag_matches(if_match, etag):
        raise Problem(code="precondition_failed", detail=detail)
