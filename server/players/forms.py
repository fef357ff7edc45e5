"""The account forms: sign up, log in, the account page (docs/design.md §5).

Passwords are checked by Django's validators (settings.AUTH_PASSWORD_VALIDATORS), names by
`accounts.check_account_name`: one rule each, for every form that takes one.  No form says
whether an e-mail address is in use: the address is mailed instead (server/players/emails.py).
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib.auth import get_user_model, password_validation
from django.contrib.auth.forms import AuthenticationForm

from server.players import accounts
from server.players.models import Player
from server.players.names import ACCOUNT_NAME_MAX, ACCOUNT_NAME_MIN

NAME_HELP = (
    f"{ACCOUNT_NAME_MIN} to {ACCOUNT_NAME_MAX} letters, digits, spaces, - or _. "
    "Names that claim to be an AI or a bot are kept for the computer players."
)


def name_field() -> forms.CharField:
    return forms.CharField(
        label="Display name",
        max_length=ACCOUNT_NAME_MAX,
        help_text=NAME_HELP,
        widget=forms.TextInput(attrs={"autocomplete": "username", "autocapitalize": "none", "spellcheck": "false"}),
    )


def email_field(required: bool = True) -> forms.EmailField:
    return forms.EmailField(
        label="E-mail address",
        required=required,
        help_text="For resetting your password and logging in; never shown to anyone. "
        "We mail it a link: it is yours once you follow it.",
        widget=forms.EmailInput(attrs={"autocomplete": "email"}),
    )


class SignupForm(forms.Form):
    name = name_field()
    email = email_field()
    password1 = forms.CharField(
        label="Password",
        strip=False,
        widget=forms.PasswordInput(attrs={"autocomplete": "new-password"}),
        help_text=password_validation.password_validators_help_text_html(),
    )
    password2 = forms.CharField(
        label="Password again",
        strip=False,
        widget=forms.PasswordInput(attrs={"autocomplete": "new-password"}),
    )

    def __init__(self, *args: Any, guest: Player | None = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.guest = guest

    def clean_name(self) -> str:
        name: str = self.cleaned_data["name"]
        accounts.check_account_name(name, self.guest)
        return name

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        assert data is not None  # Django's forms answer their cleaned data
        first, second = data.get("password1"), data.get("password2")
        if first and second and first != second:
            self.add_error("password2", "the two passwords differ")
        elif first:
            user = get_user_model()(username=data.get("name", ""), email=data.get("email", ""))
            try:
                password_validation.validate_password(first, user)
            except forms.ValidationError as error:
                self.add_error("password1", error)
        return data


class LoginForm(AuthenticationForm):
    """Django's login form (and so django-axes' lockout), asking for a name or an e-mail address."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["username"].label = "Display name or e-mail"
        self.fields["username"].max_length = 254  # type: ignore[attr-defined]  # a CharField
        self.fields["username"].widget.attrs.update({"autocomplete": "username", "autocapitalize": "none"})
        self.error_messages["invalid_login"] = "That name or e-mail and password do not match an account."


class AccountForm(forms.Form):
    """A new name, and maybe a new address (attached once confirmed; blank keeps the one there is)."""

    name = name_field()
    email = email_field(required=False)

    def __init__(self, *args: Any, player: Player, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.player = player

    def clean_name(self) -> str:
        name: str = self.cleaned_data["name"]
        if name != self.player.name:
            accounts.check_account_name(name, self.player)
        return name
