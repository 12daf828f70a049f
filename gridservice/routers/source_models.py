"""The source fields every evidence object carries as an extension (gridservice.catalogue.source_fields)."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field


def _extension(description: str) -> object:
    return Field(
        default=None,
        description=f"Extension: {description}",
        json_schema_extra={"x-extension": True},
    )


class SourceName(BaseModel):
    """Extension: a source as its publisher names it, beside its `sourceId`."""

    publisher: str | None = _extension("the publisher's title of the source ('ERCOT GIS report').")
    edition: str | None = _extension(
        "the edition the file states, in words ('November 2025', 'through 2024')."
    )


class SourceFields(SourceName):
    """Extension: the source of a record in fields, beside the `sourceLocator` string."""

    fileName: str | None = _extension("the file the record came from.")
    worksheet: str | None = _extension("the worksheet of that file; null for a CSV or a PDF.")
    row: int | None = _extension("the row (1-based) in that worksheet or file; null when none.")


class QueueRecordSource(SourceFields):
    """Extension: a queue record's source in fields (its locator is the record's own)."""

    model_config = ConfigDict(json_schema_extra={"x-extension": True})
