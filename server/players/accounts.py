"""Accounts: a guest who signs up keeps its player; names unique among accounts by their look.

An account is Django's ``User`` linked one-to-one to a `Player` (docs/design.md §5).  The
player is what matches, seats and tokens point at, so a guest who signs up becomes an
account *in place*: same player, same matches, same seats in running ones.  The user's
``username`` is the display name (kept in step on a rename), so Django's password
validators compare a password with it.
"""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.contrib.auth.models import User
from django.contrib.sessions.backends.base import SessionBase
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction

from server.players.models import Player
from server.players.names import name_skeleton, validate_account_name
from server.players.selectors import SESSION_KEY

NAME_TAKEN = "this name, or one that looks like it, belongs to another account"


def name_taken(name: str, player_id: int | None = None) -> bool:
    """Whether an account other than `player_id`'s has a name that looks like `name`."""
    accounts = Player.objects.filter(is_guest=False, name_key=name_skeleton(name)).exclude(pk=player_id)  # type: ignore[misc]  # pk=None (no one to leave out) matches no row: nothing excluded
    users = get_user_model().objects.filter(username__iexact=name)
    if player_id is not None:
        users = users.exclude(player__pk=player_id)
    return accounts.exists() or users.exists()


def email_taken(email: str, user_id: int | None = None) -> bool:
    return get_user_model().objects.filter(email__iexact=email).exclude(pk=user_id).exists()  # type: ignore[misc]  # pk=None (no one to leave out) matches no row: nothing excluded


def check_account_name(name: str, player: Player | None = None) -> None:
    """A display name `player` may take (ValidationError otherwise): well formed, not a bot's, free."""
    own_guest_name = player.name if player is not None and player.is_guest else None
    validate_account_name(name, own_guest_name=own_guest_name)
    if name_taken(name, player.pk if player is not None else None):
        raise ValidationError(NAME_TAKEN, code="name_taken")


@transaction.atomic
def account_create(name: str, email: str, password: str, guest: Player | None = None) -> User:
    """A new account named `name`; the browser's `guest`, if any, becomes its player.

    Raises ValidationError when the name is not free (also when another sign-up took it
    in the meantime: the database's constraint is the last word).
    """
    player = Player.objects.select_for_update().filter(pk=guest.pk, is_guest=True).first() if guest else None
    check_account_name(name, player)
    try:
        with transaction.atomic():
            user = get_user_model().objects.create_user(username=name, email=email, password=password)
    except IntegrityError as exc:  # the same username, made in the meantime
        raise ValidationError(NAME_TAKEN, code="name_taken") from exc
    player = player or Player(is_guest=True)
    player.user, player.is_guest, player.name, player.name_key = user, False, name, name_skeleton(name)
    _save_claiming_name(player)
    return user


@transaction.atomic
def account_rename(player: Player, name: str) -> None:
    """Give an account a new display name (its user's username follows)."""
    check_account_name(name, player)
    player.name, player.name_key = name, name_skeleton(name)
    _save_claiming_name(player)
    get_user_model().objects.filter(pk=player.user_id).update(username=name)  # type: ignore[misc]  # an account: it has its user


def _save_claiming_name(player: Player) -> None:
    try:
        with transaction.atomic():
            player.save()
    except IntegrityError as exc:  # two sign-ups for one name at once: the second learns it here
        raise ValidationError(NAME_TAKEN, code="name_taken") from exc


def account_player(user: User) -> Player:
    """The player of an account; a user made outside the site (staff, a shell) gets one on first login."""
    player = Player.objects.filter(user=user).first()
    if player is not None:
        return player
    name = user.get_username()
    key = name_skeleton(name)
    if Player.objects.filter(is_guest=False, name_key=key).exists():
        key = f"{key}#user{user.pk}"  # a staff username that looks like an account's name: its own key
    return Player.objects.create(user=user, is_guest=False, name=name[:40], name_key=key)


def session_take_player(session: SessionBase, user: User) -> Player:
    """After a login: the browser is the account's player from now on.

    A guest the browser was stays as it is, with its matches: its running ones go on under
    the usual rules (a seat gone for the grace loses, a match against bots is adjourned;
    docs/lobby.md).  Signing up instead of logging in is how a guest keeps them.
    """
    player = account_player(user)
    session[SESSION_KEY] = player.pk
    return player
