"""Response headers every answer gets: caching of API answers and the browser permissions.

What it does: ``ResponseHeadersMiddleware``
- sends ``Permissions-Policy`` on every response, turning off the browser features Jink never
  uses (camera, microphone, geolocation, payment, USB, ...), so an injected script could not
  ask for them either;
- gives every ``/api/`` answer a ``Cache-Control`` unless the view set one: a view may name its
  own (``cache_control = "private, no-store"`` on the view class, for secret answers that carry
  an ETag, such as a tournament's settlement); else an answer with an ``ETag`` is
  ``private, no-cache`` (a client keeps it and revalidates with ``If-None-Match``) and every other
  answer ``private, no-store`` (a token, balances, a ledger, a device list: never kept by a
  browser or proxy);
- drops OPTIONS from the ``Allow`` header of ``/api/`` answers: DRF lists it, but the API refuses
  it (405; the schema at /api/schema/ describes every endpoint);
- answers a request that met a *fault* with 503 and ``Retry-After`` instead of a 500: the problem
  ``service_unavailable`` on ``/api/`` paths, the "try again in a moment" page elsewhere. A fault
  raised by a view is turned into the 503 in ``process_exception`` (nothing logged as an error:
  a warning); one raised in another middleware, which Django has already turned into a 500, is
  recognised by the ``got_request_exception`` signal and replaced on the way out. The request's
  transaction was rolled back (nothing stored half-way), and an ``Idempotency-Key`` stores nothing
  for it, so the client's retry with the same key is safe.

Terms: *fault* — the database or Redis failing under the request, not a bug: Django's
``OperationalError`` and ``InterfaceError`` (a connection ended by ``pg_terminate_backend`` or a
restart, a deadlock, a serialisation failure) and Redis's connection and timeout errors (a
stopped or restarting Redis under the cache). Every other exception stays a 500.

``NulBytesMiddleware`` refuses, before any view runs, a request whose query string or (on a
page) form body holds a NUL character (``%00``): no database text can hold one, so a form or
a filter passing it on would end in a 500. The answer is Django's 400 (``SuspiciousOperation``
through ``config.views.bad_request``: the ``bad_request`` problem under ``/api/``, the 400 page
elsewhere), nothing stored. JSON bodies are the API's serializers' to check (DRF refuses NUL in
text fields).

What it does not do: the Content-Security-Policy (django-csp's ``CSPMiddleware``, configured in
settings), ``Referrer-Policy`` and ``X-Content-Type-Options`` (Django's SecurityMiddleware).
"""

from __future__ import annotations

import logging
import sys

from django.core.exceptions import SuspiciousOperation
from django.core.signals import got_request_exception
from django.db import InterfaceError, OperationalError
from django.dispatch import receiver
from django.http import HttpResponse
from django.template import loader
from django.utils.translation import gettext

from config.problems import Problem, problem_json_response

logger = logging.getLogger(__name__)

PERMISSIONS_POLICY = ", ".join(
    f"{feature}=()"
    for feature in (
        "accelerometer",
        "camera",
        "geolocation",
        "gyroscope",
        "magnetometer",
        "microphone",
        "payment",
        "usb",
        "interest-cohort",
        "browsing-topics",
    )
)
NO_STORE = "private, no-store"
RETRY_AFTER_SECONDS = 2  # a new database connection or a restarted Redis answers within seconds
REVALIDATE = "private, no-cache"


class ResponseHeadersMiddleware:
    def __init__(self, get_response) -> None:
        self.get_response = get_response

    def process_view(self, request, view_func, view_args, view_kwargs):
        view_class = getattr(view_func, "cls", None) or getattr(view_func, "view_class", None)
        request._jink_cache_control = getattr(view_class, "cache_control", None)
        return None

    def process_exception(self, request, exception):
        if not is_fault(exception):
            return None
        logger.warning("%s %s met a fault: %r", request.method, request.path, exception)
        return fault_response(request)

    def __call__(self, request):
        response = self.get_response(request)
        if response.status_code == 500 and getattr(request, "_jink_fault", None) is not None:
            response = fault_response(request)
        response.setdefault("Permissions-Policy", PERMISSIONS_POLICY)
        if request.path.startswith("/api/") and response.has_header("Allow"):
            response["Allow"] = ", ".join(
                method.strip()
                for method in response["Allow"].split(",")
                if method.strip().upper() != "OPTIONS"
            )
        if request.path.startswith("/api/") and not response.has_header("Cache-Control"):
            chosen = getattr(request, "_jink_cache_control", None)
            if chosen is None:
                chosen = REVALIDATE if response.has_header("ETag") else NO_STORE
            response["Cache-Control"] = chosen
        return response


def _fault_classes() -> tuple[type[BaseException], ...]:
    classes: list[type[BaseException]] = [OperationalError, InterfaceError]
    try:
        from redis import exceptions as redis_errors
    except ImportError:  # pragma: no cover - redis is a dependency; without it, no Redis faults
        return tuple(classes)
    classes += [redis_errors.ConnectionError, redis_errors.TimeoutError]
    return tuple(classes)


FAULTS = _fault_classes()


def is_fault(exception: BaseException) -> bool:
    """Whether ``exception`` (or what it was raised from) is a database or Redis fault."""
    seen = 0
    while exception is not None and seen < 5:
        if isinstance(exception, FAULTS):
            return True
        exception = exception.__cause__ or exception.__context__
        seen += 1
    return False


def fault_response(request):
    """503 with ``Retry-After``: a problem document for the API, the error page elsewhere."""
    if request.path.startswith("/api/"):
        response = problem_json_response(
            Problem(
                code="service_unavailable",
                title=gettext("Service briefly unavailable."),
                detail=gettext("Nothing was stored; send the same request again in a moment."),
            )
        )
    else:
        # No request context (the session or the user could fail again), as the 500 page.
        try:
            html = loader.get_template("errors/500.html").render({"status": 503})
        except Exception:  # noqa: BLE001 - an error page must never fail in turn
            html = "<h1>503</h1>"
        response = HttpResponse(html, status=503)
    response["Retry-After"] = str(RETRY_AFTER_SECONDS)
    response["Cache-Control"] = NO_STORE
    return response


@receiver(got_request_exception, dispatch_uid="jink-fault-503")
def _remember_fault(sender, request=None, **kwargs) -> None:
    """A fault raised outside a view (another middleware): marked for ``__call__`` above."""
    exception = sys.exc_info()[1]
    if request is not None and exception is not None and is_fault(exception):
        request._jink_fault = exception


FORM_TYPES = ("application/x-www-form-urlencoded", "multipart/form-data")


class NulInRequest(SuspiciousOperation):
    """A query parameter or form field holds a NUL character."""


class NulBytesMiddleware:
    def __init__(self, get_response) -> None:
        self.get_response = get_response

    def __call__(self, request):
        return self.get_response(request)

    def process_view(self, request, view_func, view_args, view_kwargs):
        fields = [request.GET]
        if not request.path.startswith("/api/") and request.content_type in FORM_TYPES:
            fields.append(request.POST)  # a page's form (the API's bodies are its parsers')
        for query in fields:
            for key, values in query.lists():
                if "\x00" in key or any("\x00" in value for value in values):
                    raise NulInRequest(f"a NUL character in {key[:40]!r}")
        return None
