"""Reading a publisher's CSV file with clear errors: header check, 1-based line numbers."""

from __future__ import annotations

import csv
from collections.abc import Iterator

from gridservice.harvest._base import Asset, HarvestError


def csv_rows(
    asset: Asset, required: list[str], expected: str
) -> Iterator[tuple[int, dict[str, str]]]:
    """Yield (line number, row) for each data row; line 1 is the header."""
    try:
        handle = asset.path.open(newline="", encoding="utf-8-sig")
    except OSError as exc:
        raise HarvestError(f"{asset.file_name}: cannot open ({exc})") from exc
    with handle:
        try:
            reader = csv.DictReader(handle)
            header = reader.fieldnames or []
        except (UnicodeDecodeError, csv.Error) as exc:
            raise HarvestError(
                f"{asset.file_name}: not a CSV text file (expected {expected})"
            ) from exc
        missing = [c for c in required if c not in header]
        if missing:
            raise HarvestError(
                f"{asset.file_name}: no column {', '.join(repr(m) for m in missing)} "
                f"(expected {expected} with columns {', '.join(required)})"
            )
        try:
            yield from enumerate(reader, 2)
        except (UnicodeDecodeError, csv.Error) as exc:
            raise HarvestError(
                f"{asset.file_name}: unreadable CSV ({exc}); expected {expected}"
            ) from exc


def number(text: str | None) -> float | None:
    """Return a float, or None for blanks and markers such as 'MISSING'."""
    if text is None or not text.strip():
        return None
    try:
        return float(text.replace(",", ""))
    except ValueError:
        return None


def integer(text: str | None) -> int | None:
    value = number(text)
    return int(value) if value is not None and value.is_integer() else None


def text_or_none(text: str | None) -> str | None:
    return " ".join(text.split()) if text and text.strip() else None
