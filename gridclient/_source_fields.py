"""The source fields every evidence object carries (a service extension)."""

from __future__ import annotations

from gridclient._base import GridModel


class SourceName(GridModel):
    """Service extension: a source as its publisher names it, beside its ``source_id``.

    ``publisher`` is the publisher's title ("ERCOT GIS report"), ``edition`` the edition its
    file states ("November 2025"); None where the service does not say. Harvest runs and
    evidence chunks carry these; every evidence object carries them in ``SourceFields``.
    """

    publisher: str | None = None
    edition: str | None = None


class SourceFields(SourceName):
    """Service extension: a record's source in fields, beside its ``source_locator`` string.

    ``file_name``, ``worksheet`` and ``row`` (1-based) say where in the file named by
    ``publisher`` and ``edition`` the record came from. Each is None where the service does
    not say.
    """

    file_name: str | None = None
    worksheet: str | None = None
    row: int | None = None
