"""Who may download research exports: members of the "researcher" group, and staff (docs/design.md §6.6)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from django.contrib import auth
from rest_framework.permissions import BasePermission
from rest_framework.request import Request

if TYPE_CHECKING:
    from rest_framework.views import APIView

RESEARCHER_GROUP = "researcher"  # created by migration research/0001; granted in the admin


def user_is_researcher(user: Any) -> bool:
    """An active Django user in the researcher group, or staff / superuser."""
    if user is None or not getattr(user, "is_authenticated", False) or not user.is_active:
        return False
    return bool(user.is_staff or user.is_superuser or user.groups.filter(name=RESEARCHER_GROUP).exists())


class IsResearcher(BasePermission):
    """The request's player (bearer token or session) has an account that is a researcher's.

    A staff member signed in to the admin in the same browser also qualifies.  Guests,
    plain accounts and anonymous requests are refused.
    """

    message = (
        "research exports need the researcher permission: an account in the 'researcher' group "
        "(granted in the admin), signed in or sending its API token as 'Authorization: Bearer <token>'"
    )

    def has_permission(self, request: Request, view: APIView) -> bool:
        player = request.user  # a Player, or None (DRF's UNAUTHENTICATED_USER)
        if player is not None and user_is_researcher(getattr(player, "user", None)):
            return True
        # DRF puts the player in the Django request's `user`: read the session's own account.
        session = getattr(request._request, "session", None)
        return session is not None and user_is_researcher(auth.get_user(request._request))
