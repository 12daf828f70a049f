"""The form the packet scrubber compares text in: every disguise of a value folds like it."""

from __future__ import annotations

import unicodedata

import pytest

from gridservice.screening.comparable_text import (
    CASE_FIRST,
    FOLDS,
    LOOK_ALIKE_FIRST,
    as_number,
    comparable,
    comparable_characters,
    prototypes,
)

REFERENCE = "ACME-REF-77311"
CYRILLIC = str.maketrans("ACEMOacemo", "АСЕМОасемо")


def folds_alike(one: str, other: str) -> bool:
    """Return whether two texts fold alike in one of the folds (the scrubber's test)."""
    return any(comparable(one, fold) == comparable(other, fold) for fold in FOLDS)


DISGUISES = {
    "zero width space": "ACME\u200b-REF-77\u200b311",
    "zero width joiner": "AC\u200dME-REF-77311",
    "zero width non-joiner": "ACME-R\u200cEF-77311",
    "soft hyphen": "AC\u00adME-REF-773\u00ad11",
    "word joiner": "ACME\u2060-\u2060REF-77311",
    "bidi isolates": "\u2066ACME\u2069-\u2067REF\u2069-\u206877311\u2069",
    "bidi embedding and marks": "\u202aACME\u202c-\u200eREF-77311\u200f",
    "variation selectors": "A\ufe0fCME-RE\ufe0eF-7\U000e01007311",
    "tag characters": "ACME-\U000e0041\U000e0042REF-77311\U000e007f",
    "non-breaking hyphen": "ACME\u2011REF\u201177311",
    "en dash": "ACME\u2013REF\u201377311",
    "minus sign": "ACME\u2212REF\u221277311",
    "cyrillic look-alikes": REFERENCE.translate(CYRILLIC),
    "small cyrillic look-alikes": "acme-ref-77311".translate(str.maketrans("aceo", "асео")),
    "full width": "".join(chr(ord(c) + 0xFEE0) for c in REFERENCE),
    "mathematical letters": "\U0001d400\U0001d402\U0001d40c\U0001d404-REF-77311",
    "digit one as letter l": "ACME-REF-773ll",
    "surrounding whitespace": "\t ACME-REF-77311\n",
}


@pytest.mark.parametrize("disguise", DISGUISES.values(), ids=DISGUISES.keys())
def test_a_disguised_copy_folds_like_the_value(disguise):
    assert disguise != REFERENCE
    assert folds_alike(disguise, REFERENCE)


def test_a_different_value_stays_different():
    assert not folds_alike("ACME-REF-77312", REFERENCE)
    assert not folds_alike("ACME REF 77311", REFERENCE)


def test_case_and_compatibility_forms_fold_alike_in_the_case_first_fold():
    for one, other in [("acme-ref-77311", REFERENCE), ("STRASSE", "straße"), ("ﬁnance", "FINANCE")]:
        assert comparable(one, CASE_FIRST) == comparable(other, CASE_FIRST)


def test_capital_look_alikes_fold_alike_in_the_look_alike_first_fold():
    # The table maps the capital I to l, not the small i: only mapping before folding sees it.
    assert comparable("B1LL", LOOK_ALIKE_FIRST) == comparable("BILL", LOOK_ALIKE_FIRST)
    assert comparable("АСМЕ", LOOK_ALIKE_FIRST) == comparable("ACME", LOOK_ALIKE_FIRST)


@pytest.mark.parametrize("fold", FOLDS)
def test_each_invisible_character_folds_to_nothing_and_keeps_its_place(fold):
    text, pieces = comparable_characters("A\u200bB\u00adC", fold)
    assert text == "A\u200bB\u00adC"
    assert [bool(piece) for piece in pieces] == [True, False, True, False, True]


def test_invisible_characters_are_the_default_ignorable_ones():
    # Every format character (Cf) that is drawn as nothing and that a copy could hide in.
    for code in (0x200B, 0x200C, 0x200D, 0x2060, 0x00AD, 0x2066, 0x2069, 0xFEFF, 0xE0041):
        assert unicodedata.category(chr(code)) == "Cf"
        assert folds_alike(f"x{chr(code)}y", "xy")
    for code in (0xFE00, 0xFE0F, 0xE0100, 0x034F):
        assert folds_alike(f"x{chr(code)}y", "xy")


def test_the_look_alike_table_ships_with_the_package():
    table = prototypes()
    # The Unicode table maps some six thousand characters; a stub or an empty file would not.
    assert len(table) > 5000
    for fold in FOLDS:
        assert comparable("\u0430", fold) == comparable("a", fold)  # Cyrillic small a
        assert comparable("rn", fold) == comparable("m", fold)  # a prototype may be longer


@pytest.mark.parametrize(
    ("text", "number"),
    [("97403", 97403), (" 097403 ", 97403), ("12.50", 12.5), ("９７４０３", 97403)],
)
def test_a_text_that_spells_a_number_is_that_number(text, number):
    assert as_number(text) == number


@pytest.mark.parametrize("text", ["97403-1234", "1e5", "nan", "1_000", "", "ACME"])
def test_other_texts_are_no_number(text):
    assert as_number(text) is None
