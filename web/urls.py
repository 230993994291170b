"""URL routes of the site's pages, included at the site root by ``config/urls.py``.

Each part of the site has its own routes module and namespace; add a new part here (one line).
The home page keeps its global name ``home``.
"""

from django.urls import include, path

from web.pages.home import home

urlpatterns = [
    path("", include("web.pages.urls")),
    path("", include("web.console.urls")),
    path("", include("web.scorepad.urls")),
    path("", include("web.door.urls")),
    path("", home, name="home"),
    path("practice/", include("web.practice.urls")),
]
