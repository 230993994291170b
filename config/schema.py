"""OpenAPI schema generation: every operation documents its problem responses.

What it does: ``ProblemAutoSchema`` (DRF's DEFAULT_SCHEMA_CLASS, used by drf-spectacular) adds
``application/problem+json`` responses to each operation that does not declare them itself:
400 for operations that take a body, 401 and 403 for operations that are not public, 404 for
operations on one resource (a path with parameters).

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
}


class ProblemAutoSchema(AutoSchema):
    """drf-spectacular's AutoSchema, plus the problem responses an operation can give."""

    def _problem_status_codes(self) -> list[str]:
        codes = []
        if self.method in ("POST", "PUT", "PATCH"):
            codes.append("400")
        permission_classes = getattr(self.view, "permission_classes", ())
        if not any(permission is AllowAny for permission in permission_classes):
            codes.extend(["401", "403"])
        if "{" in self.path:
            codes.append("404")
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
