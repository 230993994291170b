"""URL routes of the site's pages, included at the site root by ``config/urls.py``.

Each part of the site has its own routes module and namespace; add a new part here.
"""

from django.urls import include, path

urlpatterns = [
    path("", include("config.pages_urls")),
    path("", include("web.table.urls")),
]
