"""URL routes of the federation pages (namespace ``federation_pages``): the list and a new
federation, the organisers' page and a player's public choices (``federation_views``); the levy
report and its CSV (``federations/<slug>/levy/``, ``…/levy.csv``, the federation's organisers);
the club console's federation box form (``clubs/<slug>/console/federations/``, the club's
organisers)."""

from django.urls import path

from web.federations import federation_views, views

app_name = "federation_pages"

urlpatterns = [
    path("federations/", federation_views.index, name="index"),
    path("federations/<slug:slug>/", federation_views.federation, name="federation"),
    path(
        "federations/<slug:slug>/players/<int:player_id>/",
        federation_views.player_choices,
        name="player",
    ),
    path("federations/<slug:slug>/levy/", views.levy_page, name="levy"),
    path("federations/<slug:slug>/levy.csv", views.levy_csv, name="levy-csv"),
    path("clubs/<slug:slug>/console/federations/", views.console_answer, name="console-answer"),
]
