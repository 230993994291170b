"""OpenAPI schema generation: the schema says what the server really answers.

What it does:
- ``ProblemAutoSchema`` (DRF's DEFAULT_SCHEMA_CLASS, used by drf-spectacular) adds the
  ``application/problem+json`` responses an operation can give and does not declare itself:
  400 (a body, or a list's query), 401 and 403 (not public), 404 (one resource), 413 and 415
  (a body), 409 and 422 (an ``Idempotency-Key``), 412 and 428 (an ``If-Match``), 429 (the token
  and register endpoints). Operation descriptions come only from ``extend_schema`` (class
  docstrings are notes for developers, not for clients), and a club's games, balances and
  tournaments are filed under their own tags, not under clubs.
- ``postprocess_schema`` (a POSTPROCESSING_HOOK) declares the response headers (``ETag``,
  ``Location``, ``Idempotent-Replayed``) where the server sends them, marks every strict input
  body ``additionalProperties: false`` (unknown fields are refused with 400 ``unknown_field``),
  and declares the token security scheme with its ``Token`` prefix.

What it does not do: list every domain code an operation can return (views document those with
``extend_schema`` where they matter).
"""

from __future__ import annotations

from drf_spectacular.openapi import AutoSchema
from rest_framework.permissions import AllowAny

from config.problems import PROBLEM_CONTENT_TYPE
from config.serializers import ProblemSerializer

_DESCRIPTIONS = {
    "400": "Invalid input: one error per offending value, each with a code and a pointer.",
    "401": "No valid credentials were given.",
    "403": "The authenticated user may not do this.",
    "404": "No such resource (or it is not visible to this user).",
    "409": "Conflict: the state does not allow it, or a request with this Idempotency-Key is "
    "still being processed (`idempotency_in_progress`).",
    "412": "Precondition failed: the If-Match no longer matches the current ETag.",
    "413": "The body is larger than this endpoint accepts (`body_too_large`).",
    "415": "The body is not JSON (`unsupported_media_type`).",
    "422": "This Idempotency-Key was used for another request (`idempotency_key_reused`).",
    "428": "Precondition required: send If-Match with the current ETag (an empty one counts as "
    "none).",
    "429": "Too many requests (a lockout after failed logins, or the sign-up throttle).",
}
# Operations behind a throttle or a lockout.
_THROTTLED = frozenset({"token", "register"})
# The club-scoped collections that belong to another app than clubs: path segment -> tag.
_TAGS_BY_SEGMENT = {"games": "games", "balances": "games", "tournaments": "tournaments"}
# Operations whose 200/201 answers carry the resource's ETag.
_ETAG_OPERATIONS = frozenset(
    {
        "games_create",
        "games_retrieve",
        "hands_list",
        "hands_create",
        "hands_retrieve",
        "hands_update",
        "hands_destroy",
        "clubs_tournaments_create",
        "tournaments_retrieve",
        "tournaments_partial_update",
        "tournaments_standings",
        "tournaments_settlement",
        "tournaments_close",
    }
)


class ProblemAutoSchema(AutoSchema):
    """drf-spectacular's AutoSchema, plus the problem responses an operation can give."""

    def get_description(self) -> str:
        return ""  # only extend_schema(description=...) speaks to clients

    def get_tags(self) -> list[str]:
        segments = [segment for segment in self.path.split("/") if segment]
        if segments[:2] == ["api", "clubs"] and len(segments) >= 4:
            tag = _TAGS_BY_SEGMENT.get(segments[3])
            if tag:
                return [tag]
        if segments[:2] == ["api", "matches"]:
            return ["tournaments"]
        return super().get_tags()

    def get_auth(self):
        if getattr(self.view, "authentication_classes", None) == []:
            return []  # register and token login read no credentials at all
        auths = super().get_auth()
        permissions = getattr(self.view, "permission_classes", ())
        anonymous = any(getattr(p, "anonymous_may_write", False) for p in permissions) or (
            self.method in ("GET", "HEAD")
            and any(getattr(p, "anonymous_may_read", False) for p in permissions)
        )
        if anonymous and {} not in auths:
            auths.append({})
        return auths

    def _header_names(self) -> set[str]:
        return {
            parameter.name
            for parameter in self.get_override_parameters()
            if getattr(parameter, "location", None) == "header"
        }

    def _problem_status_codes(self) -> list[str]:
        codes = []
        takes_body = self.method in ("POST", "PUT", "PATCH")
        is_list = self.method == "GET" and self._is_list_view()
        if takes_body or is_list:
            codes.append("400")
        permission_classes = getattr(self.view, "permission_classes", ())
        if not any(permission is AllowAny for permission in permission_classes):
            codes.extend(["401", "403"])
        if "{" in self.path:
            codes.append("404")
        headers = self._header_names()
        if self.method != "GET" and getattr(self.view, "may_conflict", True):
            codes.append("409")  # a state that does not allow the change
        if "Idempotency-Key" in headers:
            codes.append("422")
        if "If-Match" in headers:
            codes.extend(["412", "428"])
        if takes_body:
            codes.extend(["413", "415"])
        if self.get_operation_id() in _THROTTLED:
            codes.append("429")
        return codes

    def _get_response_bodies(self, direction="response"):
        responses = super()._get_response_bodies(direction)
        for status_code in self._problem_status_codes():
            if status_code in responses:
                continue
            response = self._get_response_for_code(
                ProblemSerializer, status_code, media_types=[PROBLEM_CONTENT_TYPE]
            )
            response["description"] = _DESCRIPTIONS[status_code]
            responses[status_code] = response
        return responses


def _header(description: str) -> dict:
    return {"schema": {"type": "string"}, "description": description}


def _drop_any_or_null(node) -> None:
    """``oneOf: [{}, {type: null}]`` (any value, or null) is ambiguous for a validator: null
    matches both. Any value already includes null, so it becomes ``{}``."""
    if isinstance(node, dict):
        one_of = node.get("oneOf")
        if isinstance(one_of, list) and {} in one_of and {"type": "null"} in one_of:
            del node["oneOf"]
        for value in node.values():
            _drop_any_or_null(value)
    elif isinstance(node, list):
        for value in node:
            _drop_any_or_null(value)


def postprocess_schema(result, generator, request, public):
    """Response headers, strict request bodies and the token scheme (module docstring)."""
    strict_components = set()
    for path_item in result.get("paths", {}).values():
        for operation in path_item.values():
            if not isinstance(operation, dict) or "responses" not in operation:
                continue
            parameters = {parameter["name"] for parameter in operation.get("parameters", [])}
            for parameter in operation.get("parameters", []):
                enum = parameter.get("schema", {}).get("enum")
                if parameter["in"] == "query" and enum and "" not in enum:
                    # django-filter reads an empty choice as "no filter", as a form would.
                    parameter["schema"]["enum"] = [*enum, ""]
            for content in operation.get("requestBody", {}).get("content", {}).values():
                reference = content.get("schema", {}).get("$ref", "")
                if reference:
                    strict_components.add(reference.rsplit("/", 1)[-1])
            for status_code, response in operation["responses"].items():
                if not status_code.startswith("2"):
                    continue
                headers = response.setdefault("headers", {})
                if operation.get("operationId") in _ETAG_OPERATIONS:
                    headers["ETag"] = _header("The resource's current version, for If-Match.")
                if status_code == "201" and operation.get("operationId") not in (
                    "tournaments_entrants_create",
                    "tournaments_rounds_create",
                ):
                    headers["Location"] = _header("Where the created resource is.")
                if "Idempotency-Key" in parameters:
                    headers["Idempotent-Replayed"] = _header(
                        "`true` when this is the stored answer to an earlier request with the "
                        "same Idempotency-Key."
                    )
                if not headers:
                    del response["headers"]
    components = result.get("components", {})
    for name in strict_components:
        schema = components.get("schemas", {}).get(name)
        if schema is not None and schema.get("type") == "object":
            schema["additionalProperties"] = False
    _drop_any_or_null(result)
    # A serializer's docstring (or its mixin's) is a note for developers, not a description.
    for schema in components.get("schemas", {}).values():
        if "``" in schema.get("description", ""):
            del schema["description"]
    # The API is documented for token clients; the session cookie serves the site's own pages.
    for path_item in result.get("paths", {}).values():
        for operation in path_item.values():
            if isinstance(operation, dict) and "security" in operation:
                operation["security"] = [
                    requirement
                    for requirement in operation["security"]
                    if "cookieAuth" not in requirement
                ]
    schemes = components.setdefault("securitySchemes", {})
    schemes.pop("cookieAuth", None)
    if "knoxApiToken" in schemes:
        schemes["knoxApiToken"] = {
            "type": "http",
            "scheme": "Token",
            "description": "Send `Authorization: Token <token>` with the token from "
            "POST /api/auth/token/ (the prefix is `Token`, not `Bearer`).",
        }
    return result
