"""URL routes of the federations API, under /api/ (federations.api.views lists them; the
events' routes: federations.api.event_views)."""

from django.urls import path

from federations.api import event_views as e
from federations.api import player_views as p
from federations.api import views as v

app_name = "federations"

F = "federations/<slug:slug>/"
E = F + "events/<int:event_id>/"

urlpatterns = [
    path("federations/", v.FederationListView.as_view(), name="federation-list"),
    path(F, v.FederationDetailView.as_view(), name="federation-detail"),
    path(F + "organisers/", v.OrganiserListView.as_view(), name="organiser-list"),
    path(F + "organisers/<int:user_id>/", v.OrganiserDetailView.as_view(), name="organiser-detail"),
    path(F + "clubs/", v.MembershipListView.as_view(), name="membership-list"),
    path(F + "clubs/<slug:club_slug>/withdraw/", v.WithdrawView.as_view(), name="withdraw"),
    path(F + "clubs/<slug:club_slug>/accept/", v.AcceptView.as_view(), name="accept"),
    path(F + "clubs/<slug:club_slug>/decline/", v.DeclineView.as_view(), name="decline"),
    path(F + "clubs/<slug:club_slug>/leave/", v.LeaveView.as_view(), name="leave"),
    path(F + "clubs/<slug:club_slug>/results/", v.ClubResultsView.as_view(), name="club-results"),
    path(F + "players/", p.PlayerListView.as_view(), name="player-list"),
    path(F + "players/<int:player_id>/", p.PlayerDetailView.as_view(), name="player-detail"),
    path(F + "links/", p.LinkListView.as_view(), name="link-list"),
    path(F + "links/<int:link_id>/unlink/", p.UnlinkView.as_view(), name="unlink"),
    path(F + "link-invitations/", p.LinkInvitationListView.as_view(), name="link-invitation-list"),
    path(
        F + "link-invitations/<int:invitation_id>/accept/",
        p.LinkInvitationAcceptView.as_view(),
        name="link-invitation-accept",
    ),
    path(
        F + "link-invitations/<int:invitation_id>/decline/",
        p.LinkInvitationDeclineView.as_view(),
        name="link-invitation-decline",
    ),
    path(F + "merges/", p.MergeListView.as_view(), name="merge-list"),
    path(F + "merges/<int:entry_id>/undo/", p.UnmergeView.as_view(), name="unmerge"),
    path(F + "levy/", p.LevyView.as_view(), name="levy"),
    path(F + "audit/", p.AuditView.as_view(), name="audit"),
    path(F + "events/", e.EventListView.as_view(), name="event-list"),
    path(E, e.EventDetailView.as_view(), name="event-detail"),
    path(E + "nominations/", e.EventNominationListView.as_view(), name="event-nominations"),
    path(
        E + "clubs/<slug:club_slug>/nominations/",
        e.ClubNominationListView.as_view(),
        name="event-club-nominations",
    ),
    path(
        E + "clubs/<slug:club_slug>/nominations/<int:nomination_id>/",
        e.ClubNominationDetailView.as_view(),
        name="event-club-nomination",
    ),
    path(E + "select/", e.EventSelectView.as_view(), name="event-select"),
    path(E + "tournament/", e.EventTournamentView.as_view(), name="event-tournament"),
]
