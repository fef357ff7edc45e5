"""Who a request comes from, for throttles and the login lockout, and the per-player throttles.

One rule for the client's address everywhere (`client_ip`): DRF's, with
``settings.NUM_PROXIES`` trusted proxies.  With none (the default) ``X-Forwarded-For`` is
ignored: anyone can write it, so trusting it lets one client pass for many.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.http import HttpRequest
from rest_framework.request import Request
from rest_framework.throttling import BaseThrottle, SimpleRateThrottle

if TYPE_CHECKING:
    from rest_framework.views import APIView


def client_ip(request: HttpRequest) -> str | None:
    """The client's address: REMOTE_ADDR, or X-Forwarded-For's as the trusted proxies saw it."""
    return BaseThrottle().get_ident(request) or None  # type: ignore[arg-type]  # it reads only `META`, which Django's request has


class PlayerRateThrottle(SimpleRateThrottle):
    """At most the scope's rate per player (``DEFAULT_THROTTLE_RATES[scope]``); no player, no limit here.

    The views that use it need a player anyway and refuse without one.
    """

    def get_cache_key(self, request: Request, view: APIView) -> str | None:
        player = getattr(request, "user", None)
        if player is None or getattr(player, "pk", None) is None:
            return None
        return self.cache_format % {"scope": self.scope, "ident": f"player-{player.pk}"}


class HintThrottle(PlayerRateThrottle):
    scope = "hint"


class AnalysisThrottle(PlayerRateThrottle):
    scope = "analysis"


class TokenThrottle(PlayerRateThrottle):
    scope = "tokens"


class EstimateThrottle(PlayerRateThrottle):
    scope = "export_estimate"


class SessionGuestThrottle(SimpleRateThrottle):
    """Guests made for browsers on their first action, per client address.

    Checked while the request is being authenticated, so it never asks who the user is.
    """

    scope = "guest_session"

    def get_cache_key(self, request: Request, view: APIView) -> str | None:
        return self.cache_format % {"scope": self.scope, "ident": self.get_ident(request)}


class AddressRateThrottle(SimpleRateThrottle):
    """At most the scope's rate per client address, for the site's forms (sign-ups, reset mails)."""

    def __init__(self, scope: str) -> None:
        self.scope = scope
        super().__init__()

    def get_cache_key(self, request: Request, view: APIView) -> str | None:
        return self.cache_format % {"scope": self.scope, "ident": self.get_ident(request)}


def address_allowed(request: HttpRequest, scope: str) -> bool:
    """Whether a form post from this client address is within ``DEFAULT_THROTTLE_RATES[scope]``; counts it."""
    return AddressRateThrottle(scope).allow_request(request, None)  # type: ignore[arg-type]  # by address: neither the DRF request nor a view is read
