"""The app's one spreadsheet writer: no cell of a download runs as a formula, every hostile text
reads back as its text, numbers stay numbers, and text a workbook cannot hold never stops one."""

from __future__ import annotations

import csv
import io

import pandas as pd
from openpyxl import load_workbook
from openpyxl.cell.cell import ILLEGAL_CHARACTERS_RE

from components.spreadsheets import csv_bytes, workbook_bytes

# What a spreadsheet runs as a formula (OWASP's CSV injection), full-width and small forms too.
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r", "＝", "＋", "－", "＠", "﹦", "﹢", "﹣", "﹫")
HOSTILE = [
    '=HYPERLINK("http://127.0.0.1:18799/x","x")',
    "+cmd|' /C calc'!A0",
    "-2+3+cmd|' /C notepad'!A0",
    "@SUM(A1:A9)",
    "\t=1+1",
    "\r=1+1",
    '＝HYPERLINK("http://127.0.0.1:18799/x","x")',
    "＋1+1",
    "－1+1",
    "＠SUM(A1)",
    "﹦1+1",
    "\u0000=1+1",  # a character a workbook cannot hold, in front of a formula
    "North\u000bfield\u0000 site",
    "plain text",
]


def hostile_frame() -> pd.DataFrame:
    """Return the hostile texts in a text column, a typed string column and a column name,
    beside numbers (negative ones among them)."""
    return pd.DataFrame(
        {
            "Text": HOSTILE,
            "Typed": pd.Series(HOSTILE, dtype="string"),
            "MW": [-1.5 * n for n in range(len(HOSTILE))],
            HOSTILE[0]: ["x"] * len(HOSTILE),
        }
    )


def shown(text: str) -> str:
    """Return the text as a spreadsheet can hold it (openpyxl's own definition)."""
    return ILLEGAL_CHARACTERS_RE.sub("", text)


def assert_reads_as_text(cell: str, original: str, *, line_end: str = "\r") -> None:
    """The cell starts no formula and reads as the original (a workbook's XML reads a
    carriage return back as a line feed: `line_end`)."""
    assert not cell.startswith(FORMULA_STARTS), repr(cell)
    assert cell.removeprefix("'") == shown(original).replace("\r", line_end), repr(cell)


def test_no_workbook_cell_runs_as_a_formula_and_every_text_reads_back():
    sheet = load_workbook(io.BytesIO(workbook_bytes({"Sites": hostile_frame()}))).active
    assert [c.data_type for row in sheet.iter_rows() for c in row].count("f") == 0
    rows = list(sheet.iter_rows(values_only=True))
    assert_reads_as_text(rows[0][3], HOSTILE[0])
    for row, original in zip(rows[1:], HOSTILE, strict=True):
        assert_reads_as_text(row[0], original, line_end="\n")
        assert_reads_as_text(row[1], original, line_end="\n")
    numbers = [row[2] for row in rows[1:]]
    assert numbers == hostile_frame()["MW"].tolist()  # numbers, not text


def test_no_csv_cell_starts_a_formula_and_negative_numbers_stay_numbers():
    text = csv_bytes(hostile_frame()).decode("utf-8-sig")
    rows = list(csv.reader(io.StringIO(text, newline="")))
    assert_reads_as_text(rows[0][3], HOSTILE[0])
    for row, original in zip(rows[1:], HOSTILE, strict=True):
        assert_reads_as_text(row[0], original)
        assert_reads_as_text(row[1], original)
    assert [float(row[2]) for row in rows[1:]] == hostile_frame()["MW"].tolist()
