"""Path converters: the ids in URLs are ids a row can have, so any other number is a 404, not a 500."""

from __future__ import annotations

MAX_ID = 2**63 - 1  # the largest BigAutoField (a signed 64-bit integer in every database we run on)


class IdConverter:
    """``<id:match_id>``: a decimal id from 0 to `MAX_ID`; a larger number matches no URL (404)."""

    regex = "[0-9]{1,19}"

    def to_python(self, value: str) -> int:
        number = int(value)
        if number > MAX_ID:
            raise ValueError(f"{value} is beyond any id")  # Django: the pattern does not match
        return number

    def to_url(self, value: int) -> str:
        return str(int(value))
