"""Broken copies of real GIS workbooks, made in a temporary folder (never in the data)."""

from __future__ import annotations

from pathlib import Path

import openpyxl


def break_county_column(source: Path, target: Path) -> Path:
    """Write a copy of a GIS workbook (one "Project Details" sheet, before 2022) whose
    project sheet calls its County column 'Area'; return the copy."""
    book = openpyxl.load_workbook(source)
    sheet = book["Project Details"]
    for row in sheet.iter_rows(max_row=60):
        if row[0].value == "INR":
            next(c for c in row if c.value == "County").value = "Area"
            break
    book.save(target)
    return target
