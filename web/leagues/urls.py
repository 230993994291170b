"""URL routes of the public league pages (namespace ``league_pages``): ``f/<federation_slug>/
leagues/`` (the federation's leagues), ``f/<federation_slug>/leagues/<league_slug>/`` (the table,
with the penalties and their reasons, and the fixtures and results; the organisers' forms),
``…/fixtures/<fixture_id>/`` (one fixture, its state and its captains' result forms),
``…/teams/<team_id>/`` (a team's players; its captain's and the organisers' forms), and the
iCalendar feeds ``…/teams/<team_id>.ics`` (a team's fixtures) and ``…/clubs/<club_slug>.ics``
(every fixture of a club's teams). Included at the site root by ``web/urls.py``."""

from django.urls import path

from web.leagues import views

app_name = "league_pages"

L = "f/<slug:federation_slug>/leagues/"
ONE = L + "<slug:league_slug>/"

urlpatterns = [
    path(L, views.index, name="index"),
    path(ONE, views.league, name="league"),
    path(ONE + "fixtures/<int:fixture_id>/", views.fixture, name="fixture"),
    path(ONE + "teams/<int:team_id>/", views.team, name="team"),
    path(ONE + "teams/<int:team_id>.ics", views.team_calendar, name="team-calendar"),
    path(ONE + "clubs/<slug:club_slug>.ics", views.club_calendar, name="club-calendar"),
]
