"""Compare the harvesters' workbook reader (calamine) with openpyxl on the real data.

Run by hand (reading every workbook with openpyxl takes minutes):

    uv run python scripts/check_workbook_reader.py [DATA_FOLDER] [NAME_SUBSTRING]

For every .xlsx under DATA_FOLDER (default ../shared/data) that the harvest runner
recognises as a source, every sheet (a superset of the sheets the harvesters open) is read
by both readers and compared cell by cell: value and type, and each row's length once
trailing empty cells are stripped. Prints each mismatch, then the files, sheets and cells
compared, the mismatch count and each reader's CPU seconds. Exits 1 on any mismatch.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path
from typing import Any

import openpyxl

from gridservice.harvest import runner
from gridservice.harvest._workbook import Workbook

SHOWN_PER_SHEET = 5


def _rows(workbook: Any, name: str) -> tuple[list[tuple[Any, ...]], float]:
    """Return a sheet's rows with trailing empty cells stripped, and the CPU seconds taken."""
    start = time.process_time()
    rows = []
    for row in workbook[name].iter_rows(values_only=True):
        row = list(row)
        while row and row[-1] is None:
            row.pop()
        rows.append(tuple(row))
    return rows, time.process_time() - start


def _mismatches(expected: list[tuple], got: list[tuple]) -> list[str]:
    """Return one line per differing row length or cell (value or type)."""
    found = []
    if len(expected) != len(got):
        found.append(f"{len(expected)} rows by openpyxl, {len(got)} by the adapter")
    for number, (want, have) in enumerate(zip(expected, got, strict=False), 1):
        if len(want) != len(have):
            found.append(f"row {number}: {len(want)} cells by openpyxl, {len(have)}")
        for column, (a, b) in enumerate(zip(want, have, strict=False), 1):
            if type(a) is not type(b) or a != b:
                found.append(f"R{number}C{column}: openpyxl {a!r}, adapter {b!r}")
    return found


def main(folder: Path, name_part: str = "") -> int:
    """Return the process exit status: 0 when the readers agree on every cell."""
    files = [
        p for p in sorted(folder.rglob("*.xlsx"))
        if runner.recognise(p) and name_part in p.name
    ]  # fmt: skip
    sheets = cells = mismatches = 0
    cpu = {"openpyxl": 0.0, "adapter": 0.0}
    for path in files:
        start = time.process_time()
        reference = openpyxl.load_workbook(path, read_only=True, data_only=True)
        cpu["openpyxl"] += time.process_time() - start
        start = time.process_time()
        adapter = Workbook(path)
        cpu["adapter"] += time.process_time() - start
        if reference.sheetnames != adapter.sheetnames:
            print(f"{path.name}: sheets {reference.sheetnames} != {adapter.sheetnames}")
            mismatches += 1
        for name in reference.sheetnames:
            expected, seconds = _rows(reference, name)
            cpu["openpyxl"] += seconds
            got, seconds = _rows(adapter, name)
            cpu["adapter"] += seconds
            found = _mismatches(expected, got)
            for line in found[:SHOWN_PER_SHEET]:
                print(f"{path.name}#{name}: {line}")
            sheets += 1
            cells += sum(len(row) for row in expected)
            mismatches += len(found)
        reference.close()
        adapter.close()
    print(
        f"{len(files)} files, {sheets} sheets, {cells} cells compared, {mismatches} mismatches;"
        f" CPU seconds: openpyxl {cpu['openpyxl']:.1f}, adapter {cpu['adapter']:.1f}"
    )
    return 1 if mismatches else 0


if __name__ == "__main__":
    arguments = sys.argv[1:]
    data = Path(arguments[0]) if arguments else Path(__file__).parents[1] / "../shared/data"
    sys.exit(main(data.resolve(), arguments[1] if len(arguments) > 1 else ""))
