"""Exports as streamed HTTP responses that hold one chunk at a time, under ASGI (daphne) and WSGI.

Django's ASGI handler buffers a *synchronous* streaming iterator whole before sending
it (``sync_to_async(list)``), which would hold an entire export in memory.  Under ASGI
the chunks are therefore pulled one by one through ``sync_to_async`` (the database
work stays on the request's thread) and handed to the server as they come.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator

from asgiref.sync import sync_to_async
from django.core.handlers.asgi import ASGIRequest
from django.http import HttpRequest, StreamingHttpResponse
from django.utils import timezone

from server.research.filters import ExportFilters
from server.research.formats import FORMATS
from server.research.pseudonyms import Pseudonyms
from server.research.selectors import SCHEMA_VERSION, match_rows


def export_chunks(filters: ExportFilters, fmt: str) -> Iterator[bytes]:
    """The export's bytes, chunk by chunk; the pseudonyms' secret is read now, before any is sent."""
    write, columns, _ = FORMATS[fmt]
    names = Pseudonyms()
    return write(match_rows(filters, columns, order=names.match), names)


async def _pulled(chunks: Iterator[bytes]) -> AsyncIterator[bytes]:
    pull = sync_to_async(next, thread_sensitive=True)
    try:
        while (chunk := await pull(chunks, None)) is not None:  # type: ignore[call-arg]  # next(iterator, default): the stubs see one overload
            yield chunk
    finally:
        close = getattr(chunks, "close", None)
        if close is not None:
            await sync_to_async(close, thread_sensitive=True)()


def export_response(request: HttpRequest, filters: ExportFilters, fmt: str) -> StreamingHttpResponse:
    """A download of the matches `filters` select, as ``jsonl`` or ``csv``."""
    chunks = export_chunks(filters, fmt)
    content_type = FORMATS[fmt].content_type
    content = _pulled(chunks) if isinstance(request, ASGIRequest) else chunks
    response = StreamingHttpResponse(content, content_type=content_type)
    stamp = timezone.now().strftime("%Y%m%dT%H%M%SZ")
    name = "games.jsonl" if fmt == "jsonl" else "moves.csv"
    response["Content-Disposition"] = f'attachment; filename="plyground-{stamp}-{name}"'
    response["X-Export-Schema-Version"] = str(SCHEMA_VERSION)
    response["Cache-Control"] = "no-store"
    response["X-Accel-Buffering"] = "no"  # a proxy in front (nginx) passes chunks on instead of buffering
    return response
