"""The JSON parser of the API: a size limit per route and a nesting limit, checked before parsing.

What it does: ``GuardedJSONParser`` (DRF's DEFAULT_PARSER_CLASSES) reads at most the route's
limit of bytes from the body — ``max_body_bytes`` on the view, else ``DEFAULT_MAX_BODY_BYTES`` —
and answers 413 ``body_too_large`` beyond it (whatever ``Content-Length`` says, so a chunked body
cannot slip past). Before ``json.loads`` it measures how deeply arrays and objects nest, with one
regular expression pass that skips string literals and a loop over the brackets only, and answers
400 ``too_deeply_nested`` past ``MAX_NESTING`` levels: a 2 KB body nested 950 levels deep used to
reach Python's recursion limit inside the parser (a 500). Invalid JSON stays 400 ``parse_error``.

What it does not do: validate values (serializers and the engine do) or guard form bodies (the
API takes JSON only).

Terms: *nesting* — the number of arrays and objects open at once; the deepest body the API
documents (a card-by-card hand record) nests 3 levels, a tournament with entrants 3.
"""

from __future__ import annotations

import re

from rest_framework.exceptions import ParseError
from rest_framework.parsers import JSONParser
from rest_framework.utils import json

DEFAULT_MAX_BODY_BYTES = 64 * 1024
MAX_NESTING = 32

# A JSON string literal (escapes included): its brackets are text, not structure.
_STRING_LITERAL = re.compile(rb'"(?:[^"\\]|\\.)*"', re.DOTALL)
_BRACKET = re.compile(rb"[\[\]{}]")


def max_body_bytes_of(view) -> int:
    """The body size limit of ``view`` (a route may raise or lower the default)."""
    return getattr(view, "max_body_bytes", None) or DEFAULT_MAX_BODY_BYTES


def nesting_depth(body: bytes, limit: int) -> int:
    """How deeply arrays and objects nest in ``body``; stops counting once past ``limit``."""
    depth = deepest = 0
    for match in _BRACKET.finditer(_STRING_LITERAL.sub(b'""', body)):
        if match.group() in (b"[", b"{"):
            depth += 1
            if depth > deepest:
                deepest = depth
                if deepest > limit:
                    return deepest
        else:
            depth -= 1
    return deepest


class GuardedJSONParser(JSONParser):
    """DRF's JSON parser behind a size and a nesting limit (see the module docstring)."""

    def parse(self, stream, media_type=None, parser_context=None):
        # Lazy: config.problems imports rest_framework.views, which imports this parser.
        from config.problems import Problem

        parser_context = parser_context or {}
        limit = max_body_bytes_of(parser_context.get("view"))
        body = stream.read(limit + 1) if stream is not None else b""
        if len(body) > limit:
            raise Problem(
                code="body_too_large",
                detail=f"The request body is larger than this endpoint accepts ({limit} bytes).",
                pointer="",
            )
        if nesting_depth(body, MAX_NESTING) > MAX_NESTING:
            raise Problem(
                code="too_deeply_nested",
                detail=f"Arrays and objects nest more than {MAX_NESTING} levels deep.",
                pointer="",
            )
        encoding = parser_context.get("encoding", "utf-8")
        try:
            text = body.decode(encoding)
            # DRF's json refuses NaN and Infinity (STRICT_JSON), as its own parser does.
            return json.loads(text)
        except (ValueError, RecursionError) as error:
            raise ParseError(f"JSON parse error - {error}") from error
