"""A password's strength as a guesser sees it: zxcvbn's estimate, with its advice on refusal.

Django's validators catch short, common, numeric and name-like passwords; they pass
``aaaaaaaaaaaa``, ``qwertyuiopasdf`` or ``Password2024!``, which a guesser tries early.  zxcvbn
estimates how many guesses a password takes (dictionary words, names, keyboard patterns,
repeats, dates, l33t) and scores it 0 to 4; `MIN_SCORE` 3 is "safely unguessable" by its
authors' measure (about 10^8 guesses or more), the level they recommend for sign-up.
"""

from __future__ import annotations

from typing import Any

from django.core.exceptions import ValidationError
from zxcvbn import zxcvbn

MIN_SCORE = 3
# zxcvbn refuses longer input (its matching is quadratic); a password this long that is weak
# in its first 72 characters is weak.
ESTIMATED_CHARS = 72


class StrengthValidator:
    """Refuse a password zxcvbn scores below `min_score`, saying why and what to do instead."""

    def __init__(self, min_score: int = MIN_SCORE) -> None:
        self.min_score = min_score

    def validate(self, password: str, user: Any = None) -> None:
        inputs = [str(getattr(user, field, "") or "") for field in ("username", "email")] if user else []
        estimate = zxcvbn(password[:ESTIMATED_CHARS], user_inputs=[i for i in inputs if i])
        if estimate["score"] >= self.min_score:
            return
        feedback = estimate["feedback"]
        advice = " ".join([feedback["warning"], *feedback["suggestions"]]).strip()
        raise ValidationError(
            "This password is too easy to guess. %(advice)s",
            code="password_too_weak",
            params={"advice": advice or "Add another word or two: uncommon words are better."},
        )

    def get_help_text(self) -> str:
        return "Your password must be hard to guess: a few uncommon words together work well."
