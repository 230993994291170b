"""URLs of the table-link API, included at ``api/`` by config/urls.py (namespace ``tables``)."""

from django.urls import path

from table_links.api import views

app_name = "tables"

urlpatterns = [
    path("clubs/<slug:slug>/table-links/", views.TableLinksView.as_view(), name="link-list"),
    path(
        "clubs/<slug:slug>/table-links/<int:link_id>/",
        views.TableLinkDetailView.as_view(),
        name="link-detail",
    ),
    path("table/", views.CurrentTableView.as_view(), name="current"),
]
