"""URLs of the seasons API, included at ``api/`` (namespace ``seasons``)."""

from django.urls import path

from seasons.api import views

app_name = "seasons"

urlpatterns = [
    path("clubs/<slug:slug>/season/", views.SeasonView.as_view(), name="season"),
    path("clubs/<slug:slug>/ratings/", views.RatingListView.as_view(), name="rating-list"),
    path(
        "clubs/<slug:slug>/players/<int:player_id>/rating/",
        views.PlayerRatingView.as_view(),
        name="player-rating",
    ),
]
