"""URLs of the webhooks API, included at ``api/`` (namespace ``webhooks``)."""

from django.urls import path

from webhooks.api import views

app_name = "webhooks"

urlpatterns = [
    path("clubs/<slug:slug>/webhooks/", views.ClubEndpointListView.as_view(), name="endpoint-list"),
    path("webhooks/<int:endpoint_id>/", views.EndpointDetailView.as_view(), name="endpoint-detail"),
    path(
        "webhooks/<int:endpoint_id>/deliveries/",
        views.DeliveryListView.as_view(),
        name="delivery-list",
    ),
]
