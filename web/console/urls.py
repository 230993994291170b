"""URL routes of the organiser's console (namespace ``console``), under ``clubs/<slug>/console/``.

Routes: signing up and a new club (``start_views``: before there is a club, so not under it);
the overview with the first night's checklist; the club's settings; members; players and pairs
(with the CSV import); house rules; a new event; an event (entrants, check-in, draw, swap,
release); its print view, live board, results and export; its door (check-in at the door, the
door's QR code and poster, the check-in list the event page polls); its table links' QR sheet;
its hall box's forms (the hall link, the round clock, the leaders switch: ``hall_views``); a club
night (its tables, starting a game at one, the tables' links) and its QR sheet, its door and
check-in list, its hall box; the club's export; the exchange files of an event and a night, and
the import of one (``exchange_views``). Every route under a club is for the club's organisers
only (``access.organiser_page``).
night (its tables, starting a game at one, the tables' links) and its QR sheet; the club's
export; the webhook deliveries never delivered, with a resend button (``webhook_views``). Every
route under a club is for the club's organisers only (``access.organiser_page``).
"""

from django.urls import path

from web.console import (
    board_views,
    club_views,
    door_views,
    event_views,
    exchange_views,
    export_views,
    hall_views,
    night_views,
    results_views,
    start_views,
    webhook_views,
)

app_name = "console"

EVENT = "clubs/<slug:slug>/console/events/<int:tournament_id>/"
NIGHT = "clubs/<slug:slug>/console/nights/<int:night_id>/"

urlpatterns = [
    path("signup/", start_views.signup, name="signup"),
    path("new-club/", start_views.club_new, name="club-new"),
    path("clubs/<slug:slug>/console/settings/", start_views.club_settings, name="settings"),
    path("clubs/<slug:slug>/console/", club_views.home, name="home"),
    path("clubs/<slug:slug>/console/members/", club_views.members, name="members"),
    path("clubs/<slug:slug>/console/players/", club_views.players, name="players"),
    path("clubs/<slug:slug>/console/house-rules/", club_views.house_rules, name="house-rules"),
    path("clubs/<slug:slug>/console/export/", export_views.club_export, name="club-export"),
    path("clubs/<slug:slug>/console/imports/", exchange_views.imports, name="imports"),
    path("clubs/<slug:slug>/console/webhooks/", webhook_views.dead_deliveries, name="webhooks"),
    path("clubs/<slug:slug>/console/events/new/", event_views.event_new, name="event-new"),
    path(EVENT, event_views.event, name="event"),
    path(f"{EVENT}print/", event_views.event_print, name="print"),
    path(f"{EVENT}table-links/", event_views.event_table_sheet, name="table-sheet"),
    path(f"{EVENT}hall/", hall_views.event_hall, name="event-hall"),
    path(f"{EVENT}board/", board_views.board, name="board"),
    path(f"{EVENT}results/", results_views.results, name="results"),
    path(f"{EVENT}export/", export_views.event_export, name="event-export"),
    path(f"{EVENT}exchange/", exchange_views.event_exchange, name="event-exchange"),
    path(f"{EVENT}check-in/", door_views.check_in_list, name="check-in-list"),
    path(f"{EVENT}door/", door_views.door_page, name="door"),
    path(f"{EVENT}door/search/", door_views.door_search, name="door-search"),
    path(f"{EVENT}door/poster/", door_views.door_poster, name="door-poster"),
    path(NIGHT, night_views.night, name="night"),
    path(f"{NIGHT}exchange/", exchange_views.night_exchange, name="night-exchange"),
    path(f"{NIGHT}table-links/", night_views.night_table_sheet, name="night-table-sheet"),
    path(f"{NIGHT}hall/", hall_views.night_hall, name="night-hall"),
    path(f"{NIGHT}check-in/", door_views.night_check_in_list, name="night-check-in-list"),
    path(f"{NIGHT}door/", door_views.night_door, name="night-door"),
    path(f"{NIGHT}door/search/", door_views.night_door_search, name="night-door-search"),
    path(f"{NIGHT}door/poster/", door_views.night_door_poster, name="night-door-poster"),
]
