"""RFC 9457 problem details for every error the API returns.

What it does: ``problem_exception_handler`` is DRF's EXCEPTION_HANDLER. It turns every
``APIException`` (and Django's ``Http404`` / ``PermissionDenied``) into an
``application/problem+json`` document::

    {"type": "urn:jink:problem:invalid", "title": "Invalid input.", "status": 400,
     "detail": "...", "code": "invalid",
     "errors": [{"code": "required", "detail": "This field is required.", "pointer": "/name"}]}

DRF validation errors (nested dicts and lists) become one entry of ``errors`` per leaf message,
each with the leaf's code and a JSON pointer to the offending value ("/seats/2", "/house_rules/x").
``Problem`` is the exception services and views raise for their own refusals; its status is
its code's, from the catalogue (config.problem_codes). ``rules_error_to_problem`` is the one
conversion of a ``rules_engine.RulesError`` or a ``tournaments.draw.DrawError``. Code outside DRF
(Django's error handlers, the login lockout) answers with ``problem_json_response``.

What it does not do: handle unexpected exceptions (those stay 500s so they are seen and fixed),
or list the codes and their statuses (config.problem_codes does).

Terms:
- *code*: a stable machine-readable identifier; clients switch on it, never on ``detail``.
- *pointer*: an RFC 6901 JSON pointer into the request body; "" is the whole body and ``None``
  means the error is not about the body (a missing object, a permission).
- *type*: a URI naming the kind of problem, ``urn:jink:problem:<code>``.
- *title*: the status's short text for a person, in the request's language (English or French).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from django.core.exceptions import PermissionDenied as DjangoPermissionDenied
from django.http import Http404, JsonResponse
from django.utils.translation import gettext, gettext_lazy
from rest_framework import exceptions, status
from rest_framework.response import Response
from rest_framework.settings import api_settings
from rest_framework.views import set_rollback

from config.problem_codes import problem_status

PROBLEM_CONTENT_TYPE = "application/problem+json"

# Codes for the exception classes whose DRF default codes are vaguer than the contract wants.
_CODES_BY_EXCEPTION: list[tuple[type[exceptions.APIException], str]] = [
    (exceptions.ParseError, "parse_error"),
    (exceptions.NotFound, "not_found"),
    (exceptions.NotAuthenticated, "not_authenticated"),
    (exceptions.AuthenticationFailed, "authentication_failed"),
    (exceptions.PermissionDenied, "permission_denied"),
    (exceptions.MethodNotAllowed, "method_not_allowed"),
    (exceptions.NotAcceptable, "not_acceptable"),
    (exceptions.UnsupportedMediaType, "unsupported_media_type"),
    (exceptions.Throttled, "throttled"),
    (exceptions.ValidationError, "invalid"),
]

# Titles are for people: translated to the request's language (Accept-Language); codes are not.
_TITLES_BY_STATUS = {
    400: gettext_lazy("Invalid input."),
    401: gettext_lazy("Authentication required."),
    403: gettext_lazy("Permission denied."),
    404: gettext_lazy("Not found."),
    405: gettext_lazy("Method not allowed."),
    406: gettext_lazy("Not acceptable."),
    409: gettext_lazy("Conflict."),
    412: gettext_lazy("Precondition failed."),
    413: gettext_lazy("Content too large."),
    415: gettext_lazy("Unsupported media type."),
    422: gettext_lazy("Unprocessable content."),
    428: gettext_lazy("Precondition required."),
    429: gettext_lazy("Too many requests."),
}


def problem_type(code: str) -> str:
    """The ``type`` URI of a problem with ``code``."""
    return f"urn:jink:problem:{code}"


def escape_pointer_segment(segment: Any) -> str:
    """One reference token of a JSON pointer: RFC 6901 escapes "~" and "/"."""
    return str(segment).replace("~", "~0").replace("/", "~1")


class Problem(exceptions.APIException):
    """A refusal with a stable code, raised by services and views.

    ``Problem(code="game_over", detail="The game is over.", pointer="")`` gives a 409 problem
    document whose ``errors`` holds that one error; pass ``errors`` (a list of dicts with
    ``code``, ``detail`` and ``pointer``) to report several at once. The status is the code's in
    the catalogue (config.problem_codes); a code not there raises ``UnknownProblemCode``.
    ``status`` is only for the rare code answered with another status in one place (a player
    missing from the roster merge is a 404 ``unknown_player``).
    """

    status_code = status.HTTP_400_BAD_REQUEST
    default_code = "invalid"
    default_detail = "The request cannot be processed."

    def __init__(
        self,
        *,
        code: str = "invalid",
        detail: str | None = None,
        errors: Iterable[Mapping[str, Any]] | None = None,
        pointer: str | None = None,
        title: str | None = None,
        status: int | None = None,
    ) -> None:
        catalogued = problem_status(code)
        detail = detail if detail is not None else self.default_detail
        super().__init__(detail=detail, code=code)
        self.status_code = catalogued if status is None else status
        self.code = code
        self.title = title
        if errors is None:
            self.errors = [{"code": code, "detail": str(detail), "pointer": pointer}]
        else:
            self.errors = [
                {
                    "code": error["code"],
                    "detail": str(error.get("detail", "")),
                    "pointer": error.get("pointer"),
                }
                for error in errors
            ]


def localized_detail(error: Any) -> str:
    """The ``detail`` of a ``RulesError`` or ``DrawError`` in the active language.

    The pure packages keep the English template (marked ``N_``) and its named parameters; this
    is ``gettext(template) % params``, a param that is a ``Phrase`` (words with their own
    template) translated the same way, recursively. A combined error joins its errors'
    details; an error without a template keeps its English detail.
    """
    template = getattr(error, "template", None)
    if template is None:
        singles = getattr(error, "errors", None) or []
        if len(singles) > 1:
            return "; ".join(localized_detail(single) for single in singles)
        return error.detail
    return _localized(template, getattr(error, "params", None))


def _localized(template: str, params: Mapping[str, Any] | None) -> str:
    """``gettext(template) % params``, each param that is a ``Phrase`` translated first."""
    if params is None:
        return gettext(template)
    return gettext(template) % {name: localized_text(value) for name, value in params.items()}


def localized_text(value: Any) -> Any:
    """``value`` in the active language when it is a ``Phrase`` (words the engine made with their
    template); any other value as it is."""
    # A ``rules_engine.errors.Phrase`` is a str keeping its own template; duck-typed so that this
    # module needs no import of the pure packages.
    template = getattr(value, "template", None)
    if isinstance(value, str) and isinstance(template, str):
        return _localized(template, getattr(value, "params", None) or None)
    return value


def rules_error_to_problem(error: Any, pointer_prefix: str = "") -> Problem:
    """The ``Problem`` for a ``rules_engine.RulesError`` or a ``tournaments.draw.DrawError``: its
    code's status from the catalogue (400; 409 for a state such as ``game_over``), one entry of
    ``errors`` per single error, each detail in the request's language.

    ``pointer_prefix`` is prepended to each error's pointer, for when the engine checked a part
    of the request body (the house rules of a game are at "/house_rules"); a ``DrawError`` has
    no pointer ("": the whole body).
    """
    errors = [
        {
            "code": single.code,
            "detail": localized_detail(single),
            "pointer": pointer_prefix + (getattr(single, "pointer", None) or ""),
        }
        for single in (getattr(error, "errors", None) or [error])
    ]
    return Problem(code=error.code, detail=localized_detail(error), errors=errors)


def flatten_validation_detail(detail: Any, pointer: str = "") -> list[dict[str, Any]]:
    """One ``{"code", "detail", "pointer"}`` per leaf message of a DRF error structure.

    DRF gives a field's messages as a list of strings and a nested field's errors as a dict (keyed
    by field name or, for list fields, by index) or a list of dicts (``many=True``).
    """
    if isinstance(detail, Mapping):
        errors = []
        for key, value in detail.items():
            if key == api_settings.NON_FIELD_ERRORS_KEY:
                child_pointer = pointer
            else:
                child_pointer = f"{pointer}/{escape_pointer_segment(key)}"
            errors.extend(flatten_validation_detail(value, child_pointer))
        return errors
    if isinstance(detail, list | tuple):
        errors = []
        for index, value in enumerate(detail):
            if isinstance(value, Mapping | list | tuple):
                # An item of a list field: the index is part of the pointer.
                errors.extend(flatten_validation_detail(value, f"{pointer}/{index}"))
            else:
                errors.extend(flatten_validation_detail(value, pointer))
        return errors
    return [
        {
            "code": getattr(detail, "code", None) or "invalid",
            "detail": str(detail),
            "pointer": pointer,
        }
    ]


def _code_for(exc: exceptions.APIException) -> str:
    for exception_class, code in _CODES_BY_EXCEPTION:
        if isinstance(exc, exception_class):
            return code
    codes = exc.get_codes()
    return codes if isinstance(codes, str) else "error"


def problem_document(exc: exceptions.APIException) -> dict[str, Any]:
    """The problem document (a dict) for an API exception."""
    status_code = exc.status_code
    if isinstance(exc, Problem):
        code = exc.code
        errors = exc.errors
        detail = str(exc.detail)
        title = exc.title
    elif isinstance(exc, exceptions.ValidationError):
        code = "invalid"
        errors = flatten_validation_detail(exc.detail)
        if len(errors) == 1:
            detail = errors[0]["detail"]
        else:
            detail = f"The request has {len(errors)} errors."
        title = None
    else:
        code = _code_for(exc)
        detail = str(exc.detail)
        errors = [{"code": code, "detail": detail, "pointer": None}]
        title = None
    return {
        "type": problem_type(code),
        "title": str(title or _TITLES_BY_STATUS.get(status_code, gettext_lazy("Error."))),
        "status": status_code,
        "detail": detail,
        "code": code,
        "errors": errors,
    }


def problem_response(
    document: Mapping[str, Any], headers: Mapping[str, str] | None = None
) -> Response:
    """A DRF response carrying ``document`` as ``application/problem+json``."""
    return Response(
        dict(document),
        status=document["status"],
        headers=dict(headers or {}),
        content_type=PROBLEM_CONTENT_TYPE,
    )


def problem_json_response(problem: Problem) -> JsonResponse:
    """A plain Django response carrying ``problem``'s document, for code outside DRF's views
    (the project's error handlers, the login lockout)."""
    document = problem_document(problem)
    return JsonResponse(document, status=document["status"], content_type=PROBLEM_CONTENT_TYPE)


def problem_exception_handler(exc: Exception, context: Mapping[str, Any]) -> Response | None:
    """DRF EXCEPTION_HANDLER: every API exception as an RFC 9457 problem document."""
    if isinstance(exc, Http404):
        exc = exceptions.NotFound()
    elif isinstance(exc, DjangoPermissionDenied):
        exc = exceptions.PermissionDenied()
    if not isinstance(exc, exceptions.APIException):
        return None

    headers: dict[str, str] = {}
    auth_header = getattr(exc, "auth_header", None)
    if auth_header:
        headers["WWW-Authenticate"] = auth_header
    wait = getattr(exc, "wait", None)
    if wait:
        headers["Retry-After"] = str(int(wait))

    # Like DRF's own handler: a refused request stores nothing.
    set_rollback()
    return problem_response(problem_document(exc), headers)
