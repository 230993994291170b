"""The boundary of a table link: an API request carrying one reaches only the table's routes.

What it does: a request under ``/api/`` with ``Authorization: Table …`` whose route is not one a
table uses (``table_links.authentication.TABLE_ROUTES``) is answered 404 before its view runs — also
for views that pick their own authentication (registration, token login, logout), so a link can
never be more than a key to its table. Which games of those routes it may use is decided by
``TableLinkAuthentication`` and the permission classes.

What it does not do: look at pages (they never read the header) or at requests without it.
"""

from __future__ import annotations

from django.utils.translation import gettext

from config.problems import Problem, problem_json_response
from table_links.authentication import KEYWORD, TABLE_ROUTES


class TableLinkBoundaryMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        return self.get_response(request)

    def process_view(self, request, view_func, view_args, view_kwargs):
        header = request.headers.get("Authorization", "")
        if not header.startswith(f"{KEYWORD} ") or not request.path.startswith("/api/"):
            return None
        match = request.resolver_match
        if match is not None and match.view_name in TABLE_ROUTES:
            return None
        return problem_json_response(Problem(code="not_found", detail=gettext("Not found.")))
