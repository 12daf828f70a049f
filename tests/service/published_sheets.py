"""The cells of a published workbook as the tests read them, independently of the harvesters.

Read with calamine directly (a quarter of openpyxl's processor time), not through the
harvesters' own reader, and given back as openpyxl's read-only mode gives them, to the
extent the tests compare: rows from 1 with blank rows kept, whole numbers as `int`, empty
cells as None, dates as `datetime`. Two things differ, and the tests treat them alike:
a cell holding an empty shared string is None here ('' in openpyxl), and a sheet's rows end
at its last cell, not padded to its declared dimension. A workbook whose shared strings
hold an escaped character ('_x000D_') is read with openpyxl, which keeps the escape as
written where calamine reads the character.
"""

from __future__ import annotations

import datetime as dt
import re
import zipfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

import openpyxl
import python_calamine

ESCAPE = re.compile(rb"_x[0-9A-Fa-f]{4}_")


def _has_escapes(path: Path) -> bool:
    """Return True when the workbook's shared strings hold an escaped character."""
    with zipfile.ZipFile(path) as archive:
        if "xl/sharedStrings.xml" not in archive.namelist():
            return False
        return ESCAPE.search(archive.read("xl/sharedStrings.xml")) is not None


def _cell(value: Any) -> Any:
    """Return a calamine value as openpyxl gives it."""
    if isinstance(value, str):
        return value or None
    if isinstance(value, float) and value.is_integer():
        return int(value)
    if type(value) is dt.date:
        return dt.datetime(value.year, value.month, value.day)
    return value


def workbook_sheets(path: Path, wanted: Callable[[str], bool]) -> dict[str, list[tuple]]:
    """Return sheet name -> its rows (tuples of cell values, row 1 first) for each sheet of
    the workbook whose name `wanted` accepts, in the workbook's order."""
    if _has_escapes(path):
        book = openpyxl.load_workbook(path, read_only=True, data_only=True)
        try:
            return {
                name: list(book[name].iter_rows(values_only=True))
                for name in book.sheetnames
                if wanted(name)
            }
        finally:
            book.close()
    book = python_calamine.CalamineWorkbook.from_path(str(path))
    try:
        return {
            name: [
                tuple(_cell(v) for v in row)
                for row in book.get_sheet_by_name(name).to_python(skip_empty_area=False)
            ]
            for name in book.sheet_names
            if wanted(name)
        }
    finally:
        book.close()
