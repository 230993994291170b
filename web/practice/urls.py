"""Routes of the practice table (namespace ``practice``), included under ``practice/``."""

from django.urls import path

from web.practice import views

app_name = "practice"

urlpatterns = [
    path("", views.index, name="index"),
    path("start/", views.start, name="start"),
    path("<int:practice_game_id>/", views.table, name="table"),
    path("<int:practice_game_id>/move/", views.move, name="move"),
    path("<int:practice_game_id>/advance/", views.advance, name="advance"),
    path("puzzles/<str:token>/", views.puzzle, name="puzzle"),
]
