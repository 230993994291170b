"""URL routes of the table app (namespace ``table``), included at the site root by web/urls.py.

Routes: ``clubs/<slug>/games/<id>/score/`` (the score page of one game, for the club's
scorekeepers and organisers), ``clubs/<slug>/table-links/`` (organisers make, show and revoke
table links), ``t/`` (type a short code), ``t/<credential>/`` (the table a link opens) and
``table-worker.js`` (the service worker, served from the root so that its scope covers the score
pages).
"""

from django.urls import path

from web.scorepad import views

app_name = "table"

urlpatterns = [
    path("clubs/<slug:slug>/games/<int:game_id>/score/", views.score_game, name="score"),
    path("clubs/<slug:slug>/table-links/", views.table_links, name="links"),
    path("t/", views.enter_code, name="code"),
    path("t/<str:credential>/", views.score_table, name="link"),
    path("table-worker.js", views.service_worker, name="worker"),
]
