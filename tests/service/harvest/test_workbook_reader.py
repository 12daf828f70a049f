"""The harvesters' workbook reader gives the cells openpyxl's read-only mode gives.

Evidence names a worksheet and a row number, and harvesters tell a whole number from a
fraction and an empty cell from text by the value's type, so the rows must match openpyxl's
in count, order, values and types. The real publisher files are compared by hand with
scripts/check_workbook_reader.py; these tests pin the same on a small workbook.
"""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import openpyxl
import pytest

from gridservice.harvest._base import Asset, HarvestError, open_workbook, worksheet

SHEET = "Project Details"


@pytest.fixture(scope="module")
def workbook_path(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A workbook whose queue sheet has an empty first row, a gap of empty rows, a gap
    of empty cells, whole and fractional numbers, dates, a time, an error cell and an
    escaped character."""
    book = openpyxl.Workbook()
    contents = book.active
    contents.title = "Contents"
    contents.append(["Report", "November 2025"])
    queue = book.create_sheet(SHEET)
    queue.append([])
    queue.append(["INR", "Project Name", "Capacity (MW)", "Projected COD", "Status"])
    queue.append(["21INR0001", "Solar One", 150, dt.datetime(2026, 6, 1), "IA"])
    queue.append(["21INR0002", None, 99.5, dt.datetime(2027, 1, 15, 13, 30), "#N/A"])
    queue.cell(row=7, column=1, value="21INR0003")
    queue.cell(row=7, column=3, value=1e20)
    queue.cell(row=7, column=5, value=dt.time(6, 45))
    # Published with Excel's escape for a carriage return, which openpyxl keeps as written.
    queue.cell(row=8, column=2, value="Station Name: FAULKNER_x000D_\nBus#: 38124")
    path = tmp_path_factory.mktemp("workbook") / "GIS_Report_November2025.xlsx"
    book.save(path)
    return path


def typed(rows: list[tuple]) -> list[list[tuple[type, object]]]:
    """Return each cell as (type, value), so that 150 and 150.0 or '' and None differ."""
    return [[(type(v), v) for v in row] for row in rows]


def openpyxl_rows(path: Path, sheet: str, **options: int) -> list[tuple]:
    book = openpyxl.load_workbook(path, read_only=True, data_only=True)
    try:
        return list(book[sheet].iter_rows(values_only=True, **options))
    finally:
        book.close()


def reader_rows(path: Path, sheet: str, **options: int) -> list[tuple]:
    asset = Asset.from_path(path)
    book = open_workbook(asset, "a queue report")
    try:
        return list(worksheet(book, sheet, asset, "a queue report").iter_rows(**options))
    finally:
        book.close()


def test_rows_have_openpyxls_numbers_values_and_types(workbook_path: Path) -> None:
    expected = openpyxl_rows(workbook_path, SHEET)

    assert typed(reader_rows(workbook_path, SHEET)) == typed(expected)


def test_a_first_rows_read_stops_where_openpyxl_stops(workbook_path: Path) -> None:
    expected = openpyxl_rows(workbook_path, SHEET, max_row=3)

    assert typed(reader_rows(workbook_path, SHEET, max_row=3)) == typed(expected)


def test_sheet_names_are_openpyxls_in_order(workbook_path: Path) -> None:
    book = open_workbook(Asset.from_path(workbook_path), "a queue report")
    try:
        names = book.sheetnames
    finally:
        book.close()

    assert names == openpyxl.load_workbook(workbook_path, read_only=True).sheetnames


def test_a_missing_sheet_is_named_with_the_sheets_that_are_there(workbook_path: Path) -> None:
    asset = Asset.from_path(workbook_path)
    book = open_workbook(asset, "a queue report")
    try:
        with pytest.raises(HarvestError) as raised:
            worksheet(book, "Inactive Projects", asset, "a queue report")
    finally:
        book.close()

    assert "no worksheet 'Inactive Projects'" in str(raised.value)
    assert f"'Contents', '{SHEET}'" in str(raised.value)
