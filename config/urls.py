"""URL routes of Jink.

Routes: ``admin/``; ``api/auth/`` (accounts: register, token, devices, me); ``api/schema/`` and
``api/docs/`` (OpenAPI schema and Swagger UI); ``api/`` (clubs and what hangs off them);
``health/`` (database, cache and broker) and ``health/workers/`` (a Celery worker answers);
``accounts/`` (session login with a second factor, the two-factor page, logout); ``""`` (the
site's pages: ``web.urls``, the home page and ``i18n/setlang/``, the pages' language switch,
among them).

Outside debug, a 400, 403, 404 or 500 that Django itself raises under ``/api/`` is a problem
document, not an HTML page (DRF's own errors are problems already).
"""

from csp.decorators import csp_update
from django.contrib import admin
from django.urls import include, path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerSplitView

from config import views

urlpatterns = [
    path("admin/", admin.site.urls),
    path("api/auth/", include("accounts.urls")),
    path("api/schema/", SpectacularAPIView.as_view(), name="schema"),
    # The split view serves its start-up script from /api/docs/?script= (no inline script);
    # Swagger UI's bundle sets inline styles, the one exception to the site's CSP.
    path(
        "api/docs/",
        csp_update({"style-src": ["'unsafe-inline'"]})(
            SpectacularSwaggerSplitView.as_view(url_name="schema")
        ),
        name="api-docs",
    ),
    path("api/", include("clubs.api.urls")),
    path("api/", include("games.api.urls")),
    path("api/", include("tournaments.api.urls")),
    path("api/", include("settlements.api.urls")),
    path("api/", include("seasons.api.urls")),
    path("api/", include("webhooks.api.urls")),
    path("api/", include("table_links.api.urls")),
    path("api/", include("hall.api.urls")),
    path("api/", include("federations.api.urls")),
    path("api/", include("rankings.api.urls")),
    path("api/", include("leagues.api.urls")),
    path("api/", include("exchange.api.urls")),
    path("health/", views.HealthView.as_view(), name="health"),
    path("health/workers/", views.WorkersHealthView.as_view(), name="health-workers"),
    # The login page with a second factor, and the two-factor page (before Django's own).
    path("accounts/", include("web.two_factor_urls")),
    path("accounts/", include("django.contrib.auth.urls")),
    path("", include("web.federations.urls")),
    path("", include("web.urls")),
]

handler400 = "config.views.bad_request"
handler403 = "config.views.permission_denied"
handler404 = "config.views.page_not_found"
handler500 = "config.views.server_error"
