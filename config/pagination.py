"""Default pagination of every API list.

What it does: page-number pagination (``?page=2``) with a client-chosen page size
(``?page_size=100``, at most 200). Responses are ``{"count", "next", "previous", "results"}``.

What it does not do: cursor pagination (no list in Jink is large or fast-moving enough to need it).
"""

from rest_framework.pagination import PageNumberPagination


class Pagination(PageNumberPagination):
    page_size = 50
    page_size_query_param = "page_size"
    max_page_size = 200
