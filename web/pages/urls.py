"""URL routes of the read-only site pages players open on their phones (namespace ``pages``).

Routes: ``me/`` (the user's clubs and recent games), ``account/...`` (signed-in browsers and
device tokens, ending them; the e-mail address and its verification: ``web.pages.account``),
``clubs/<slug>/`` (a club's overview),
``clubs/<slug>/games/<id>/`` (one game hand by hand), ``clubs/<slug>/tournaments/<id>/``
(the live event page: "tonight", standings and rounds or bracket), ``clubs/<slug>/players/<id>/``
(a player's page), ``clubs/<slug>/balances/`` (who owes whom) and ``mail/results-off/<token>/``
(turning the results message off, from its link). Included at the site root by ``web/urls.py``;
the views are in ``web/pages/``.
"""

from django.urls import path

from web.pages import account, club_home, event, hands, mail_off, players
from web.pages import clubs as club_pages
from web.pages import games as game_pages

app_name = "pages"

urlpatterns = [
    path("me/", club_pages.my_clubs, name="me"),
    path("account/", account.account, name="account"),
    path("account/sessions/<int:session_id>/end/", account.end_session, name="account_end_session"),
    path(
        "account/devices/<int:device_token_id>/end/", account.end_device, name="account_end_device"
    ),
    path("account/end-others/", account.end_others, name="account_end_others"),
    path("account/verify/", account.resend_verification, name="account_verify_resend"),
    path("account/verify/<str:token>/", account.verify_email, name="verify_email"),
    path("clubs/<slug:slug>/", club_home.club_overview, name="club"),
    path("clubs/<slug:slug>/games/<int:game_id>/", hands.game_detail, name="game"),
    path(
        "clubs/<slug:slug>/tournaments/<int:tournament_id>/",
        event.tournament_detail,
        name="tournament",
    ),
    path("clubs/<slug:slug>/players/<int:player_id>/", players.player_detail, name="player"),
    path("clubs/<slug:slug>/balances/", game_pages.club_balances, name="balances"),
    path("mail/results-off/<str:token>/", mail_off.results_mail_off, name="results_mail_off"),
]
