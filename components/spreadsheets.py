"""The one writer of the app's spreadsheet downloads (CSV and .xlsx), and the cell rule of both.

A text cell from the service, the URL or the user reaches a spreadsheet as text:

- a cell beginning with `=`, `+`, `-`, `@`, tab or carriage return, or with a full-width or
  small form of the first four, gets a leading `'`, so no spreadsheet runs it as a formula
  (OWASP's CSV injection); numbers stay numbers;
- characters a workbook cannot hold (openpyxl's `ILLEGAL_CHARACTERS_RE`: the control
  characters but tab, line feed and carriage return) are dropped, so a stored `\\v` or NUL
  never stops a download.

Every table is drawn through `formula_safe` too, because Streamlit offers each as "Download as
CSV" with the cells as drawn. The service's CSV export applies the same rule with a writer of
its own (the app never imports the service).
"""

from __future__ import annotations

import io
import re
from collections.abc import Mapping
from typing import Any

import pandas as pd

from components.distinct_values import map_distinct

# openpyxl's `ILLEGAL_CHARACTERS_RE`, written here: every table is drawn through this module,
# and importing openpyxl for one pattern cost the first page of every start a third of a
# second (tests/app/test_components_spreadsheets.py keeps the two the same).
ILLEGAL_CHARACTERS_RE = re.compile(r"[\000-\010]|[\013-\014]|[\016-\037]")

XLSX_MIME = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"

# Full-width and small forms too: a spreadsheet in an East Asian locale reads them as `=`.
FORMULA_STARTS = (
    *("=", "+", "-", "@", "\t", "\r"),
    *("\uff1d", "\uff0b", "\uff0d", "\uff20"),
    *("\ufe66", "\ufe62", "\ufe63", "\ufe6b"),
)


def safe_cell(value: Any) -> Any:
    """Return a text value as a spreadsheet keeps it as text (characters a workbook cannot
    hold dropped, a leading `'` before a formula); any other value unchanged."""
    if not isinstance(value, str):
        return value
    text = ILLEGAL_CHARACTERS_RE.sub("", value)
    return "'" + text if text.startswith(FORMULA_STARTS) else text


# What makes `safe_cell` change a text: a formula's first character at its start, or a
# character a workbook cannot hold anywhere. Searched once, in C, over a column's texts
# joined by line feeds (`^` matches after each): a text holding a line feed and then a
# formula's character is found too, and is then only passed through `safe_cell`. Tested
# text by text with pandas' string methods, a table of ten columns took 11 to 15 ms to
# check, and every table the app draws is checked (docs/BENCHMARKS.md).
_NEEDS_REWRITE = re.compile(
    "(?m)^[" + re.escape("".join(FORMULA_STARTS)) + "]|" + ILLEGAL_CHARACTERS_RE.pattern
)


def _needs_rewrite(column: pd.Series) -> bool:
    texts = [value for value in column.tolist() if isinstance(value, str)]
    return _NEEDS_REWRITE.search("\n".join(texts)) is not None


def formula_safe(frame: pd.DataFrame) -> pd.DataFrame:
    """Return a copy of the frame whose text cells and column names pass `safe_cell`."""
    safe = frame.copy()
    safe.columns = [safe_cell(name) for name in safe.columns]
    for position, dtype in enumerate(safe.dtypes):
        if pd.api.types.is_object_dtype(dtype) or pd.api.types.is_string_dtype(dtype):
            column = safe.iloc[:, position]
            # a column is rewritten only when a cell needs it: pandas' map costs about 0.5 ms
            # a column, and most columns hold no such cell (0.1 s of the assessment's run)
            if _needs_rewrite(column):
                safe.isetitem(position, map_distinct(column, safe_cell))
    return safe


def csv_bytes(frame: pd.DataFrame) -> bytes:
    """Return the frame's cells, made safe, as UTF-8 CSV bytes with a byte-order mark first
    (so spreadsheets read it as UTF-8) and CRLF line ends (RFC 4180)."""
    # CRLF, not pandas' LF: the csv module quotes a cell holding a line end's characters,
    # so a carriage return inside a cell no longer splits its row in a reader
    return formula_safe(frame).to_csv(index=False, lineterminator="\r\n").encode("utf-8-sig")


def workbook_bytes(sheets: Mapping[str, pd.DataFrame]) -> bytes:
    """Return an .xlsx with one sheet per table, in order, headers on the first row, every
    cell made safe and each column as wide as its first fifty cells need."""
    buffer = io.BytesIO()
    with pd.ExcelWriter(buffer, engine="openpyxl") as writer:
        for name, frame in sheets.items():
            title = name[:31]  # the longest sheet name Excel opens
            formula_safe(frame).to_excel(writer, sheet_name=title, index=False)
            for column in writer.sheets[title].columns:
                width = max(len(str(cell.value or "")) for cell in column[:50])
                letter = column[0].column_letter
                writer.sheets[title].column_dimensions[letter].width = min(max(10, width + 2), 60)
    return buffer.getvalue()
