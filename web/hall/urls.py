"""URL routes of the hall screen's pages (namespace ``hall_page``; the API's is ``hall``):
``h/`` (type a code) and ``h/<credential>/`` (the screen a hall link opens)."""

from django.urls import path

from web.hall import views

app_name = "hall_page"

urlpatterns = [
    path("h/", views.enter_code, name="code"),
    path("h/<str:credential>/", views.screen, name="screen"),
]
