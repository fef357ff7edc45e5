"""Consent: whether a person's games go into research exports and into training our bots.

Each person decides, separately for the two uses (docs/exports.md, "Consent"): an account on
its account page, a guest in the notice every page shows them until they answer (kept on the
guest's player, so it follows them into the account they may sign up for).  Both are off
until the person turns them on: the ethics the site follows asks for disclosure and consent,
and a box ticked in advance is not consent.  A match is used only when every person seated in
it agreed to that use (`server.research.selectors.matches_query`); bots need nobody's consent.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

from django.db import transaction
from django.utils import timezone

from server.players.models import Player

Purpose = Literal["research", "training"]
PURPOSES: tuple[Purpose, ...] = ("research", "training")
DEFAULT = False  # for both purposes: nothing is used until the person says yes
_FIELDS: dict[Purpose, str] = {"research": "consent_research", "training": "consent_training"}


@dataclass(frozen=True)
class Consent:
    """A person's two choices, and whether they ever made them."""

    research: bool = DEFAULT
    training: bool = DEFAULT
    answered: bool = False

    def to_json(self) -> dict[str, Any]:
        return {"research": self.research, "training": self.training, "answered": self.answered}


def consent_of(player: Player) -> Consent:
    return Consent(player.consent_research, player.consent_training, player.consent_answered_at is not None)


@transaction.atomic
def consent_set(player: Player, research: bool, training: bool) -> Consent:
    """Record the person's choice for both uses; later exports and training data follow it.

    What was exported before stays with whoever downloaded it: the choice acts from now on.
    """
    player.consent_research, player.consent_training = research, training
    player.consent_answered_at = timezone.now()
    player.save(update_fields=["consent_research", "consent_training", "consent_answered_at"])
    return consent_of(player)


def asks_for_consent(player: Player | None) -> bool:
    """Whether a page shows the consent notice: to guests who have not answered it yet.

    Accounts answer on their account page (and signing up keeps a guest's answer)."""
    return player is not None and player.is_guest and player.consent_answered_at is None


def consent_field(purpose: Purpose) -> str:
    """The player's field that holds their answer for `purpose` (for queries of other apps)."""
    return _FIELDS[purpose]
