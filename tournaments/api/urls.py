"""URLs of the tournaments API, included at ``api/`` by config/urls.py (namespace ``tournaments``).

A club's tournaments live under the club (``clubs/{slug}/tournaments/``); one tournament and what
hangs off it under ``tournaments/{id}/``.
"""

from django.urls import path

from tournaments.api import dispute_views, evening_views, views

app_name = "tournaments"

urlpatterns = [
    path(
        "clubs/<slug:slug>/tournaments/",
        views.ClubTournamentListView.as_view(),
        name="club-tournament-list",
    ),
    path(
        "tournaments/<int:tournament_id>/",
        views.TournamentDetailView.as_view(),
        name="tournament-detail",
    ),
    path(
        "tournaments/<int:tournament_id>/entrants/",
        views.EntrantListView.as_view(),
        name="entrant-list",
    ),
    path(
        "tournaments/<int:tournament_id>/entrants/<int:entrant_id>/",
        views.EntrantDetailView.as_view(),
        name="entrant-detail",
    ),
    path(
        "tournaments/<int:tournament_id>/rounds/",
        views.RoundListView.as_view(),
        name="round-list",
    ),
    path(
        "tournaments/<int:tournament_id>/check-in/",
        evening_views.CheckInView.as_view(),
        name="check-in",
    ),
    path(
        "tournaments/<int:tournament_id>/rounds/<int:round_number>/swap/",
        evening_views.RoundSwapView.as_view(),
        name="round-swap",
    ),
    path(
        "tournaments/<int:tournament_id>/rounds/<int:round_number>/release/",
        evening_views.RoundReleaseView.as_view(),
        name="round-release",
    ),
    path(
        "tournaments/<int:tournament_id>/matches/",
        views.MatchListView.as_view(),
        name="match-list",
    ),
    path(
        "matches/<int:match_id>/",
        views.MatchDetailView.as_view(),
        name="match-detail",
    ),
    path(
        "matches/<int:match_id>/dispute/",
        dispute_views.MatchDisputeView.as_view(),
        name="match-dispute",
    ),
    path(
        "tournaments/<int:tournament_id>/bracket/",
        views.BracketView.as_view(),
        name="bracket",
    ),
    path(
        "tournaments/<int:tournament_id>/standings/",
        views.StandingsView.as_view(),
        name="standings",
    ),
    path(
        "tournaments/<int:tournament_id>/settlement/",
        views.SettlementView.as_view(),
        name="settlement",
    ),
    path(
        "tournaments/<int:tournament_id>/close/",
        views.CloseView.as_view(),
        name="close",
    ),
]
