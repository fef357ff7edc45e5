"""Logins nobody can guess: failures counted per account, per address, and forgiven on known devices.

django-axes records each failed login in the database (so every web process agrees) under
a *key* and the client's address.  The key is the account the typed name or e-mail
address resolves to (`login_key`): ``zoe``, ``ZOE``, ``Z0E``, ``Ｚｏｅ`` and a confirmed
address of Zoe's are one key, so spreading guesses over spellings gains nothing.  A name
no account has is keyed by its look all the same, so a lockout says nothing about who exists.

Three limits, each over the last ``AXES_COOLOFF_TIME`` hours (`LoginLockoutHandler.is_locked`):

- one account from one address: ``LOGIN_FAILURE_LIMIT`` failures (staff and the admin's
  login: ``STAFF_LOGIN_FAILURE_LIMIT``);
- one account from everywhere: ``LOGIN_ACCOUNT_FAILURE_LIMIT`` (staff:
  ``STAFF_ACCOUNT_FAILURE_LIMIT``), which stops guessing from many addresses;
- one address over every account: ``LOGIN_ADDRESS_FAILURE_LIMIT``, which stops trying one
  password on many accounts.

The last two would hand a stranger a way to lock anyone out, so they never apply to a
*known device*: a browser holding a signed cookie saying it logged in to that account before
(set on every login, `KnownDeviceMiddleware`).  A password reset also clears the
account's failures and makes the browser known.  A device cookie rather than past
addresses: people's addresses change (phones, ISPs re-assigning them), and an address is
shared by everyone behind one NAT, the attacker included.

axes refuses an ``authenticate()`` without a request; those come from code (a shell, the
test client's ``login()``), never from someone guessing a password over HTTP, so
`LoginLockoutBackend` lets them through to the password check.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from axes.attempts import get_cool_off_threshold
from axes.backends import AxesStandaloneBackend
from axes.handlers.database import AxesDatabaseHandler
from axes.helpers import get_client_username
from axes.models import AccessAttempt
from django.conf import settings
from django.contrib.auth.models import User
from django.core import signing
from django.db.models import Sum
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from server.players.backends import user_for_login
from server.players.models import Player
from server.players.names import name_skeleton

KEY_CHARS = 255  # axes' username column
DEVICE_SALT = "plyground.known-device"
DEVICE_ACCOUNTS = 10  # accounts a browser remembers (a family computer, a club's laptop)

# Why a login is paused: the lockout page says which, and what still works.
PAIR, ACCOUNT, ADDRESS = "pair", "account", "address"


def account_key(user: User) -> str:
    """The lockout key of an account: its name's look, as the one-account-per-look constraint has it."""
    player = Player.objects.filter(user=user).only("name_key").first()
    key = player.name_key if player is not None and player.name_key else name_skeleton(user.get_username())
    return key[:KEY_CHARS]


def _resolved(request: HttpRequest | None, identifier: str) -> tuple[str, User | None]:
    """The key and the account (if any) a typed name or address stands for, once per request."""
    known: dict[str, tuple[str, User | None]] = getattr(request, "_login_accounts", {})
    if identifier not in known:
        user = user_for_login(identifier) if identifier else None
        if user is not None:
            key = account_key(user)
        else:  # nobody's: keyed the same way, so the lockout does not tell who exists
            key = identifier.casefold() if "@" in identifier else name_skeleton(identifier)
        known[identifier] = (key[:KEY_CHARS], user)
        if request is not None:
            request._login_accounts = known  # type: ignore[attr-defined]  # the site's (or axes') own attribute on the request
    return known[identifier]


def _identifier(request: HttpRequest | None, credentials: dict[str, Any] | None) -> str:
    if credentials and credentials.get("username") is not None:
        return str(credentials["username"]).strip()
    return str(request.POST.get("username", "")).strip() if request is not None else ""


def login_key(request: HttpRequest | None, credentials: dict[str, Any] | None = None) -> str:
    """``AXES_USERNAME_CALLABLE``: every spelling of one account is one key."""
    return _resolved(request, _identifier(request, credentials))[0]


def _strict(request: HttpRequest | None, credentials: dict[str, Any] | None) -> bool:
    """Staff accounts, and anyone at the admin's login, get the strictest limits."""
    if request is not None and request.path.startswith(f"/{settings.ADMIN_PATH}"):
        return True
    user = _resolved(request, _identifier(request, credentials))[1]
    return bool(user is not None and user.is_staff)


def failure_limit(request: HttpRequest | None, credentials: dict[str, Any] | None = None) -> int:
    """``AXES_FAILURE_LIMIT``: failures of one account from one address before it is paused there."""
    return settings.STAFF_LOGIN_FAILURE_LIMIT if _strict(request, credentials) else settings.LOGIN_FAILURE_LIMIT


# --- known devices ------------------------------------------------------------------


def known_accounts(request: HttpRequest) -> list[int]:
    """The users this browser has logged in as (newest first), from its signed cookie."""
    value = request.COOKIES.get(settings.KNOWN_DEVICE_COOKIE)
    if not value:
        return []
    try:
        ids = signing.loads(value, salt=DEVICE_SALT, max_age=settings.KNOWN_DEVICE_DAYS * 86400)
    except signing.BadSignature:
        return []
    return [i for i in ids if isinstance(i, int)] if isinstance(ids, list) else []


def remember_device(request: HttpRequest, user: User) -> None:
    """Mark this browser as one `user` logs in from (the cookie is set on the way out)."""
    request.known_device_user = user.pk  # type: ignore[attr-defined]  # the site's (or axes') own attribute on the request


def remember_device_on_login(sender: Any, request: HttpRequest | None, user: User, **kwargs: Any) -> None:
    """``user_logged_in``: the site's login, the admin's, a sign-up."""
    if request is not None:
        remember_device(request, user)


class KnownDeviceMiddleware:
    """Sets the known-device cookie on the response to a login (`remember_device`)."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        user_id = getattr(request, "known_device_user", None)
        if user_id is not None:
            ids = [user_id, *(i for i in known_accounts(request) if i != user_id)][:DEVICE_ACCOUNTS]
            response.set_cookie(
                settings.KNOWN_DEVICE_COOKIE,
                signing.dumps(ids, salt=DEVICE_SALT),
                max_age=settings.KNOWN_DEVICE_DAYS * 86400,
                secure=settings.SESSION_COOKIE_SECURE,
                httponly=True,
                samesite="Lax",
            )
        return response


def forget_failures(user: User) -> None:
    """After a password reset: the account's failures no longer count, from anywhere."""
    AccessAttempt.objects.filter(username=account_key(user)).delete()


# --- axes ---------------------------------------------------------------------------


class LoginLockoutHandler(AxesDatabaseHandler):  # type: ignore[misc]  # django-axes is untyped
    """axes' database handler with the three limits of this module's docstring."""

    def is_locked(self, request: HttpRequest, credentials: dict[str, Any] | None = None) -> bool:
        reason = self.lock_reason(request, credentials)
        request.login_lock_reason = reason  # type: ignore[attr-defined]  # the site's (or axes') own attribute on the request
        return reason is not None

    def lock_reason(self, request: HttpRequest, credentials: dict[str, Any] | None = None) -> str | None:
        key = get_client_username(request, credentials)
        address = request.axes_ip_address  # type: ignore[attr-defined]  # the site's (or axes') own attribute on the request
        recent = AccessAttempt.objects.filter(attempt_time__gte=get_cool_off_threshold(request))

        def failures(**where: Any) -> int:
            return recent.filter(**where).aggregate(n=Sum("failures_since_start"))["n"] or 0

        if failures(username=key, ip_address=address) >= failure_limit(request, credentials):
            return PAIR
        user = _resolved(request, _identifier(request, credentials))[1]
        if user is not None and user.pk in known_accounts(request):
            return None
        strict = _strict(request, credentials)
        account_limit = settings.STAFF_ACCOUNT_FAILURE_LIMIT if strict else settings.LOGIN_ACCOUNT_FAILURE_LIMIT
        if failures(username=key) >= account_limit:
            return ACCOUNT
        if failures(ip_address=address) >= settings.LOGIN_ADDRESS_FAILURE_LIMIT:
            return ADDRESS
        return None

    def user_login_failed(
        self, sender: Any, credentials: dict[str, Any], request: HttpRequest | None = None, **kwargs: Any
    ) -> None:
        super().user_login_failed(sender, credentials, request, **kwargs)
        # axes shows its lockout page only when the pair's count is reached; a login refused by
        # the account's or the address's limit gets it too, rather than "wrong password".
        if request is None or getattr(request, "axes_locked_out", False):
            return
        if self.is_locked(request, credentials):
            request.axes_locked_out = True  # type: ignore[attr-defined]  # the site's (or axes') own attribute on the request
            request.axes_credentials = credentials  # type: ignore[attr-defined]  # the site's (or axes') own attribute on the request


def lockout_response(request: HttpRequest, *args: Any) -> HttpResponse:
    """``AXES_LOCKOUT_CALLABLE``: the site's page (429), saying what is paused and what still works."""
    context = {
        "reason": getattr(request, "login_lock_reason", None) or PAIR,
        "cooloff_hours": settings.AXES_COOLOFF_TIME,
        "failure_limit": failure_limit(request),
    }
    return render(request, settings.AXES_LOCKOUT_TEMPLATE, context, status=settings.AXES_HTTP_RESPONSE_CODE)


class LoginLockoutBackend(AxesStandaloneBackend):  # type: ignore[misc]  # django-axes is untyped
    def authenticate(
        self, request: HttpRequest | None, username: str | None = None, password: str | None = None, **kwargs: Any
    ) -> User | None:
        if request is None:
            return None
        user: User | None = super().authenticate(request, username=username, password=password, **kwargs)
        return user
