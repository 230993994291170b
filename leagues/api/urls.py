"""API routes of leagues (namespace ``leagues``), included under ``/api/``
(``leagues.api.views`` lists them)."""

from django.urls import path

from leagues.api import views as v

app_name = "leagues"

L = "federations/<slug:slug>/leagues/"
ONE = L + "<slug:league_slug>/"
FIXTURE = ONE + "fixtures/<int:fixture_id>/"

urlpatterns = [
    path(L, v.LeagueListView.as_view(), name="league-list"),
    path(ONE, v.LeagueDetailView.as_view(), name="league-detail"),
    path(ONE + "teams/", v.TeamListView.as_view(), name="team-list"),
    path(ONE + "teams/<int:team_id>/players/", v.TeamPlayerListView.as_view(), name="team-players"),
    path(
        ONE + "teams/<int:team_id>/players/<int:player_id>/",
        v.TeamPlayerDetailView.as_view(),
        name="team-player",
    ),
    path(ONE + "fixtures/", v.FixtureListView.as_view(), name="fixture-list"),
    path(FIXTURE, v.FixtureDetailView.as_view(), name="fixture-detail"),
    path(FIXTURE + "postpone/", v.PostponeView.as_view(), name="fixture-postpone"),
    path(FIXTURE + "walkover/", v.WalkoverView.as_view(), name="fixture-walkover"),
    path(FIXTURE + "result/", v.ResultView.as_view(), name="fixture-result"),
    path(FIXTURE + "accept/", v.AcceptView.as_view(), name="fixture-accept"),
    path(FIXTURE + "dispute/", v.DisputeView.as_view(), name="fixture-dispute"),
    path(ONE + "penalties/", v.PenaltyListView.as_view(), name="penalty-list"),
]
