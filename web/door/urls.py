"""URL routes of the players' own check-in (namespace ``door``): ``door/<token>/`` (the page a
door code's QR code opens: pick your name once, then "Check me in") and ``door/<token>/names/``
(the names matching a few letters, an htmx partial). No login: the door code is the credential.
"""

from django.urls import path

from web.door import views

app_name = "door"

urlpatterns = [
    path("door/<str:door_token>/", views.self_check_in, name="check-in"),
    path("door/<str:door_token>/names/", views.names, name="names"),
]
