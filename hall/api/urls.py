"""URLs of the hall API, included at ``api/`` by config/urls.py (namespace ``hall``)."""

from django.urls import path

from hall.api import views

app_name = "hall"

urlpatterns = [
    path(
        "tournaments/<int:tournament_id>/hall/", views.HallSettingsView.as_view(), name="settings"
    ),
    path(
        "tournaments/<int:tournament_id>/hall/clock/", views.HallClockView.as_view(), name="clock"
    ),
    path("tournaments/<int:tournament_id>/hall/link/", views.HallLinkView.as_view(), name="link"),
    path(
        "nights/<int:night_id>/hall/", views.NightHallSettingsView.as_view(), name="night-settings"
    ),
    path(
        "nights/<int:night_id>/hall/clock/", views.NightHallClockView.as_view(), name="night-clock"
    ),
    path("nights/<int:night_id>/hall/link/", views.NightHallLinkView.as_view(), name="night-link"),
    path("hall/<str:credential>/", views.HallScreenView.as_view(), name="screen"),
]
