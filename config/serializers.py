"""Serializer helpers shared by every app's API layer.

What it does: ``StrictFieldsMixin`` makes an input serializer refuse keys it does not declare
(400, code ``unknown_field``, pointer "/<field>") instead of silently dropping them, so a client
with a typo ("sates" for "seats") learns about it. ``ProblemSerializer`` describes the problem
document of ``config.problems`` for the OpenAPI schema.

What it does not do: validate values (the serializers' fields do) or apply business rules.

Terms:
- *writable field*: a declared field that is not ``read_only``; only these may appear in input.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rest_framework import serializers
from rest_framework.exceptions import ErrorDetail


class StrictFieldsMixin:
    """Refuse unknown (and read-only) keys in the input, at every nesting level.

    Put it first in the bases: ``class GameInput(StrictFieldsMixin, serializers.Serializer)``.
    Nested serializers that also use it report their own unknown keys with the nested pointer.
    """

    def to_internal_value(self, data: Any) -> Any:
        unknown: dict[str, list[ErrorDetail]] = {}
        if isinstance(data, Mapping):
            fields = self.fields  # type: ignore[attr-defined]
            for key in data:
                field = fields.get(key)
                if field is None:
                    unknown[key] = [ErrorDetail("Unknown field.", code="unknown_field")]
                elif field.read_only:
                    unknown[key] = [
                        ErrorDetail("Read-only field; it cannot be set.", code="unknown_field")
                    ]
                elif _too_long_as_sent(field, data[key]):
                    # DRF trims white space before checking max_length; the schema's maxLength
                    # speaks of the text as sent, so the text as sent is what must fit.
                    unknown[key] = [
                        ErrorDetail(
                            f"Ensure this field has no more than {field.max_length} characters.",
                            code="max_length",
                        )
                    ]
        try:
            value = super().to_internal_value(data)  # type: ignore[misc]
        except serializers.ValidationError as error:
            if unknown and isinstance(error.detail, Mapping):
                raise serializers.ValidationError({**error.detail, **unknown}) from error
            raise
        if unknown:
            raise serializers.ValidationError(unknown)
        return value


def _too_long_as_sent(field, value: Any) -> bool:
    max_length = getattr(field, "max_length", None)
    return (
        isinstance(field, serializers.CharField)
        and max_length is not None
        and isinstance(value, str)
        and len(value) > max_length
    )


class ProblemErrorSerializer(serializers.Serializer):
    """One error of a problem document (for the schema only)."""

    code = serializers.CharField(help_text="Stable machine-readable code, e.g. `invalid_card`.")
    detail = serializers.CharField(help_text="English explanation for people.")
    pointer = serializers.CharField(
        allow_null=True,
        help_text='JSON pointer into the request body ("" is the whole body); null when the '
        "error is not about the body.",
    )


class ProblemSerializer(serializers.Serializer):
    """An RFC 9457 problem document (for the schema only)."""

    type = serializers.CharField(help_text="URI naming the kind of problem.")
    title = serializers.CharField()
    status = serializers.IntegerField()
    detail = serializers.CharField()
    code = serializers.CharField(help_text="Stable code of the problem as a whole.")
    errors = ProblemErrorSerializer(many=True)
