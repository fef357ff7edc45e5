"""JSON from clients, parsed within bounds: socket frames and API bodies.

Python's json module recurses once per nesting level, so 100,000 ``[`` raise RecursionError
from deep inside the parser (a crashed socket, a 500).  Every JSON a client sends goes
through `loads_bounded`: too many bytes or too deep a nesting is refused before the parser
runs, with a message that says which bound was crossed.  Nothing the server takes is more
than a few levels deep (a match request: object → seats list → seat object).
"""

from __future__ import annotations

import codecs
import json
import re
from collections.abc import Mapping
from typing import IO, Any

from django.conf import settings
from rest_framework import status
from rest_framework.exceptions import APIException, ParseError
from rest_framework.parsers import JSONParser

MAX_DEPTH = 32  # nested arrays and objects
MAX_FRAME_BYTES = 16 * 1024  # a socket frame (a move frame is under 100 bytes)
MAX_BODY_BYTES = 256 * 1024  # an API request body

_OPENERS = frozenset("[{")
# What the depth scan looks at: brackets, and the quotes and backslashes that delimit strings.
_STRUCTURE = re.compile(r'[\[\]{}"\\]')


class BadJSON(ValueError):
    """Not JSON, or JSON beyond the bounds; the message says which."""


class TooLarge(BadJSON):
    pass


def loads_bounded(text: str | bytes, max_bytes: int, max_depth: int = MAX_DEPTH) -> Any:
    """`text` parsed as strict JSON (no NaN or Infinity), or BadJSON."""
    size = len(text.encode() if isinstance(text, str) else text)
    if size > max_bytes:
        raise TooLarge(f"JSON is at most {max_bytes} bytes")
    if isinstance(text, bytes):
        try:
            text = text.decode()
        except UnicodeDecodeError as exc:
            raise BadJSON(f"JSON is UTF-8: {exc}") from None
    if _deeper_than(text, max_depth):
        raise BadJSON(f"JSON nested more than {max_depth} levels deep")
    try:
        return json.loads(text, parse_constant=_no_constant)
    except ValueError as exc:  # JSONDecodeError, and the constants refused below
        raise BadJSON(f"not JSON: {exc}") from None


def _deeper_than(text: str, limit: int) -> bool:
    """Whether arrays and objects nest more than `limit` deep (brackets inside strings don't count).

    Counting every opening bracket, in C, settles almost every text; the rest are scanned
    one structural character at a time and the scan stops as soon as the limit is crossed.
    """
    if text.count("[") + text.count("{") <= limit:
        return False
    depth, in_string, escaped_at = 0, False, -1
    for found in _STRUCTURE.finditer(text):
        char, at = found.group(), found.start()
        if in_string:
            if at == escaped_at:  # the character after a backslash: part of the string
                continue
            if char == "\\":
                escaped_at = at + 1
            elif char == '"':
                in_string = False
        elif char == '"':
            in_string = True
        elif char in _OPENERS:
            depth += 1
            if depth > limit:
                return True
        elif char != "\\":
            depth -= 1
    return False


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a JSON value")


class PayloadTooLarge(APIException):
    status_code = status.HTTP_413_REQUEST_ENTITY_TOO_LARGE
    default_detail = "request body too large"
    default_code = "too_large"


class BoundedJSONParser(JSONParser):
    """DRF's JSON parser, within `MAX_BODY_BYTES` and `MAX_DEPTH`: bad bodies are 400 (413 when too large)."""

    def parse(
        self, stream: IO[Any] | None, media_type: str | None = None, parser_context: Mapping[str, Any] | None = None
    ) -> Any:  # any JSON value: a view checks the shape it wants
        encoding = (parser_context or {}).get("encoding", settings.DEFAULT_CHARSET)
        raw = stream.read(MAX_BODY_BYTES + 1) if stream is not None else b""
        try:
            text = codecs.decode(raw, encoding)
        except (UnicodeDecodeError, LookupError) as exc:
            raise ParseError(f"JSON parse error - {exc}") from None
        try:
            return loads_bounded(text, max_bytes=MAX_BODY_BYTES)
        except TooLarge as exc:
            raise PayloadTooLarge(str(exc)) from None
        except BadJSON as exc:
            raise ParseError(f"JSON parse error - {exc}") from None
