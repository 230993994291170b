"""The ``If-Match`` header of conditional writes, read one way everywhere.

What it does: ``read_if_match(request, required=...)`` returns the header's value, or None when
it is absent and not required. A header that is absent where required, or present but empty (a
client that meant to send the ETag and sent nothing), is 428 ``precondition_required``: an empty
header is no precondition, so it cannot be "stale" (412 is for a tag that no longer matches).

What it does not do: compare tags with the current version (the services do, under their lock).
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
            status=428,
            code="precondition_required",
            detail=(
                gettext("Send If-Match with %(what)s (the header was empty).")
                if value is not None
                else gettext("Send If-Match with %(what)s.")
            ) % {"what": what or gettext("the current ETag")},
        )
    return value
