"""URLs of the clubs API, included at ``api/`` by config/urls.py (namespace ``clubs``).

Club-owned collections live under their club: ``clubs/{slug}/players/`` and so on.
"""

from django.urls import path

from clubs.api import views

app_name = "clubs"

urlpatterns = [
    path("clubs/", views.ClubListView.as_view(), name="club-list"),
    path("invitations/", views.InvitationListView.as_view(), name="invitation-list"),
    path(
        "invitations/<int:invitation_id>/",
        views.InvitationDetailView.as_view(),
        name="invitation-detail",
    ),
    path(
        "invitations/<int:invitation_id>/accept/",
        views.InvitationAcceptView.as_view(),
        name="invitation-accept",
    ),
    path("clubs/<slug:slug>/", views.ClubDetailView.as_view(), name="club-detail"),
    path(
        "clubs/<slug:slug>/memberships/",
        views.MembershipListView.as_view(),
        name="membership-list",
    ),
    path(
        "clubs/<slug:slug>/memberships/<int:membership_id>/",
        views.MembershipDetailView.as_view(),
        name="membership-detail",
    ),
    path("clubs/<slug:slug>/players/", views.PlayerListView.as_view(), name="player-list"),
    path(
        "clubs/<slug:slug>/players/<int:player_id>/",
        views.PlayerDetailView.as_view(),
        name="player-detail",
    ),
    path("clubs/<slug:slug>/teams/", views.TeamListView.as_view(), name="team-list"),
    path(
        "clubs/<slug:slug>/teams/<int:team_id>/",
        views.TeamDetailView.as_view(),
        name="team-detail",
    ),
]
