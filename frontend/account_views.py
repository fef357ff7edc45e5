"""The account pages: sign up, log in and out, the account page, passwords; people's profiles.

Plain Django forms in the site's own templates (frontend/templates/frontend/account/).
Signing up turns the browser's guest into the account (server/players/accounts.py);
logging in makes the browser the account's player.
"""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth import login as auth_login
from django.contrib.auth import views as auth_views
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.db import transaction
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse, reverse_lazy
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.csrf import ensure_csrf_cookie

from frontend.views import _player
from games import registry
from server.agents import measuring
from server.matches.models import Match
from server.players import accounts, emails, history, lockout
from server.players.forms import AccountForm, LoginForm, SignupForm
from server.players.models import Player
from server.players.throttles import address_allowed
from server.research.permissions import user_is_researcher

BACKEND = "server.players.backends.NameOrEmailBackend"


def _context(request: HttpRequest, page: str, **extra: Any) -> dict[str, Any]:
    player = _player(request)
    return {"player": player, "page": {"player": player, "page": page}, **extra}


def _next_url(request: HttpRequest, default: str) -> str:
    wanted = request.POST.get("next") or request.GET.get("next") or ""
    if url_has_allowed_host_and_scheme(wanted, allowed_hosts={request.get_host()}, require_https=request.is_secure()):
        return wanted
    return default


def _running_matches(player: Player | None) -> int:
    if player is None:
        return 0
    live = (Match.Status.WAITING, Match.Status.ACTIVE, Match.Status.ADJOURNED)
    return Match.objects.filter(seats__player=player, status__in=live).count()


@ensure_csrf_cookie
def signup(request: HttpRequest) -> HttpResponse:
    player = getattr(request, "player", None)
    if player is not None and not player.is_guest:
        return redirect("frontend:account")
    guest = player if player is not None and player.is_guest else None
    initial = {"name": guest.name} if guest else {}
    form = SignupForm(request.POST or None, guest=guest, initial=initial)
    if request.method == "POST" and not address_allowed(request, "signup"):
        return _too_many(request)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            with transaction.atomic():
                user = accounts.account_create(data["name"], "", data["password1"], guest=guest)
        except ValidationError as error:
            form.add_error("name", error)
        else:
            auth_login(request, user, backend=BACKEND)
            accounts.session_take_player(request.session, user)
            emails.email_confirmation_send(request, user, data["email"])
            messages.success(request, f"Welcome, {data['name']}: your account is ready. {_mailed(data['email'])}")
            return redirect(_next_url(request, reverse("frontend:profile", args=[data["name"]])))
    return render(
        request,
        "frontend/account/signup.html",
        _context(request, "signup", form=form, guest=guest, next=_next_url(request, "")),
    )


class LoginView(auth_views.LoginView):
    template_name = "frontend/account/login.html"
    authentication_form = LoginForm
    redirect_authenticated_user = True

    def form_valid(self, form):
        response = super().form_valid(form)
        accounts.session_take_player(self.request.session, form.get_user())
        return response

    def get_context_data(self, **kwargs):
        guest = getattr(self.request, "player", None)
        guest = guest if guest is not None and guest.is_guest else None
        extra = _context(self.request, "login", guest=guest, guest_running=_running_matches(guest))
        return {**super().get_context_data(**kwargs), **extra}


class LogoutView(auth_views.LogoutView):
    """POST only (Django's rule): a link or a prefetch cannot log anyone out."""


@login_required
@ensure_csrf_cookie
def account(request: HttpRequest) -> HttpResponse:
    player = accounts.account_player(request.user)
    form = AccountForm(request.POST or None, player=player, initial={"name": player.name, "email": request.user.email})
    if request.method == "POST" and form.is_valid():
        email = form.cleaned_data["email"]
        new_email = bool(email) and email.casefold() != request.user.email.casefold()
        if new_email and not address_allowed(request, "email_change"):
            return _too_many(request)
        try:
            with transaction.atomic():
                if form.cleaned_data["name"] != player.name:
                    accounts.account_rename(player, form.cleaned_data["name"])
        except ValidationError as error:
            form.add_error("name", error)
        else:
            if new_email:
                emails.email_confirmation_send(request, request.user, email)
            messages.success(request, f"Saved. {_mailed(email)}" if new_email else "Saved.")
            return redirect("frontend:account")
    context = _context(request, "account", form=form, is_researcher=user_is_researcher(request.user))
    return render(request, "frontend/account/account.html", context)


def _mailed(address: str) -> str:
    """What a sign-up or a new address is told, whether or not the address is in use already."""
    return f"We have sent a message to {address}: follow its link to make the address yours."


@ensure_csrf_cookie
def email_confirm(request: HttpRequest, token: str) -> HttpResponse:
    """A link from a confirmation mail: shows what it attaches, and attaches it on POST.

    A POST, not the link itself: mail scanners open links, and only the owner should confirm.
    """
    try:
        user, address = emails.email_to_confirm(token)
        if request.method == "POST":
            emails.email_confirm(token)
            messages.success(request, f"{address} is now your account's address.")
            return redirect("frontend:account" if request.user.is_authenticated else "frontend:login")
    except ValidationError as error:
        context = _context(request, "email_confirm", error=error.messages[0])
        return render(request, "frontend/account/email_confirm.html", context, status=400)
    context = _context(request, "email_confirm", address=address, account_name=user.get_username())
    return render(request, "frontend/account/email_confirm.html", context)


def _auth_page(view, page: str, **kwargs):
    """A view of django.contrib.auth in the site's template and with its header."""

    class Page(view):
        def get_context_data(self, **context):
            return {**super().get_context_data(**context), **_context(self.request, page)}

    return Page.as_view(**kwargs)


password_change = _auth_page(
    auth_views.PasswordChangeView,
    "password_change",
    template_name="frontend/account/password_change.html",
    success_url=reverse_lazy("frontend:password_change_done"),
)
password_change_done = _auth_page(
    auth_views.PasswordChangeDoneView,
    "password_change_done",
    template_name="frontend/account/password_change_done.html",
)


class PasswordResetView(auth_views.PasswordResetView):
    """Django's, with at most ``password_reset`` mails asked for per client address."""

    def post(self, request, *args, **kwargs):
        if not address_allowed(request, "password_reset"):
            return _too_many(request)
        return super().post(request, *args, **kwargs)


def _too_many(request: HttpRequest) -> HttpResponse:
    return render(request, "frontend/account/too_many.html", _context(request, "too_many"), status=429)


password_reset = _auth_page(
    PasswordResetView,
    "password_reset",
    template_name="frontend/account/password_reset.html",
    email_template_name="frontend/account/password_reset_email.txt",
    subject_template_name="frontend/account/password_reset_subject.txt",
    success_url=reverse_lazy("frontend:password_reset_done"),
)
password_reset_done = _auth_page(
    auth_views.PasswordResetDoneView, "password_reset_done", template_name="frontend/account/password_reset_done.html"
)


class PasswordResetConfirmView(auth_views.PasswordResetConfirmView):
    """Django's; a reset also ends the account's login pause and makes this browser a known one.

    Whoever follows the link owns the mailbox, so the account's failed logins (a guesser's,
    server/players/lockout.py) no longer hold them back here or anywhere.
    """

    def form_valid(self, form):
        response = super().form_valid(form)
        lockout.forget_failures(form.user)
        lockout.remember_device(self.request, form.user)
        return response


password_reset_confirm = _auth_page(
    PasswordResetConfirmView,
    "password_reset_confirm",
    template_name="frontend/account/password_reset_confirm.html",
    success_url=reverse_lazy("frontend:password_reset_complete"),
)
password_reset_complete = _auth_page(
    auth_views.PasswordResetCompleteView,
    "password_reset_complete",
    template_name="frontend/account/password_reset_complete.html",
)


@ensure_csrf_cookie
def profile(request: HttpRequest, name: str) -> HttpResponse:
    """A person's page: results per game and per bot, and the match history (filters in the query)."""
    person = history.player_by_name(name)
    if person is None:
        raise Http404(f"nobody is called {name!r}")
    wanted = _history_filter(request)
    try:
        number = max(1, int(request.GET.get("page") or 1))
    except ValueError:
        number = 1
    page = history.history_page(person, wanted, number) or history.history_page(person, wanted, 1)
    entries = [history.history_entry(m) for m in page.object_list]
    return render(
        request,
        "frontend/account/profile.html",
        _context(
            request,
            "profile",
            person=person,
            profile=history.profile_json(person),
            entries=entries,
            history_page=page,
            wanted=wanted,
            games=[(g.id, g.name) for g in registry.all()],
            game_names={g.id: g.name for g in registry.all()},
            # A challenge from the page seats the person and the bot: games for two.  (Games for
            # more take house bots for the other seats, named through the API: docs/bots.md.)
            challenge_seats={g.id: [seat.name for seat in g.spec.seats] for g in registry.all() if g.num_players == 2},
            measured=[{**m, "name": registry.get(m["game"]).name} for m in measuring.measured_ratings(person.pk)]
            if person.bot_owner_id
            else [],
            query=_query_without_page(request),
            is_me=getattr(request, "player", None) is not None and request.player.pk == person.pk,
        ),
    )


def _history_filter(request: HttpRequest) -> history.HistoryFilter:
    game = request.GET.get("game") or None
    result = request.GET.get("result") or None
    opponent = (request.GET.get("opponent") or "").strip()[:60] or None
    return history.HistoryFilter(
        game if game in {g.id for g in registry.all()} else None,
        opponent,
        result if result in history.RESULTS else None,
    )


def _query_without_page(request: HttpRequest) -> str:
    query = request.GET.copy()
    query.pop("page", None)
    return query.urlencode()
