"""Safe retries of creating requests: the ``Idempotency-Key`` header.

What it does: a creating ``POST`` sent with ``Idempotency-Key: <key>`` runs at most once per
client and key. The first response (a 2xx) is stored, in the same database transaction as
whatever the request created, and kept seven days; then

- the same key with the same method, path and body returns the stored response (status, body,
  ``Location`` and ``ETag``, plus ``Idempotent-Replayed: true``) and creates nothing;
- the same key with another method, path or body is 422 ``idempotency_key_reused``;
- the same key while the first request is still being processed is 409
  ``idempotency_in_progress``: on PostgreSQL a transaction-scoped advisory *try*-lock keyed on the
  client and key is taken before anything else, so a concurrent duplicate is refused at once
  instead of waiting (and can never create a second object). Other databases (SQLite in
  development) serialise writers anyway, so there the lock is skipped.

A refused request (any 4xx/5xx, raised or returned) stores no key: the retry is evaluated again.

Use ``@idempotent`` on a DRF view's handler method (``def post(self, request, ...)``); add
``IDEMPOTENCY_KEY_PARAMETER`` to the view's ``extend_schema(parameters=...)`` so the schema
documents the header.

What it does not do: decide who may call the view (DRF runs authentication and permissions before
the handler, so a key never leaks a response to another client), or purge old keys by itself
(``purge_expired_idempotency_records`` does, called by a periodic Celery task).

Terms:
- *scope*: who sent the key ("user:<id>"); two clients never see each other's keys.
- *fingerprint*: SHA-256 of the method, full path and canonical JSON of the body (key order and
  white space do not matter).
- The model is ``games.IdempotencyRecord`` (``config`` is not an app); it is looked up lazily so
  this module imports no app at import time.
"""

from __future__ import annotations

import functools
import hashlib
import json
from collections.abc import Callable
from datetime import timedelta
from typing import Any

from django.apps import apps
from django.core.serializers.json import DjangoJSONEncoder
from django.db import connection, transaction
from django.utils import timezone
from django.utils.translation import gettext
from drf_spectacular.utils import OpenApiParameter
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.utils.encoders import JSONEncoder

from config.problems import Problem

IDEMPOTENCY_HEADER = "Idempotency-Key"
REPLAYED_HEADER = "Idempotent-Replayed"
MAX_KEY_LENGTH = 255
RETENTION = timedelta(days=7)
# Response headers worth replaying: where the created object is and its entity tag.
REPLAYED_RESPONSE_HEADERS = ("Location", "ETag")

IDEMPOTENCY_KEY_PARAMETER = OpenApiParameter(
    name=IDEMPOTENCY_HEADER,
    type={"type": "string", "minLength": 1, "maxLength": MAX_KEY_LENGTH},
    location=OpenApiParameter.HEADER,
    required=False,
    description=(
        "Makes the request safe to retry: the same key with the same body returns the first "
        "response and creates nothing (header `Idempotent-Replayed: true`); the same key with "
        "another body is 422 `idempotency_key_reused`; the same key while the first request is "
        "still running is 409 `idempotency_in_progress`. Keys are kept 7 days, at most 255 "
        "characters, per user."
    ),
)


def _record_model():
    return apps.get_model("games", "IdempotencyRecord")


def request_scope(request: Request) -> str:
    user = getattr(request, "user", None)
    if user is not None and user.is_authenticated:
        return f"user:{user.pk}"
    return "anonymous"


def request_fingerprint(request: Request) -> str:
    """SHA-256 of method, full path and the body as canonical JSON (see the module docstring)."""
    data = request.data
    if hasattr(data, "lists"):  # a QueryDict (form or multipart body)
        data = {key: values for key, values in data.lists()}
    try:
        body = json.dumps(data, sort_keys=True, separators=(",", ":"), cls=DjangoJSONEncoder)
    except TypeError:
        body = repr(data)  # uploads and other non-JSON bodies: still stable for one body
    digest = hashlib.sha256()
    for part in (request.method, request.get_full_path(), body):
        digest.update(part.encode())
        digest.update(b"\0")
    return digest.hexdigest()


def advisory_lock_identifier(scope: str, key: str) -> int:
    """A signed 64-bit integer for ``pg_try_advisory_xact_lock`` (collisions only cost a 409)."""
    digest = hashlib.sha256(f"idempotency\0{scope}\0{key}".encode()).digest()
    return int.from_bytes(digest[:8], "big", signed=True)


def _try_lock(scope: str, key: str) -> bool:
    """Take the transaction-scoped lock of this key; False when another request holds it."""
    if connection.vendor != "postgresql":
        return True
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT pg_try_advisory_xact_lock(%s)", [advisory_lock_identifier(scope, key)]
        )
        return bool(cursor.fetchone()[0])


def _read_key(request: Request) -> str | None:
    key = request.headers.get(IDEMPOTENCY_HEADER)
    if key is None:
        return None
    key = key.strip()
    if not key or len(key) > MAX_KEY_LENGTH or not key.isprintable():
        raise Problem(
            code="invalid_idempotency_key",
            detail=gettext("The %(header)s header must be 1 to %(length)s printable characters.")
            % {"header": IDEMPOTENCY_HEADER, "length": MAX_KEY_LENGTH},
        )
    return key


def _replay(record) -> Response:
    headers = dict(record.response_headers or {})
    headers[REPLAYED_HEADER] = "true"
    return Response(record.response_body, status=record.response_status, headers=headers)


def _json_ready(data: Any) -> Any:
    """The response data as plain JSON values (Decimals, dates, UUIDs as DRF renders them)."""
    return json.loads(json.dumps(data, cls=JSONEncoder))


def run_idempotently(request: Request, handler: Callable[[], Response]) -> Response:
    """Run ``handler`` under the idempotency rules of the module docstring and return its answer.

    Without an ``Idempotency-Key`` header the handler simply runs.
    """
    key = _read_key(request)
    if key is None:
        return handler()
    scope = request_scope(request)
    fingerprint = request_fingerprint(request)
    record_model = _record_model()
    with transaction.atomic():
        if not _try_lock(scope, key):
            raise Problem(
                code="idempotency_in_progress",
                detail=gettext(
                    "A request with this Idempotency-Key is still being processed; "
                    "retry in a moment to get its response."
                ),
            )
        existing = record_model.objects.filter(scope=scope, key=key).first()
        if existing is not None:
            if existing.fingerprint != fingerprint:
                raise Problem(
                    code="idempotency_key_reused",
                    detail=gettext(
                        "This Idempotency-Key was already used for a different "
                        "request (%(method)s %(path)s with another body)."
                    )
                    % {"method": existing.method, "path": existing.path},
                )
            return _replay(existing)
        response = handler()
        if 200 <= response.status_code < 300:
            record_model.objects.create(
                scope=scope,
                key=key,
                fingerprint=fingerprint,
                method=request.method,
                path=request.get_full_path()[:512],
                response_status=response.status_code,
                response_body=_json_ready(response.data),
                response_headers={
                    name: response[name]
                    for name in REPLAYED_RESPONSE_HEADERS
                    if response.has_header(name)
                },
            )
        else:
            # A refusal returned rather than raised must not keep anything either.
            transaction.set_rollback(True)
        return response


def idempotent(handler: Callable[..., Response]) -> Callable[..., Response]:
    """Decorate a DRF view handler method (``post(self, request, *args, **kwargs)``)."""

    @functools.wraps(handler)
    def wrapper(view, request: Request, *args: Any, **kwargs: Any) -> Response:
        return run_idempotently(request, lambda: handler(view, request, *args, **kwargs))

    return wrapper


def purge_expired_idempotency_records(*, now=None) -> int:
    """Delete keys older than ``RETENTION``; returns how many were deleted."""
    cutoff = (now or timezone.now()) - RETENTION
    deleted, _ = _record_model().objects.filter(created_at__lt=cutoff).delete()
    return deleted
