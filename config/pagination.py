"""Default pagination of every API list.

What it does: page-number pagination (``?page=2``) with a client-chosen page size
(``?page_size=100``, at most 200). Responses are ``{"count", "next", "previous", "results"}``.
A page that is not a positive integer, or past the last page, is 400 ``invalid_page`` (pointer
None: it is about the query, not the body) rather than DRF's 404, which a client would read as
"the list is gone".

What it does not do: cursor pagination (no list in Jink is large or fast-moving enough to need it).
"""

from rest_framework.exceptions import NotFound
from rest_framework.pagination import PageNumberPagination

from config.problems import Problem


class Pagination(PageNumberPagination):
    page_size = 50
    page_size_query_param = "page_size"
    max_page_size = 200

    def paginate_queryset(self, queryset, request, view=None):
        try:
            return super().paginate_queryset(queryset, request, view)
        except NotFound as error:
            raise Problem(
                status=400,
                code="invalid_page",
                detail=f"page: {error.detail}",
            ) from error
