"""Project-level views: the health checks and the API-aware error handlers.

What it does: ``HealthView`` checks the
database, the cache and, when ``REDIS_URL`` is set, the Redis broker; ``WorkersHealthView``
checks that a Celery worker answers a ping. ``bad_request``, ``permission_denied``,
``page_not_found``, ``server_error`` and ``csrf_failure`` (``CSRF_FAILURE_VIEW``) answer ``/api/``
paths with a problem document — errors raised outside DRF (a bad Host header, a CSRF refusal, an
unknown path) are problems too — and everything else with the site's own page
(``templates/errors/``): the site's header and layout, in the reader's language, saying what
happened and offering a way back (up to the club's page under ``/clubs/<slug>/``, the page the
refused form came from, the home page). The 500 page is rendered without the request's context
(no session, no user, no database), so it shows even when the database is what failed.

What it does not do: render pages (the home page and every other HTML page are in ``web/``) or
anything about clubs and games (config imports no app; an import-linter contract says so).
"""

from __future__ import annotations

import datetime
import logging

from django.conf import settings
from django.http import HttpRequest, HttpResponse, HttpResponseServerError, JsonResponse
from django.shortcuts import render
from django.template import loader
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext
from health_check.checks import Cache, Database
from health_check.views import HealthCheckView

from config.backlog import JobsBacklog
from config.problems import Problem, problem_json_response

logger = logging.getLogger(__name__)


class HealthView(HealthCheckView):
    """Database and cache always; the Redis broker when REDIS_URL is set."""

    def get_checks(self):
        yield Database()
        yield Cache()
        redis_url = getattr(settings, "REDIS_URL", "")
        if redis_url:
            from health_check.contrib.redis import Redis
            from redis.asyncio import Redis as RedisClient

            yield Redis(client_factory=lambda: RedisClient.from_url(redis_url))


class WorkersHealthView(HealthCheckView):
    """A Celery worker answers a ping (only meaningful with REDIS_URL and real workers), and the
    backlog: the queue's length and the age of the oldest stale snapshot (config.backlog)."""

    def get_checks(self):
        from health_check.contrib.celery import Ping

        from config.celery import app

        yield Ping(app=app, timeout=datetime.timedelta(seconds=2))
        yield JobsBacklog()


def _api_problem(code: str, title: str, detail: str) -> JsonResponse:
    return problem_json_response(Problem(code=code, detail=detail, title=title))


def _way_up(path: str) -> str | None:
    """The club's page for a page under it ("/clubs/kilkenny/tournaments/9/" ->
    "/clubs/kilkenny/"), else None: a reader who hit a dead end inside a club goes back there."""
    parts = [part for part in path.split("/") if part]
    if len(parts) > 2 and parts[0] == "clubs":
        return f"/clubs/{parts[1]}/"
    return None


def _error_page(request: HttpRequest, status: int, template: str, **extra) -> HttpResponse:
    context = {"status": status, "up_url": _way_up(request.path), **extra}
    try:
        return render(request, template, context, status=status)
    except Exception:  # an error page must never fail in turn: Django's plain one then
        logger.exception("the %s page failed to render", status)
        return HttpResponse(f"<h1>{status}</h1>", status=status)


def bad_request(request: HttpRequest, exception: Exception) -> HttpResponse:
    if request.path.startswith("/api/"):
        return _api_problem(
            "bad_request", gettext("Bad request."), gettext("The request is malformed.")
        )
    return _error_page(request, 400, "errors/400.html")


def permission_denied(request: HttpRequest, exception: Exception) -> HttpResponse:
    if request.path.startswith("/api/"):
        return _api_problem(
            "permission_denied", gettext("Permission denied."), gettext("You may not do this.")
        )
    return _error_page(request, 403, "errors/403.html")


def page_not_found(request: HttpRequest, exception: Exception) -> HttpResponse:
    if request.path.startswith("/api/"):
        return _api_problem("not_found", gettext("Not found."), gettext("No such resource."))
    return _error_page(request, 404, "errors/404.html")


def csrf_failure(request: HttpRequest, reason: str = "") -> HttpResponse:
    """A form refused for its CSRF token (stale, or cookies off): the page it came from, to try
    again, when that is a page of this site."""
    if request.path.startswith("/api/"):
        return _api_problem(
            "permission_denied",
            gettext("Permission denied."),
            gettext("The form's security token is missing or out of date."),
        )
    referer = request.headers.get("Referer", "")
    back = (
        referer
        if url_has_allowed_host_and_scheme(
            referer, allowed_hosts={request.get_host()}, require_https=request.is_secure()
        )
        else None
    )
    return _error_page(request, 403, "errors/403_csrf.html", back_url=back)


def server_error(request: HttpRequest) -> HttpResponse:
    if request.path.startswith("/api/"):
        return _api_problem(
            "server_error",
            gettext("Server error."),
            gettext("The server failed; the error was logged."),
        )
    # No request context: reading the session or the user could fail again (the database).
    try:
        html = loader.get_template("errors/500.html").render(
            {"status": 500, "up_url": _way_up(request.path)}
        )
    except Exception:  # an error page must never fail in turn
        logger.exception("the 500 page failed to render")
        html = "<h1>500</h1>"
    return HttpResponseServerError(html)
