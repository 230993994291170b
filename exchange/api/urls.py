"""URLs of the exchange API, included at ``api/`` by config/urls.py (namespace ``exchange``)."""

from django.urls import path

from exchange.api import views

app_name = "exchange"

urlpatterns = [
    path("nights/<int:night_id>/exchange/", views.NightExchangeView.as_view(), name="night"),
    path(
        "tournaments/<int:tournament_id>/exchange/",
        views.TournamentExchangeView.as_view(),
        name="tournament",
    ),
    path("clubs/<slug:slug>/imports/", views.ClubImportsView.as_view(), name="imports"),
]
