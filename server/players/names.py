"""People's names: words that claim to be an AI or a bot are reserved for bots (docs/design.md §6.1).

A bot is never presented as a person, and a person is never presented as a bot: a
person named "Rook AI" would make the AI badge ambiguous.  So a person's name may not
contain, as a whole word, one of `RESERVED_WORDS`.  Words are found the way a reader
sees them:

- case and compatibility forms folded (``ＡＩ``, ``𝐀𝐈`` and ``ai`` are one word), accents
  dropped, invisible format characters removed;
- look-alike letters of other scripts (Cyrillic ``АІ``, Greek ``ΑΙ``, and every letter
  Unicode's confusables read as Latin ones), small capitals (``ᴀɪ``) and digits used as
  letters (``B0T``, ``R0B0T``) read as the Latin letters they imitate;
- words split at anything that is not a letter or a digit and at case changes
  (``RookAI``, ``rook_bot``, ``Rook.Engine``), and runs of single letters joined
  (``A.I.``, ``B O T``).

>>> claims_to_be_ai("Rook AI"), claims_to_be_ai("RookBot"), claims_to_be_ai("A.I. Rook"), claims_to_be_ai("Rook ᴀɪ")
(True, True, True, True)
>>> claims_to_be_ai("Abbott"), claims_to_be_ai("Aidan"), claims_to_be_ai("QuietOtter042")
(False, False, False)

"Within reason": a lowercase ``l`` is not read as ``I`` (so "Al" stays a name), and a
word is only reserved whole ("Robotnik", "Aisha" and "Bottas" are names).

One policy holds for every name a person is shown by, an account's or a guest's
(`validate_name`): no invisible or control character, no AI word, not a bot's name (the
seeded ladders' and every bot profile's), and no account's, all compared by
`name_skeleton`, which builds on Unicode's confusables (UTS #39).
"""

from __future__ import annotations

import functools
import re
import secrets
import unicodedata
from typing import Final

from django.apps import apps
from django.core.exceptions import ValidationError

from games import registry
from server.players import confusables

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


# Small capitals ("Rook ᴀɪ") read as the capitals they are drawn as: Unicode's confusables list
# few of them.  Found by name in the blocks that hold them (IPA, Phonetic, Latin Extended-D).
SMALL_CAPITAL = re.compile(r"LATIN LETTER SMALL CAPITAL ([A-Z])$")
SMALL_CAPITALS: Final[dict[str, str]] = {
    chr(cp): m.group(1)
    for block in (range(0x0250, 0x02B0), range(0x1D00, 0x1D80), range(0xA720, 0xA800))
    for cp in block
    if (m := SMALL_CAPITAL.match(unicodedata.name(chr(cp), "")))
}


def _folded(name: str) -> str:
    """Compatibility forms folded, accents and invisible characters dropped; case kept."""
    text = unicodedata.normalize("NFKD", name)
    return "".join(c for c in text if unicodedata.category(c) not in ("Mn", "Me", "Cf"))


def _lookalike(char: str) -> str:
    """The Latin letter a letter of another script imitates, in the same case.

    Our table first (it reads Cyrillic ``І`` as ``I`` where Unicode's prototype is ``l``), then
    small capitals, then Unicode's confusables where they read the letter as Latin ones.
    """
    latin = char.lower().translate(LOOKALIKES)
    if latin != char.lower():
        return latin.upper() if char.isupper() else latin
    if char in SMALL_CAPITALS:
        return SMALL_CAPITALS[char]
    proto = confusables.prototype(char)
    return proto if proto.isascii() and proto.isalpha() else char


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


# --- one policy for the names people are shown by --------------------------------------

NAME_MIN, NAME_MAX = 3, 24
ACCOUNT_NAME_MIN, ACCOUNT_NAME_MAX = NAME_MIN, NAME_MAX  # the sign-up form's names for them
# Words of the site's own paths and roles: /api/players/me/, /api/players/guest/, staff.
ROUTE_AND_ROLE_NAMES = frozenset({"me", "guest", "guests", "admin", "staff", "moderator", "system", "plyground"})
SEPARATORS = " -_"

# Characters nobody sees, or that move the text around them (U+200B zero-width space, U+200F
# right-to-left mark, U+202E override, U+2066-2069 isolates, U+FEFF): control, format,
# surrogate, private-use and unassigned code points, line and paragraph separators...
INVISIBLE_CATEGORIES = frozenset({"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"})
# ...and the few of other categories that draw nothing: the combining grapheme joiner, Hangul
# fillers, Khmer's inherent vowels, the braille blank; and variation selectors.
FILLERS = frozenset("\u034f\u115f\u1160\u17b4\u17b5\u2800\u3164\uffa0")
VARIATION_SELECTORS = frozenset(map(chr, [*range(0xFE00, 0xFE10), *range(0xE0100, 0xE01F0)]))
BLANK = FILLERS | VARIATION_SELECTORS


def is_invisible(char: str) -> bool:
    """Whether `char` draws nothing or reorders the text around it (refused in names, see chat.text)."""
    return char in BLANK or unicodedata.category(char) in INVISIBLE_CATEGORIES


def invisible_characters(text: str) -> list[str]:
    """The characters of `text` a reader cannot see, as code points (``U+200F``) an error can name."""
    return [f"U+{ord(c):04X}" for c in text if is_invisible(c)]


# After Unicode's skeleton, the folds a name needs on top of it: case; a lowercase i is one
# stroke like l (so "AIice" passes for "Alice" in lowercase neither); 5 reads s; w reads vv
# (Unicode already reads m as rn).  Broader than the eye on purpose: "Ali" and "All" are one
# name, which costs little.
SKELETON_CHARS = str.maketrans({"i": "l", "5": "s"})
SKELETON_PAIRS = (("w", "vv"),)
NAME_KEY_MAX = 255  # Player.name_key's length; a skeleton is longer only for names of ligatures


def name_skeleton(name: str) -> str:
    """What a name looks like: two names with one skeleton are one name, for accounts, guests and bots.

    Unicode's skeleton (UTS #39, `confusables`) of the name in compatibility form with small
    capitals read as capitals, case folded, with accents and all but letters and digits dropped.

    >>> name_skeleton("Alice") == name_skeleton("AIice") == name_skeleton("АLICE") == name_skeleton("a_lice")
    True
    >>> name_skeleton("POLARIS") == name_skeleton("ｐｏｌａｒｉｓ") == name_skeleton("Pоlаris")
    True
    >>> name_skeleton("POLARIS") == name_skeleton("ᴘᴏʟᴀʀɪs")
    True
    >>> name_skeleton("Alice") == name_skeleton("Alicia")
    False
    """
    text = "".join(SMALL_CAPITALS.get(c, c) for c in unicodedata.normalize("NFKC", name))
    text = confusables.skeleton(confusables.skeleton(text).casefold()).casefold()
    text = "".join(c for c in text if unicodedata.category(c)[0] in "LN").translate(SKELETON_CHARS)
    for letter, pair in SKELETON_PAIRS:
        text = text.replace(letter, pair)
    return text[:NAME_KEY_MAX]


@functools.cache
def _ladder_name_skeletons() -> frozenset[str]:
    return frozenset(name_skeleton(seed.name) for game in registry.all() for seed in game.spec.ladder)


def bot_name_skeletons() -> frozenset[str]:
    """The look of every bot's name: the seeded ladders' (games/*/spec.py) and every bot profile's."""
    profiles = apps.get_model("bots", "BotProfile").objects.values_list("name", flat=True)
    return _ladder_name_skeletons() | {name_skeleton(name) for name in profiles}


def is_bot_name(name: str) -> bool:
    return name_skeleton(name) in bot_name_skeletons()


# --- the guests' automatic names --------------------------------------------------------

ADJECTIVES = ("Bold", "Calm", "Clever", "Eager", "Gentle", "Quick", "Quiet", "Brave", "Lucky", "Witty")
ANIMALS = ("Otter", "Heron", "Fox", "Lynx", "Badger", "Falcon", "Hare", "Wren", "Marten", "Ibex")


def guest_name() -> str:
    """An automatic name, "QuickLynx674" (services.player_create_guest makes sure nobody has its look)."""
    return f"{secrets.choice(ADJECTIVES)}{secrets.choice(ANIMALS)}{secrets.randbelow(1000):03d}"


# The automatic names' look: an adjective's and an animal's skeleton, then three digits'.
_GUEST_WORDS = "|".join(re.escape(name_skeleton(a + b)) for a in ADJECTIVES for b in ANIMALS)
_GUEST_DIGITS = re.escape("".join(sorted({name_skeleton(str(digit)) for digit in range(10)})))
GUEST_NAME_LOOK = re.compile(f"^(?:{_GUEST_WORDS})[{_GUEST_DIGITS}]{{3}}$")


def looks_like_guest_name(name: str) -> bool:
    """Whether `name` looks like an automatic guest name ("QuickLynx674", "Qu1ckLynx6O4")."""
    return GUEST_NAME_LOOK.match(name_skeleton(name)) is not None


# --- validators -------------------------------------------------------------------------

RESERVED_FOR_BOTS = (
    "this is a bot's name, or looks like one: bots' names are kept for the bots, so that a name "
    "without the AI badge is always a person's"
)


def name_problems(name: str) -> list[str]:
    """Why `name` cannot be a person's name, an account's or a guest's (its form, not whose it is)."""
    if hidden := invisible_characters(name):
        return [f"a name has no invisible or control characters; this one has {', '.join(hidden)}"]
    if not NAME_MIN <= len(name) <= NAME_MAX:
        return [f"a name is {NAME_MIN} to {NAME_MAX} characters long"]
    if any(not (c.isalpha() or c in "0123456789" or c in SEPARATORS) for c in name):
        return ["a name has letters, digits, spaces, - and _ only"]
    if name != name.strip(SEPARATORS) or "  " in name:
        return ["a name starts and ends with a letter or a digit, with single spaces between words"]
    if not any(c.isalpha() for c in name):
        return ["a name has at least one letter"]
    if name_skeleton(name) in {name_skeleton(word) for word in ROUTE_AND_ROLE_NAMES}:
        return ["this word is kept for the site itself"]
    return []


account_name_problems = name_problems  # its former name


def validate_name(name: str) -> None:
    """Refuse a person's name that is malformed, claims to be an AI or a bot, or looks like a bot's.

    Whether an account has it is the services' question (it needs the database's last word).
    """
    problems = name_problems(name)
    if problems:
        raise ValidationError(problems[0], code="invalid_name")
    validate_person_name(name)
    if is_bot_name(name):
        raise ValidationError(RESERVED_FOR_BOTS, code="reserved_name")


validate_guest_name = validate_name  # a name a guest chooses follows the one policy


def validate_account_name(name: str, own_guest_name: str | None = None) -> None:
    """`validate_name`, and no name that looks like a guest's automatic one.

    A guest who signs up may keep its own automatic name (`own_guest_name`); nobody else takes
    a name of that look.  Whether another account has it is the service's question.
    """
    validate_name(name)
    if looks_like_guest_name(name) and name != own_guest_name:
        raise ValidationError("names like QuickLynx674 are the guests' automatic names", code="guest_name")


def bot_name_problems(name: str) -> list[str]:
    """Why `name` cannot be a bot profile's (the admin's form shows it): shown beside the AI badge."""
    if hidden := invisible_characters(name):
        return [f"a name has no invisible or control characters; this one has {', '.join(hidden)}"]
    if name != name.strip() or not name_skeleton(name):
        return ["a name starts and ends with something visible, and has a letter or a digit"]
    return []
