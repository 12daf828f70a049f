"""Text as the packet scrubber compares it: a copy in disguise folds to the same string.

A character's comparable form is, after NFKC: without default-ignorable code points (zero
width space and joiner, soft hyphen, word joiner, bidi controls and isolates, variation
selectors, tag characters, ...), then repeatedly decomposed (NFD), mapped to its confusable
prototype (Unicode TR39 skeleton, table `confusables.txt` as shipped by the
`confusable-homoglyphs` package) and case-folded, until it no longer changes.

The table is case-sensitive (`I` looks like `l`, `i` does not), so there are two folds and a
copy is one when it matches in either: `CASE_FIRST` case-folds before the first mapping
(`FINANCE` and `finance` alike), `LOOK_ALIKE_FIRST` maps first (the Cyrillic capitals `АСМЕ`
and `ACME` alike, `1`, `l` and `I` alike). Either way `0` and `o`, an en dash or a
non-breaking hyphen and `-`, and `m` and `rn` fold alike.
"""

from __future__ import annotations

import functools
import json
import re
import unicodedata
from importlib import resources

# Default_Ignorable_Code_Point (Unicode DerivedCoreProperties.txt): drawn as nothing, so a
# copy may carry any number of them without looking different.
DEFAULT_IGNORABLE = re.compile(
    "[\u00ad\u034f\u061c\u115f\u1160\u17b4\u17b5\u180b-\u180f\u200b-\u200f\u202a-\u202e"
    "\u2060-\u206f\u3164\ufe00-\ufe0f\ufeff\uffa0\ufff0-\ufff8"
    "\U0001bca0-\U0001bca3\U0001d173-\U0001d17a\U000e0000-\U000e0fff]"
)
NUMBER = re.compile(r"[+-]?[0-9]+(?:\.[0-9]+)?")
# A prototype of a prototype is itself, so two rounds settle every character; the cap only
# guards against a table that would map in a circle.
MAX_ROUNDS = 4
CASE_FIRST = "case_first"
LOOK_ALIKE_FIRST = "look_alike_first"
FOLDS = (CASE_FIRST, LOOK_ALIKE_FIRST)


def _pairs() -> dict[str, list[str]]:
    """Return the package's confusable pairs (each listed in both directions), cleaned."""
    text = resources.files("confusable_homoglyphs").joinpath("confusables.json").read_text("utf-8")
    pairs: dict[str, list[str]] = {}
    for character, entries in json.loads(text).items():
        # The package took its strings from the table's comments, where some carry bidi marks.
        key = DEFAULT_IGNORABLE.sub("", character)
        targets = [DEFAULT_IGNORABLE.sub("", entry["c"]) for entry in entries]
        pairs.setdefault(key, []).extend(t for t in targets if t)
    return pairs


def _standing(character: str) -> tuple[bool, int]:
    return (not character.isascii(), ord(character))


@functools.cache
def prototypes() -> dict[str, str]:
    """Return each confusable character's TR39 prototype (a string of one or more characters).

    The package keeps the table's source -> prototype pairs in both directions; the direction
    is recovered from the table's shape: a source has exactly one prototype and is never one
    itself, and only prototypes are longer than one character. Of two characters that list
    only each other, the ASCII one (else the lower code point) stands for both.
    """
    pairs = _pairs()
    mapping: dict[str, str] = {}
    for character, targets in pairs.items():
        if len(character) != 1 or len(targets) != 1:
            continue
        target = targets[0]
        mutual = len(target) == 1 and len(pairs.get(target, ())) == 1
        if mutual and min(character, target, key=_standing) == character:
            continue
        mapping[character] = target
    return mapping


@functools.lru_cache(maxsize=16384)
def comparable_character(character: str, fold: str) -> str:
    """Return the comparable form of one NFKC character ("" when it is default-ignorable)."""
    table = prototypes()
    piece = DEFAULT_IGNORABLE.sub("", character)
    if fold == CASE_FIRST:
        piece = piece.casefold()
    for _ in range(MAX_ROUNDS):
        decomposed = unicodedata.normalize("NFD", piece)
        mapped = "".join(table.get(c, c) for c in decomposed)
        folded = DEFAULT_IGNORABLE.sub("", unicodedata.normalize("NFD", mapped).casefold())
        if folded == piece:
            break
        piece = folded
    return piece


def comparable_characters(text: str, fold: str) -> tuple[str, list[str]]:
    """Return the text in NFKC form and the comparable form of each of its characters."""
    text = unicodedata.normalize("NFKC", text)
    return text, [comparable_character(c, fold) for c in text]


def comparable(text: str, fold: str) -> str:
    """Return the comparable form of a text under one fold, surrounding whitespace removed."""
    return "".join(comparable_characters(text.strip(), fold)[1]).strip()


def is_invisible(character: str) -> bool:
    """Return whether a character is default-ignorable (drawn as nothing)."""
    return DEFAULT_IGNORABLE.fullmatch(character) is not None


def as_number(text: str) -> float | None:
    """Return the number a text spells in plain decimal (`97403`, `097403`, `12.5`), or None."""
    plain = unicodedata.normalize("NFKC", text).strip()
    return float(plain) if NUMBER.fullmatch(plain) else None
