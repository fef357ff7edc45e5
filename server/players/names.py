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
