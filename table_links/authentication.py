"""DRF authentication by table link: ``Authorization: Table <token or short code>``.

What it does: a request carrying a live table link is authenticated as the organiser who made the
link, with ``request.auth`` set to the link's ``TableGrant``. It is accepted only on the routes a
table needs — read its games and hands (and their history), record, preview, correct and undo a
hand, ask for legal plays, and ``/api/table/`` — and only for that table's games. Anything else (an
unknown, revoked or expired link, another route, another game) is a 404 before any view runs, so
nothing is stored and nothing is revealed. Guessing is limited as on the /t/ pages, with the same
counters (``table_links.guessing``): each unknown, revoked or expired link counts one failed look-up
for the client's address, and once the window's allowance is used every ``Authorization: Table``
request from that address, a right one too, is a 429 problem with ``Retry-After``. The
permission classes of ``clubs.permissions`` check the grant again by duck typing
(``request.auth.allows_game``), so a view that forgot the route list would still refuse another
table's game.

What it does not do: make or revoke links (``table_links.services``).
"""

from __future__ import annotations

from rest_framework.authentication import BaseAuthentication, get_authorization_header
from rest_framework.exceptions import NotFound, Throttled

from table_links import guessing

KEYWORD = "Table"

# The routes a table link may use (URL names); every one is under /api/games/{game_id}/ except
# tables:current, which answers for the grant itself.
TABLE_ROUTES = frozenset(
    {
        "games:game-detail",
        "games:hand-list",
        "games:hand-detail",
        "games:hand-preview",
        "games:correction-preview",
        "games:legal-plays",
        "games:game-history",
        "tables:current",
    }
)


class TableLinkAuthentication(BaseAuthentication):
    def authenticate(self, request):
        parts = get_authorization_header(request).split()
        if not parts or parts[0].decode(errors="replace") != KEYWORD:
            return None
        if len(parts) != 2:
            raise NotFound()
        # Imported here: DRF loads this class while the apps' models are still loading.
        from table_links.selectors import get_grant

        wait = guessing.refused_for(request)
        if wait is not None:
            raise Throttled(wait=wait)
        grant = get_grant(parts[1].decode(errors="replace"))
        if grant is None:
            guessing.note_failure(request)
            raise NotFound()
        match = getattr(request._request, "resolver_match", None)
        if match is None or match.view_name not in TABLE_ROUTES:
            raise NotFound()
        game_id = match.kwargs.get("game_id")
        if game_id is not None and not grant.allows_game(game_id):
            raise NotFound()
        return grant.user, grant
