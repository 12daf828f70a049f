"""The source fields every evidence object carries (a service extension)."""

from __future__ import annotations

from gridclient._base import GridModel


class SourceFields(GridModel):
    """Service extension: a record's source in fields, beside its ``source_locator`` string.

    ``publisher`` is the publisher's title ("ERCOT GIS report"), ``edition`` the edition its
    file states ("November 2025"); ``file_name``, ``worksheet`` and ``row`` (1-based) say
    where in that file the record came from. Each is None where the service does not say.
    """

    publisher: str | None = None
    file_name: str | None = None
    worksheet: str | None = None
    row: int | None = None
    edition: str | None = None
