"""Default pagination of every API list.

What it does: page-number pagination (``?page=2``) with a client-chosen page size
(``?page_size=100``, at most 200). Responses are ``{"count", "next", "previous", "results"}``.
A ``page_size`` that is not a positive whole number is 400 ``invalid_page_size`` (above 200 it is
200). A page that is not a positive integer, or past the last page, is 400 ``invalid_page`` (pointer
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

    def get_page_size(self, request):
        text = request.query_params.get(self.page_size_query_param)
        if text is not None and not (text.isdigit() and text.isascii() and int(text) >= 1):
            raise Problem(
                code="invalid_page_size",
                detail=f"page_size must be a whole number from 1 (at most {self.max_page_size} "
                "are given).",
            )
        return super().get_page_size(request)

    def paginate_queryset(self, queryset, request, view=None):
        if request.query_params.get(self.page_query_param, None) == "":
            raise Problem(code="invalid_page", detail="page: empty.")
        try:
            return super().paginate_queryset(queryset, request, view)
        except NotFound as error:
            raise Problem(
                code="invalid_page",
                detail=f"page: {error.detail}",
            ) from error
