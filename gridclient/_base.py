"""The base of every record of the client: camelCase aliases, unknown fields kept."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict
from pydantic.alias_generators import to_camel

from gridclient._response import RawResponse


class GridModel(BaseModel):
    """Base of every record: camelCase aliases, unknown fields kept, raw response reachable."""

    model_config = ConfigDict(
        alias_generator=to_camel, populate_by_name=True, extra="allow", protected_namespaces=()
    )

    @property
    def raw(self) -> RawResponse | None:
        """The HTTP response this record was read from (single-record calls only)."""
        private = self.__pydantic_private__
        return private.get("_raw") if private else None

    def to_wire(self) -> dict[str, Any]:
        """The record as camelCase JSON-ready data (unknown fields included)."""
        return self.model_dump(by_alias=True, mode="json")
