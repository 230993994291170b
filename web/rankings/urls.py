"""URL routes of the public ranking pages (namespace ``rankings_pages``): ``f/<federation_slug>/
rankings/`` (the ranking, filtered by game and club) and ``f/<federation_slug>/rankings/players/
<federation_player_id>/`` (one player's history across clubs). Included at the site root by
``web/urls.py``."""

from django.urls import path

from web.rankings import views

app_name = "rankings_pages"

urlpatterns = [
    path("f/<slug:federation_slug>/rankings/", views.ranking, name="ranking"),
    path(
        "f/<slug:federation_slug>/rankings/players/<int:federation_player_id>/",
        views.player_history,
        name="player",
    ),
]
