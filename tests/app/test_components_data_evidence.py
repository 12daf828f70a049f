"""Safe highlighting of the service's text: escaped, never markup, matched words marked."""

from __future__ import annotations

import string

import pytest
from hypothesis import given
from hypothesis import strategies as st

from components.evidence_view import (
    fact_evidence_rows,
    highlight_segments,
    highlighted_markdown,
    query_terms,
)
from components.text import escape_markdown
from gridclient.models import FactEvidence


def test_query_terms_are_folded_distinct_and_drop_operators():
    assert query_terms("Transmission AND line OR transmission  NOT  kV") == [
        "transmission",
        "line",
        "kv",
    ]


def test_segments_mark_prefix_and_stem_matches_and_give_the_text_back():
    text = "New transmission lines near Travis; line rating 345 kV."
    segments = highlight_segments(text, ["transmiss", "lines"])
    assert "".join(s for s, _ in segments) == text
    assert [s for s, matched in segments if matched] == ["transmission", "lines", "line"]


def test_no_terms_means_no_highlight():
    assert highlight_segments("plain text", []) == [("plain text", False)]


def test_markup_in_service_text_is_escaped_not_rendered():
    hostile = "<script>alert(1)</script> **bold** [link](http://x.test) :rocket: $x$ # head"
    out = escape_markdown(hostile)
    assert "`http://x.test)`" in out  # an address is shown in a code span: never a link
    # Every other punctuation character is preceded by a backslash: no tag, link, emphasis,
    # emoji code, formula or heading can form.
    out = out.replace("`http://x.test)`", "")
    for index, char in enumerate(out):
        if char in string.punctuation and char != "\\":
            assert out[index - 1] == "\\", (char, out[: index + 1])
    assert "<script>" not in out and "](" not in out and "**" not in out


def test_leading_blanks_and_lines_are_kept_as_visible_breaks():
    assert escape_markdown("    indented code?\n\n second") == "indented code\\?  \nsecond"


def test_highlighted_markdown_wraps_only_matched_words():
    out = highlighted_markdown("Queue <b>backlog</b> grows", ["backlog"])
    assert out == "Queue \\<b\\>:orange-background[**backlog**]\\<\\/b\\> grows"


def test_highlighted_markdown_keeps_spaces_between_words():
    out = highlighted_markdown("the queue and the queue", ["queue"])
    assert out == ("the :orange-background[**queue**] and the :orange-background[**queue**]")


@given(st.text(max_size=200), st.lists(st.text(string.ascii_lowercase, min_size=1), max_size=3))
def test_any_text_stays_literal(text, terms):
    out = highlighted_markdown(text, terms)
    # Remove the markup this module writes; what is left has only escaped punctuation.
    bare = out.replace(":orange-background[**", "").replace("**]", "")
    index = 0
    while index < len(bare):
        char = bare[index]
        if char == "\\":
            index += 2
            continue
        assert char not in string.punctuation, (text, out)
        index += 1


def test_fact_evidence_marks_parser_confidence_uncalibrated():
    rows = dict(
        fact_evidence_rows(
            FactEvidence.model_validate(
                {
                    "page": 12,
                    "boundingBox": [72.0, 400.5, 540.0, 420.0],
                    "parserConfidence": 0.93,
                    "parserConfidenceIsCalibrated": False,
                    "calibrationStatus": "unavailable_no_independent_labels",
                }
            )
        )
    )
    assert rows["Page"] == "12"
    assert rows["Bounding box"] == "72, 400.5, 540, 420"
    assert rows["Parser confidence (uncalibrated)"].startswith("0.93 — uncalibrated")


@pytest.mark.parametrize("confidence", [None])
def test_fact_evidence_without_confidence_shows_nothing(confidence):
    rows = dict(fact_evidence_rows(FactEvidence(parser_confidence=confidence)))
    assert rows["Parser confidence (uncalibrated)"] == ""
