"""URLs of the games API, included at ``api/`` by config/urls.py (namespace ``games``)."""

from django.urls import path

from games.api import hand_views, views

app_name = "games"

urlpatterns = [
    path("clubs/<slug:slug>/games/", views.ClubGamesView.as_view(), name="game-list"),
    path("clubs/<slug:slug>/balances/", views.ClubBalancesView.as_view(), name="club-balances"),
    path("games/<int:game_id>/", views.GameDetailView.as_view(), name="game-detail"),
    path("games/<int:game_id>/hands/", hand_views.HandsView.as_view(), name="hand-list"),
    path(
        "games/<int:game_id>/hands/preview/",
        hand_views.HandPreviewView.as_view(),
        name="hand-preview",
    ),
    path(
        "games/<int:game_id>/hands/<int:number>/preview/",
        hand_views.CorrectionPreviewView.as_view(),
        name="correction-preview",
    ),
    path(
        "games/<int:game_id>/hands/<int:number>/",
        hand_views.HandDetailView.as_view(),
        name="hand-detail",
    ),
    path("games/<int:game_id>/legal-plays/", views.LegalPlaysView.as_view(), name="legal-plays"),
    path("games/<int:game_id>/history/", views.GameHistoryView.as_view(), name="game-history"),
    path("games/<int:game_id>/ledger/", views.GameLedgerView.as_view(), name="game-ledger"),
]
