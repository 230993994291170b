"""URLs of the settlements API, included at ``api/`` (namespace ``settlements``)."""

from django.urls import path

from settlements.api import views

app_name = "settlements"

urlpatterns = [
    path("clubs/<slug:slug>/nights/", views.ClubNightListView.as_view(), name="night-list"),
    path("nights/<int:night_id>/", views.NightDetailView.as_view(), name="night-detail"),
    path("nights/<int:night_id>/close/", views.NightCloseView.as_view(), name="night-close"),
    path("nights/<int:night_id>/games/", views.NightGamesView.as_view(), name="night-games"),
    path(
        "nights/<int:night_id>/prize-split/",
        views.NightPrizeSplitView.as_view(),
        name="night-prize-split",
    ),
    path(
        "nights/<int:night_id>/settlements/",
        views.NightSettlementListView.as_view(),
        name="night-settlements",
    ),
    path(
        "tournaments/<int:tournament_id>/prize-split/",
        views.TournamentPrizeSplitView.as_view(),
        name="tournament-prize-split",
    ),
    path(
        "tournaments/<int:tournament_id>/settlements/",
        views.TournamentSettlementListView.as_view(),
        name="tournament-settlements",
    ),
    path("nights/<int:night_id>/fees/", views.NightFeeView.as_view(), name="night-fees"),
    path(
        "tournaments/<int:tournament_id>/fees/",
        views.TournamentFeeView.as_view(),
        name="tournament-fees",
    ),
    path(
        "clubs/<slug:slug>/settle-up-rule/",
        views.ClubSettleUpRuleView.as_view(),
        name="settle-up-rule",
    ),
    path(
        "transfers/<int:transfer_id>/paid/",
        views.TransferPaidView.as_view(),
        name="transfer-paid",
    ),
]
