"""Sockets from browsers come from the page's own origin (the ASGI application wires it in front of every socket)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

from asgiref.typing import ASGIReceiveCallable, ASGISendCallable
from channels.security.websocket import OriginValidator, WebsocketDenier
from django.conf import settings
from django.http.request import split_domain_port, validate_host
from django.utils.http import is_same_domain

if TYPE_CHECKING:
    from channels.consumer import _ChannelScope


class BrowserOriginValidator(OriginValidator):
    """Browsers open sockets only from the page's own origin: no cross-site socket rides a session cookie.

    The socket's own origin is the scheme (http for ws, https for wss), host and port of its
    Host header, when that host is one of `allowed_hosts`.  Another port on the same host is
    another origin (another site, maybe anyone's), as is another allowed host name.  Django's
    CSRF_TRUSTED_ORIGINS adds origins, as for its CSRF check (e.g. a TLS proxy's https origin
    in front of a plain ws socket).  Clients without an Origin header are not browsers; they
    authenticate with a token.
    """

    async def __call__(self, scope: _ChannelScope, receive: ASGIReceiveCallable, send: ASGISendCallable) -> Any:
        origin = _header(scope, b"origin")
        if origin is None or self.same_origin(origin, scope):
            return await self.application(scope, receive, send)  # type: ignore[call-arg,misc]  # an ASGI 3 app (the stubs allow ASGI 2 too)
        return await WebsocketDenier()(scope, receive, send)

    def same_origin(self, origin: str, scope: Mapping[str, Any]) -> bool:
        sent = _origin(origin)
        if sent is None:
            return False  # "null" (a sandboxed page, a file), or not an origin at all
        host = _header(scope, b"x-forwarded-host") if settings.USE_X_FORWARDED_HOST else None
        host = (host or _header(scope, b"host") or "").split(",")[0].strip()
        domain, _ = split_domain_port(host)
        allowed = self.allowed_origins
        if domain and validate_host(domain, allowed) and sent == _origin(f"{_scheme(scope)}://{host}"):  # type: ignore[arg-type]  # ALLOWED_HOSTS: strings
            return True
        return any(_trusted(sent, pattern) for pattern in settings.CSRF_TRUSTED_ORIGINS)


def _scheme(scope: Mapping[str, Any]) -> str:
    """The scheme of the page the socket belongs to: https for wss, or when a TLS proxy says so.

    daphne leaves a socket's scope without the scheme a proxy reports (X-Forwarded-Proto),
    even with --proxy-headers; the header is trusted here because a page cannot set it, and
    the page is the one thing this check is about.
    """
    forwarded = (_header(scope, b"x-forwarded-proto") or "").split(",")[0].strip().lower()
    return "https" if scope.get("scheme") == "wss" or forwarded in ("https", "wss") else "http"


def _header(scope: Mapping[str, Any], name: bytes) -> str | None:
    for key, value in scope.get("headers", []):
        if key == name:
            return str(value.decode("latin-1"))
    return None


def _origin(text: str) -> tuple[str, str, int] | None:
    """(scheme, host, port) of an origin, the port explicit; None when it is not an http(s) origin."""
    try:
        parts = urlsplit(text.strip().lower())
        port = parts.port
    except ValueError:
        return None
    if parts.scheme not in ("http", "https") or not parts.hostname or parts.path not in ("", "/"):
        return None
    return parts.scheme, parts.hostname, port or (443 if parts.scheme == "https" else 80)


def _trusted(sent: tuple[str, str, int], pattern: str) -> bool:
    """Whether an origin is CSRF_TRUSTED_ORIGINS' `pattern` (``https://*.example.com`` for subdomains)."""
    wildcard = "://*." in pattern
    trusted = _origin(pattern.replace("://*.", "://", 1))
    if trusted is None or sent[0] != trusted[0] or sent[2] != trusted[2]:
        return False
    return is_same_domain(sent[1], "." + trusted[1]) if wildcard else sent[1] == trusted[1]
