"""URL routes of the site's pages, included at the site root by ``config/urls.py``.

Each part of the site has its own routes module and namespace; add a new part here (one line).
The home page keeps its global name ``home``.
"""

from django.urls import include, path

from web.language import set_language
from web.pages.home import home

urlpatterns = [
    # The pages' language switch: a form posts here (a POST only: it sets a cookie, and a logged-in
    # reader's account keeps the language for its e-mails).
    path("i18n/setlang/", set_language, name="set_language"),
    path("", include("web.pages.urls")),
    path("", include("web.console.urls")),
    path("", include("web.scorepad.urls")),
    path("", include("web.door.urls")),
    path("", include("web.hall.urls")),
    path("", include("web.rankings.urls")),
    path("", include("web.leagues.urls")),
    path("", home, name="home"),
    path("practice/", include("web.practice.urls")),
]
