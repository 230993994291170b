"""Project-level views: the health checks and the API-aware error handlers.

What it does: ``HealthView`` checks the
database, the cache and, when ``REDIS_URL`` is set, the Redis broker; ``WorkersHealthView``
checks that a Celery worker answers a ping. ``bad_request``, ``permission_denied``,
``page_not_found`` and ``server_error`` answer ``/api/`` paths with a problem document and
everything else with Django's usual pages: errors raised outside DRF (a bad Host header, a CSRF
refusal, an unknown path) are problems too.

What it does not do: render pages (the home page and every other HTML page are in ``web/``) or
anything about clubs and games (config imports no app; an import-linter contract says so).
"""

from __future__ import annotations

import datetime

from django.conf import settings
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.utils.translation import gettext
from django.views import defaults
from health_check.checks import Cache, Database
from health_check.views import HealthCheckView

from config.backlog import JobsBacklog
from config.problems import Problem, problem_json_response


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


def _api_problem(status: int, code: str, title: str, detail: str) -> JsonResponse:
    return problem_json_response(Problem(status=status, code=code, detail=detail, title=title))


def bad_request(request: HttpRequest, exception: Exception) -> HttpResponse:
    if request.path.startswith("/api/"):
        return _api_problem(400, "bad_request", gettext("Bad request."),
                            gettext("The request is malformed."))
    return defaults.bad_request(request, exception)


def permission_denied(request: HttpRequest, exception: Exception) -> HttpResponse:
    if request.path.startswith("/api/"):
        return _api_problem(403, "permission_denied", gettext("Permission denied."),
                            gettext("You may not do this."))
    return defaults.permission_denied(request, exception)


def page_not_found(request: HttpRequest, exception: Exception) -> HttpResponse:
    if request.path.startswith("/api/"):
        return _api_problem(404, "not_found", gettext("Not found."),
                            gettext("No such resource."))
    return defaults.page_not_found(request, exception)


def server_error(request: HttpRequest) -> HttpResponse:
    if request.path.startswith("/api/"):
        return _api_problem(
            500, "server_error", gettext("Server error."),
            gettext("The server failed; the error was logged."),
        )
    return defaults.server_error(request)
