"""Hostile spreadsheet cells for the tests of both writers (the app's downloads and the
service's CSV export), and what a cell read back from either may hold."""

from __future__ import annotations

from openpyxl.cell.cell import ILLEGAL_CHARACTERS_RE

# What a spreadsheet runs as a formula (OWASP's CSV injection), full-width and small forms too.
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r", "＝", "＋", "－", "＠", "﹦", "﹢", "﹣", "﹫")
HOSTILE_TEXTS = [
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


def held(text: str) -> str:
    """Return the text as a workbook can hold it (openpyxl's own definition)."""
    return ILLEGAL_CHARACTERS_RE.sub("", text)


def assert_reads_as_text(cell: str, original: str, *, line_end: str = "\r") -> None:
    """The cell starts no formula and reads as the original (a workbook's XML reads a
    carriage return back as a line feed: `line_end`)."""
    assert not cell.startswith(FORMULA_STARTS), repr(cell)
    assert cell.removeprefix("'") == held(original).replace("\r", line_end), repr(cell)
