"""API routes of rankings (namespace ``rankings``), included under ``/api/``."""

from django.urls import path

from rankings.api import views

app_name = "rankings"

urlpatterns = [
    path(
        "federations/<slug:federation_slug>/rankings/",
        views.RankingView.as_view(),
        name="ranking",
    ),
    path(
        "federations/<slug:federation_slug>/players/<int:federation_player_id>/history/",
        views.PlayerHistoryView.as_view(),
        name="player-history",
    ),
]
