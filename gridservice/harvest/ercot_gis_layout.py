"""Where an ERCOT GIS report keeps its tables, across seven years of layout drift.

ERCOT renamed sheets ("Project Details" split into "- Large Gen" and "- Small Gen" in 2022;
"Project Commissioning Update" lost its prefix and "Inactive Projects" appeared in 2019),
moved header rows (row 22 in 2018, 31 from 2021) and renamed columns ("GINR Study Phase"
became "GIM Study Phase"). A sheet is found by any of its era's names, a header row by the
column names it must carry, and every column is read by its name mapped to today's.
"""

from __future__ import annotations

import re
from typing import Any

from gridservice.harvest._base import Asset, HarvestError

# today's sheet -> every name it has had, newest first
SHEET_ALIASES = {
    "Project Details - Large Gen": ("Project Details - Large Gen", "Project Details"),
    "Project Details - Small Gen": ("Project Details - Small Gen",),
    "Inactive Projects": ("Inactive Projects",),
    "Cancellation Update": ("Cancellation Update", "Project Cancellation Update"),
    "Commissioning Update": ("Commissioning Update", "Project Commissioning Update"),
}
# an older column name -> today's
COLUMN_ALIASES = {"GINR Study Phase": "GIM Study Phase"}
# What an event sheet prints in place of its table in a month without such events.
NONE_THIS_MONTH = re.compile(r"^No \w+ projects\b", re.IGNORECASE)
# How far down a sheet its header may sit (row 31 today, 22 in 2018).
HEADER_SEARCH_ROWS = 80


def sheet_name(workbook, sheet: str) -> str | None:
    """Return the name this workbook gives today's `sheet`, or None when it has none."""
    return next((n for n in SHEET_ALIASES[sheet] if n in workbook.sheetnames), None)


def require_sheet(workbook, sheet: str, asset: Asset, expected: str) -> str:
    """Return the workbook's name for today's `sheet`, or a HarvestError listing its sheets."""
    found = sheet_name(workbook, sheet)
    if found is None:
        names = " or ".join(repr(n) for n in SHEET_ALIASES[sheet])
        there = ", ".join(repr(s) for s in workbook.sheetnames)
        raise HarvestError(
            f"{asset.file_name}: no worksheet {names} (expected {expected}); "
            f"the workbook has {there}"
        )
    return found


def canonical(name: str) -> str:
    """Return today's name of a column header (itself when it has not been renamed)."""
    return COLUMN_ALIASES.get(name, name)


def cell_name(value: Any) -> str:
    """Return a header cell's text with its whitespace collapsed ('' for a blank)."""
    return " ".join(str(value).split()) if value is not None else ""


def header_row(rows: list[tuple], marks: tuple[str, ...]) -> int | None:
    """Return the index of the first of `rows` whose cells include every name in `marks`."""
    for i, row in enumerate(rows[:HEADER_SEARCH_ROWS]):
        names = {canonical(cell_name(v)) for v in row or ()}
        if all(mark in names for mark in marks):
            return i
    return None


def says_none(row: tuple | None) -> bool:
    """Return whether a row says the sheet lists no projects this month."""
    return any(isinstance(v, str) and NONE_THIS_MONTH.match(v.strip()) for v in row or ())
