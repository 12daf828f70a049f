"""A read-only .xlsx workbook read by calamine (Rust) that yields what openpyxl's read-only,
cached-values mode yields: the same sheet names, row numbers, values and value types.

Harvesters locate evidence by worksheet and row number and compare published cells by
type, so the cells must come out exactly as openpyxl gives them:

- numbers written without a decimal point or exponent are `int`, others `float`;
- date-formatted numbers are `datetime.datetime` (times of day `datetime.time`, durations
  `datetime.timedelta`); empty cells are None; error cells are their text ('#N/A');
- rows count from 1 with the gaps yielded as empty rows, padded to (and cut at) the
  sheet's <dimension> when it has one.

Calamine reads numbers as floats, empty cells and errors as '' and date-only cells as
`datetime.date`. Most of that maps one-to-one; what its values cannot tell apart (a whole
number written '5.0' or '1E+3', an integer too long for a float, an error cell, a cell
holding an empty shared string) is found in the sheet's XML by a few targeted searches and
set from the XML text as openpyxl would read it. Text holding an escaped character
('_x000D_') cannot be told from text holding the character itself, so a workbook or sheet
with such text is read by openpyxl.
"""

from __future__ import annotations

import datetime as dt
import re
import zipfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import python_calamine
from openpyxl.packaging.core import DocumentProperties
from openpyxl.reader.excel import ExcelReader
from openpyxl.styles.stylesheet import apply_stylesheet
from openpyxl.utils.cell import coordinate_to_tuple, range_boundaries
from openpyxl.worksheet._reader import _cast_number
from openpyxl.xml.constants import SHARED_STRINGS

# The errors a broken or foreign file raises while it is opened (as openpyxl's were).
UNREADABLE = (zipfile.BadZipFile, KeyError, OSError, ValueError, python_calamine.CalamineError)

_DIMENSION = re.compile(rb'<dimension ref="([^"]+)"')
_LAST_ROW = re.compile(rb'<row r="(\d+)"')
# A row or cell element that does not start with its number or reference: the searches
# below need it first.
_UNNUMBERED = re.compile(rb"<c(?! r=\")[ >/]|<row(?! r=\")[ >/]")
# A cell's start: its reference and other attributes. The cells below are found by their
# value first (a search for a literal '<v>' is fast), then by the cell start before it.
_CELL_START = re.compile(rb'<c r="([A-Z]+\d+)"([^>]*)>')
# Numbers calamine cannot return as openpyxl would: whole but written with a point or an
# exponent (openpyxl keeps them float), or too long for a float to hold exactly.
_LITERAL_NUMBER = re.compile(rb"<v>(-?\d+\.0*|-?[\d.]+[eE][-+]?\d+|-?\d{16,})</v>")
_ANY_VALUE = re.compile(rb"<v>([^<]*)</v>")
_EMPTY_SHARED_STRING = re.compile(rb"<si>(?:<t[^>]*/>|<t[^>]*></t>)</si>|<si/>")
_SHARED_STRING = re.compile(rb"<si[ >/]")
# Text holding an escaped character ('_x000D_' for a carriage return): openpyxl keeps the
# escape as written, calamine reads the character.
_ESCAPE = re.compile(rb"_x[0-9A-Fa-f]{4}_")


class Worksheet:
    """One worksheet of a `Workbook`: `iter_rows(values_only=True[, max_row=N])`."""

    def __init__(self, workbook: Workbook, title: str, part: str) -> None:
        self.parent = workbook
        self.title = title
        self._part = part

    def iter_rows(
        self, *, values_only: bool = True, max_row: int | None = None
    ) -> Iterator[tuple[Any, ...]]:
        """Return the sheet's rows from row 1 as tuples of cell values, as openpyxl's
        read-only `iter_rows(values_only=True)` does."""
        if not values_only:
            raise ValueError("this reader yields cell values only (values_only=True)")
        xml = self.parent._archive.read(self._part)
        if self.parent._fallback is not None or _UNNUMBERED.search(xml) or _ESCAPE.search(xml):
            # A workbook only openpyxl can read faithfully (see Workbook); cells located by
            # position rather than by reference, which the XML searches cannot place; or
            # text in the sheet itself (inline or formula strings) holding an escaped
            # character, which calamine reads unescaped and openpyxl keeps as written.
            yield from self.parent._openpyxl()[self.title].iter_rows(
                values_only=True, max_row=max_row
            )
            return
        dimension = _dimension(xml)
        # openpyxl stops at the caller's last row, else at the dimension's, and never
        # goes past the last <row> element of the XML.
        if max_row is None and dimension is not None:
            max_row = dimension[3]
        rows = _last_row(xml) if max_row is None else min(max_row, _last_row(xml))
        width = dimension[2] if dimension is not None else None
        sheet = self.parent._calamine.get_sheet_by_name(self.title)
        values = sheet.to_python(skip_empty_area=False, nrows=rows) if rows else []
        fixes = self._fixes(xml)
        for number in range(1, rows + 1):
            cells = values[number - 1] if number <= len(values) else []
            row = [_value(v) for v in (cells if width is None else cells[:width])]
            if width is not None and len(row) < width:
                row.extend([None] * (width - len(row)))
            elif width is None:
                while row and row[-1] is None:
                    row.pop()
            for column, value in fixes.get(number, ()):
                if width is None or column <= width:
                    row.extend([None] * (column - len(row)))
                    row[column - 1] = value
            yield tuple(row)

    def _fixes(self, xml: bytes) -> dict[int, list[tuple[int, Any]]]:
        """Return row -> [(column, value)] for the cells whose openpyxl value calamine's
        value does not decide, read from the XML as openpyxl reads them."""
        fixes: dict[int, list[tuple[int, Any]]] = {}

        def fix(reference: bytes, value: Any) -> None:
            row, column = coordinate_to_tuple(reference.decode())
            fixes.setdefault(row, []).append((column, value))

        for reference, attributes, text in _cells(xml, _LITERAL_NUMBER):
            if _kind(attributes) == b"n" and _style(attributes) not in self.parent._date_styles:
                fix(reference, _cast_number(text.decode()))
        if b't="e"' in xml:
            for reference, attributes, text in _cells(xml, _ANY_VALUE):
                if _kind(attributes) == b"e":
                    fix(reference, text.decode() or None)
        for index in self.parent._empty_strings:
            for reference, attributes, _ in _cells(xml, re.compile(b"<v>(%d)</v>" % index)):
                if _kind(attributes) == b"s":
                    fix(reference, "")
        return fixes


class Workbook:
    """A read-only workbook: `sheetnames`, `workbook[name]`, `properties`, `close()`."""

    def __init__(self, path: str | Path) -> None:
        self._path = Path(path)
        # openpyxl reads the workbook's part list, date styles and properties (small XML);
        # calamine reads the cells.
        reader = ExcelReader(str(path), read_only=True, data_only=True)
        reader.read_manifest()
        reader.read_workbook()
        reader.read_properties()
        apply_stylesheet(reader.archive, reader.wb)
        self._archive = reader.archive
        self.properties: DocumentProperties = reader.wb.properties
        self.epoch = reader.wb.epoch
        self._parts = {
            sheet.name: rel.target
            for sheet, rel in reader.parser.find_sheets()
            if rel.target in reader.valid_files
        }
        self.sheetnames = list(self._parts)
        self._date_styles = set(reader.wb._date_formats)
        part = reader.package.find(SHARED_STRINGS)
        strings = self._archive.read(part.PartName[1:]) if part is not None else b""
        self._empty_strings = _empty_shared_strings(strings)
        self._fallback: Any = None
        if _ESCAPE.search(strings):
            # Calamine reads an escaped string like one holding the character itself;
            # which of the two the cell holds only openpyxl's reading keeps.
            self._openpyxl()
        self._calamine = python_calamine.CalamineWorkbook.from_path(str(path))

    def __getitem__(self, name: str) -> Worksheet:
        if name not in self._parts:
            raise KeyError(f"Worksheet {name} does not exist.")
        return Worksheet(self, name, self._parts[name])

    def close(self) -> None:
        self._calamine.close()
        self._archive.close()
        if self._fallback is not None:
            self._fallback.close()

    def _openpyxl(self) -> Any:
        """Return the workbook as openpyxl reads it, for a sheet calamine's values cannot
        be placed in."""
        if self._fallback is None:
            import openpyxl  # deferred: only an unusual sheet needs the slow reader

            self._fallback = openpyxl.load_workbook(self._path, read_only=True, data_only=True)
        return self._fallback


def _value(value: Any) -> Any:
    """Return calamine's cell value as openpyxl gives it (see the module docstring)."""
    kind = type(value)
    if kind is str:
        return value or None
    if kind is float:
        return int(value) if value.is_integer() else value
    if kind is dt.date:
        return dt.datetime(value.year, value.month, value.day)
    return value


def _cells(xml: bytes, value: re.Pattern[bytes]) -> Iterator[tuple[bytes, bytes, bytes]]:
    """Return (reference, attributes, value text) of each cell whose <v> matches `value`."""
    for found in value.finditer(xml):
        start = _CELL_START.match(xml, xml.rfind(b"<c ", 0, found.start()))
        # Only the cell's own value: no other cell's start between it and the value.
        if start is not None and xml.find(b"</c>", start.end(), found.start()) < 0:
            yield start.group(1), start.group(2), found.group(1)


def _kind(attributes: bytes) -> bytes:
    found = re.search(rb'\bt="([^"]*)"', attributes)
    return found.group(1) if found else b"n"


def _style(attributes: bytes) -> int:
    found = re.search(rb'\bs="(\d+)"', attributes)
    return int(found.group(1)) if found else 0


def _dimension(xml: bytes) -> tuple[int, int, int | None, int | None] | None:
    """Return the sheet's <dimension> (min col, min row, max col, max row) when it comes
    before the cells, as openpyxl finds it."""
    head = xml[: xml.find(b"<sheetData")]
    found = _DIMENSION.search(head)
    return range_boundaries(found.group(1).decode()) if found else None


def _last_row(xml: bytes) -> int:
    """Return the number of the sheet's last <row> element (0 when it has none)."""
    start = xml.rfind(b"<row ")
    found = _LAST_ROW.match(xml, start) if start >= 0 else None
    return int(found.group(1)) if found else 0


def _empty_shared_strings(xml: bytes) -> list[int]:
    """Return the indexes of the shared strings that are empty (openpyxl reads them as '',
    calamine as an empty cell)."""
    if not _EMPTY_SHARED_STRING.search(xml):
        return []
    empty = {m.start() for m in _EMPTY_SHARED_STRING.finditer(xml)}
    return [i for i, m in enumerate(_SHARED_STRING.finditer(xml)) if m.start() in empty]
