"""URL routes of the read-only site pages players open on their phones (namespace ``pages``).

Routes: ``me/`` (the user's clubs and recent games), ``clubs/<slug>/`` (a club's overview),
``clubs/<slug>/games/<id>/`` (one game hand by hand), ``clubs/<slug>/tournaments/<id>/``
(standings and bracket) and ``clubs/<slug>/balances/`` (who owes whom). Included at the site root
by ``web/urls.py``; the views are ``web.pages.clubs``, ``web.pages.games`` and
``web.pages.tournaments``.
"""

from django.urls import path

from web.pages import clubs as club_pages
from web.pages import games as game_pages
from web.pages import tournaments as tournament_pages

app_name = "pages"

urlpatterns = [
    path("me/", club_pages.my_clubs, name="me"),
    path("clubs/<slug:slug>/", club_pages.club_overview, name="club"),
    path("clubs/<slug:slug>/games/<int:game_id>/", game_pages.game_detail, name="game"),
    path(
        "clubs/<slug:slug>/tournaments/<int:tournament_id>/",
        tournament_pages.tournament_detail,
        name="tournament",
    ),
    path("clubs/<slug:slug>/balances/", game_pages.club_balances, name="balances"),
]
