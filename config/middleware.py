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
  it (405; the schema at /api/schema/ describes every endpoint).

What it does not do: the Content-Security-Policy (django-csp's ``CSPMiddleware``, configured in
settings), ``Referrer-Policy`` and ``X-Content-Type-Options`` (Django's SecurityMiddleware).
"""

from __future__ import annotations

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
REVALIDATE = "private, no-cache"


class ResponseHeadersMiddleware:
    def __init__(self, get_response) -> None:
        self.get_response = get_response

    def process_view(self, request, view_func, view_args, view_kwargs):
        view_class = getattr(view_func, "cls", None) or getattr(view_func, "view_class", None)
        request._jink_cache_control = getattr(view_class, "cache_control", None)
        return None

    def __call__(self, request):
        response = self.get_response(request)
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
