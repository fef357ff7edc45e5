"""E-mail addresses: attached to an account only once their owner follows a signed link.

A sign-up or the account page never says whether an address is in use: both answer "we
have sent a message to it".  A free address gets a link that attaches it to the account
(`email_confirm`); an address another account has gets a note saying someone tried to use
it, and nothing changes.  So ``User.email`` only ever holds an address its owner
confirmed (those of accounts made before confirmation count as confirmed: they stay as
they were), and logging in by e-mail and password resets use only those.

The link carries the account, the address and the account's address when it was sent, so
it works once (the address it replaces is gone after) and for ``EMAIL_CONFIRM_TIMEOUT``.
"""

from __future__ import annotations

import logging
import smtplib

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.models import User
from django.core import signing
from django.core.exceptions import ValidationError
from django.core.mail import send_mail
from django.db import transaction
from django.http import HttpRequest
from django.template.loader import render_to_string
from django.urls import reverse

from server.players.accounts import email_taken

SALT = "plyground.email-confirm"
log = logging.getLogger("plyground.emails")


def email_confirmation_send(request: HttpRequest, user: User, address: str) -> None:
    """Mail `address` a link attaching it to `user`, or, when another account has it, a note."""
    context = {"user": user, "address": address, "site": request.build_absolute_uri("/")}
    owner = get_user_model().objects.filter(email__iexact=address).exclude(pk=user.pk).first()
    if owner is not None:
        context["user_with_address"] = owner.get_username()
        context["login"] = request.build_absolute_uri(reverse("frontend:login"))
        context["reset"] = request.build_absolute_uri(reverse("frontend:password_reset"))
        _send("email_in_use", address, context)
        return
    token = signing.dumps({"user": user.pk, "email": address, "was": user.email}, salt=SALT, compress=True)
    context["link"] = request.build_absolute_uri(reverse("frontend:email_confirm", args=[token]))
    context["days"] = settings.EMAIL_CONFIRM_TIMEOUT // 86400
    _send("email_confirm", address, context)


def _send(template: str, address: str, context: dict[str, object]) -> None:
    """Mail one message; a mail server that fails is logged, and the page says the same as ever
    (the account is made already; a new address can be asked for again on the account page)."""
    subject = render_to_string(f"frontend/account/{template}_subject.txt", context).strip()
    body = render_to_string(f"frontend/account/{template}_email.txt", context)
    try:
        send_mail(subject, body, None, [address])
    except (smtplib.SMTPException, OSError):
        log.exception("could not mail %s", template)


def email_to_confirm(token: str, lock: bool = False) -> tuple[User, str]:
    """The account and address a link names, or ValidationError saying why it no longer works.

    `lock`: the account's row is locked (inside a transaction), so two clicks attach once.
    """
    try:
        data = signing.loads(token, salt=SALT, max_age=settings.EMAIL_CONFIRM_TIMEOUT)
    except signing.SignatureExpired as error:
        raise ValidationError("This link is too old: change your address again to get a new one.", "expired") from error
    except signing.BadSignature as error:
        raise ValidationError("This link is not one we sent: copy it whole from the e-mail.", "bad_link") from error
    users = get_user_model().objects.select_for_update() if lock else get_user_model().objects
    user = users.filter(pk=data.get("user")).first()
    if user is None or user.email != data.get("was"):
        raise ValidationError("This link was used already, or a newer one replaced it.", "used")
    return user, data["email"]


@transaction.atomic
def email_confirm(token: str) -> User:
    """Attach the link's address to its account (ValidationError when it no longer may)."""
    user, address = email_to_confirm(token, lock=True)
    if email_taken(address, user.pk):
        raise ValidationError("Another account confirmed this address first.", "email_taken")
    user.email = address
    user.save(update_fields=["email"])
    return user
