"""The app's one spreadsheet writer: no cell of a download runs as a formula, every hostile text
reads back as its text, numbers stay numbers, and text a workbook cannot hold never stops one."""

from __future__ import annotations

import csv
import io

import pandas as pd
from openpyxl import load_workbook
from openpyxl.cell.cell import ILLEGAL_CHARACTERS_RE as workbook_rule
from spreadsheet_cells import HOSTILE_TEXTS, assert_reads_as_text

from components import spreadsheets
from components.spreadsheets import csv_bytes, workbook_bytes


def hostile_frame() -> pd.DataFrame:
    """Return the hostile texts in a text column, a typed string column and a column name,
    beside numbers (negative ones among them)."""
    return pd.DataFrame(
        {
            "Text": HOSTILE_TEXTS,
            "Typed": pd.Series(HOSTILE_TEXTS, dtype="string"),
            "MW": [-1.5 * n for n in range(len(HOSTILE_TEXTS))],
            HOSTILE_TEXTS[0]: ["x"] * len(HOSTILE_TEXTS),
        }
    )


def test_no_workbook_cell_runs_as_a_formula_and_every_text_reads_back():
    sheet = load_workbook(io.BytesIO(workbook_bytes({"Sites": hostile_frame()}))).active
    assert [c.data_type for row in sheet.iter_rows() for c in row].count("f") == 0
    rows = list(sheet.iter_rows(values_only=True))
    assert_reads_as_text(rows[0][3], HOSTILE_TEXTS[0])
    for row, original in zip(rows[1:], HOSTILE_TEXTS, strict=True):
        assert_reads_as_text(row[0], original, line_end="\n")
        assert_reads_as_text(row[1], original, line_end="\n")
    numbers = [row[2] for row in rows[1:]]
    assert numbers == hostile_frame()["MW"].tolist()  # numbers, not text


def test_no_csv_cell_starts_a_formula_and_negative_numbers_stay_numbers():
    text = csv_bytes(hostile_frame()).decode("utf-8-sig")
    rows = list(csv.reader(io.StringIO(text, newline="")))
    assert_reads_as_text(rows[0][3], HOSTILE_TEXTS[0])
    for row, original in zip(rows[1:], HOSTILE_TEXTS, strict=True):
        assert_reads_as_text(row[0], original)
        assert_reads_as_text(row[1], original)
    assert [float(row[2]) for row in rows[1:]] == hostile_frame()["MW"].tolist()


def test_the_characters_dropped_are_those_a_workbook_cannot_hold():
    # The app keeps its own copy of openpyxl's pattern (importing openpyxl cost every start's
    # first page); a download must still open in a workbook.
    assert spreadsheets.ILLEGAL_CHARACTERS_RE.pattern == workbook_rule.pattern
