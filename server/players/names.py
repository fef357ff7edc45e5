"""People's names: words that claim to be an AI or a bot are reserved for bots (docs/design.md §6.1).

A bot is never presented as a person, and a person is never presented as a bot: a
person named "Rook AI" would make the AI badge ambiguous.  So a person's name may not
contain, as a whole word, one of `RESERVED_WORDS`.  Words are found the way a reader
sees them:

- case and compatibility forms folded (``ＡＩ``, ``𝐀𝐈`` and ``ai`` are one word), accents
  dropped, invisible format characters removed;
- look-alike letters of other scripts (Cyrillic ``АІ``, Greek ``ΑΙ``) and digits used as
  letters (``B0T``, ``R0B0T``) read as the Latin letters they imitate;
- words split at anything that is not a letter or a digit and at case changes
  (``RookAI``, ``rook_bot``, ``Rook.Engine``), and runs of single letters joined
  (``A.I.``, ``B O T``).

>>> claims_to_be_ai("Rook AI"), claims_to_be_ai("RookBot"), claims_to_be_ai("A.I. Rook")
(True, True, True)
>>> claims_to_be_ai("Abbott"), claims_to_be_ai("Aidan"), claims_to_be_ai("QuietOtter042")
(False, False, False)

"Within reason": a lowercase ``l`` is not read as ``I`` (so "Al" stays a name), and a
word is only reserved whole ("Robotnik", "Aisha" and "Bottas" are names).
"""

from __future__ import annotations

import re
import unicodedata

from django.core.exceptions import ValidationError

RESERVED_WORDS = frozenset(
    {
        "ai",
        "bot",
        "bots",
        "robot",
        "robots",
        "chatbot",
        "engine",
        "computer",
        "cpu",
        "npc",
        "gpt",
        "llm",
    }
)

# Letters of other scripts that look like Latin ones, and digits and signs written for letters.
LOOKALIKES = str.maketrans(
    {
        # Cyrillic
        "а": "a", "в": "b", "е": "e", "і": "i", "ӏ": "i", "к": "k", "м": "m", "н": "h", "о": "o",
        "р": "p", "с": "c", "т": "t", "у": "y", "х": "x", "ј": "j", "ѕ": "s", "ԁ": "d", "ԛ": "q",
        # Greek
        "α": "a", "β": "b", "ε": "e", "ι": "i", "κ": "k", "ν": "v", "ο": "o", "ρ": "p", "τ": "t",
        "υ": "u", "χ": "x", "ɩ": "i",
        # digits and signs
        "0": "o", "1": "i", "3": "e", "4": "a", "5": "s", "7": "t", "8": "b", "@": "a", "$": "s",
        "!": "i", "|": "i",
    }
)  # fmt: skip

# A word: a capital and its lowercase letters, a run of capitals, a run of lowercase, or digits.
WORD = re.compile(r"[A-Z][a-z]+|[A-Z]+(?![a-z])|[a-z]+|[0-9]+")


def _folded(name: str) -> str:
    """Compatibility forms folded, accents and invisible characters dropped; case kept."""
    text = unicodedata.normalize("NFKD", name)
    return "".join(c for c in text if unicodedata.category(c) not in ("Mn", "Me", "Cf"))


def _lookalike(char: str) -> str:
    """The Latin letter a letter of another script imitates, in the same case."""
    latin = char.lower().translate(LOOKALIKES)
    return latin.upper() if char.isupper() else latin


def _letters_for_signs(text: str) -> str:
    """Digits and signs next to a letter read as the letter they imitate ("B0T", "R0B0T", "@I").

    Alone they stay what they are ("Bob 41" has no "ai"); the letter takes its neighbour's case.
    """
    out = list(text)
    for i, char in enumerate(text):
        latin = char.translate(LOOKALIKES)
        if latin == char:
            continue
        neighbours = [c for c in (text[i - 1] if i else "", text[i + 1] if i + 1 < len(text) else "") if c.isalpha()]
        if neighbours:
            out[i] = latin.upper() if neighbours[0].isupper() else latin
    return "".join(out)


def name_words(name: str) -> list[str]:
    """The words a reader sees in `name`, lowercase, single letters in a run joined."""
    letters = "".join(c if c.isascii() else _lookalike(c) for c in _folded(name))
    words = [w.lower() for w in WORD.findall(_letters_for_signs(letters))]
    runs: list[str] = []
    run = ""
    for word in [*words, ""]:
        if len(word) == 1 and word.isalpha():
            run += word
            continue
        if len(run) > 1:
            runs.append(run)
        run = ""
    return words + runs


def claims_to_be_ai(name: str) -> bool:
    return any(word in RESERVED_WORDS for word in name_words(name))


def validate_person_name(name: str) -> None:
    """Refuse a person's name that claims to be an AI or a bot (a model field and API validator)."""
    if claims_to_be_ai(name):
        raise ValidationError(
            "names that claim to be an AI or a bot (AI, bot, engine, computer...) are kept for the "
            "computer players, so that the AI badge always means what it says",
            code="reserved_name",
        )


# --- account names: unique among accounts, by the look of them -----------------------

ACCOUNT_NAME_MIN, ACCOUNT_NAME_MAX = 3, 24
# Words of the site's own paths and roles: /api/players/me/, /api/players/guest/, staff.
ROUTE_AND_ROLE_NAMES = frozenset({"me", "guest", "guests", "admin", "staff", "moderator", "system", "plyground"})
# The guests' automatic names (services.guest_name): kept for guests, but for a guest's own.
GUEST_NAME = re.compile(r"^[A-Z][a-z]+[A-Z][a-z]+\d{3}$")
SEPARATORS = " -_"

# Latin letters and digits that read as others, after case is folded and the other scripts'
# look-alikes are mapped to Latin (a small part of Unicode's confusables, TR39): i, l, 1 and
# the capital I are one stroke (case is folded first, so "i" stands for "I" too); 0 and o
# one ring; "rn" reads "m" and "vv" reads "w".  Broader than the eye on purpose: "Ali" and
# "All" are one name, which costs little and keeps "AIice" from passing for "Alice".
SKELETON_CHARS = str.maketrans({"i": "l", "1": "l", "|": "l", "0": "o", "5": "s"})
SKELETON_PAIRS = (("rn", "m"), ("vv", "w"))


def name_skeleton(name: str) -> str:
    """What a name looks like: two account names with the same skeleton are one name.

    >>> name_skeleton("Alice") == name_skeleton("AIice") == name_skeleton("АLICE") == name_skeleton("a_lice")
    True
    >>> name_skeleton("Alice") == name_skeleton("Alicia")
    False
    """
    text = "".join(c if c.isascii() else _lookalike(c) for c in _folded(name))
    text = unicodedata.normalize("NFKC", text).casefold().translate(SKELETON_CHARS)
    text = "".join(c for c in text if c not in SEPARATORS)
    for pair, letter in SKELETON_PAIRS:
        text = text.replace(pair, letter)
    return text


def account_name_problems(name: str) -> list[str]:
    """Why `name` cannot be an account's display name (its form, not whether it is taken)."""
    if not ACCOUNT_NAME_MIN <= len(name) <= ACCOUNT_NAME_MAX:
        return [f"a name is {ACCOUNT_NAME_MIN} to {ACCOUNT_NAME_MAX} characters long"]
    if any(not (c.isalpha() or c in "0123456789" or c in SEPARATORS) for c in name):
        return ["a name has letters, digits, spaces, - and _ only"]
    if name != name.strip(SEPARATORS) or "  " in name:
        return ["a name starts and ends with a letter or a digit, with single spaces between words"]
    if not any(c.isalpha() for c in name):
        return ["a name has at least one letter"]
    if name_skeleton(name) in {name_skeleton(word) for word in ROUTE_AND_ROLE_NAMES}:
        return ["this word is kept for the site itself"]
    return []


def validate_account_name(name: str, own_guest_name: str | None = None) -> None:
    """Refuse a display name that is malformed, claims to be an AI or a bot, or looks like a guest's.

    A guest who signs up may keep its own automatic name (`own_guest_name`); nobody else takes
    a name of that pattern.  Whether another account has it is the service's question.
    """
    problems = account_name_problems(name)
    if problems:
        raise ValidationError(problems[0], code="invalid_name")
    validate_person_name(name)
    if GUEST_NAME.match(name) and name != own_guest_name:
        raise ValidationError("names like QuickLynx674 are the guests' automatic names", code="guest_name")
