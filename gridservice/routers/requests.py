"""Request bodies: the site definition, the territory request, the export request, and the
screening request's lack of one."""

from __future__ import annotations

import datetime as dt
import json
from typing import Annotated, Any, Literal

from fastapi import Request
from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    StringConstraints,
    field_validator,
    model_validator,
)

from gridservice.routers.bounds import FreeForm, NulFree, Text200
from gridservice.runtime.errors import ApiError

# Every request body: unknown members refused, types exact, no NaN or infinity.
FORBID = ConfigDict(extra="forbid", strict=True, allow_inf_nan=False)
# A calendar date of this century (JSON Schema says this much; validators refuse a day the
# month does not have).
DATE_PATTERN = r"^(20[0-9]{2}|2100)-(0[1-9]|1[0-2])-(0[1-9]|[12][0-9]|3[01])$"
# A date as YYYY-MM-DD; `format: date` tells clients (and generated requests) it must also
# be a day of the calendar, which the pattern cannot say (2100-06-31 matches it).
CalendarDate = Annotated[
    str, StringConstraints(pattern=DATE_PATTERN), Field(json_schema_extra={"format": "date"})
]


class SiteLocation(BaseModel):
    model_config = FORBID
    latitude: float = Field(ge=-90, le=90)
    longitude: float = Field(ge=-180, le=180)


class SiteAddress(BaseModel):
    model_config = FORBID
    addressLine1: Text200 | None = None
    addressLine2: Text200 | None = None
    locality: Text200 | None = None
    region: Text200 | None = None
    postalCode: Text200 | None = None
    countryCode: Annotated[str, StringConstraints(pattern=r"^[A-Z]{2}$")] | None = None


MetadataKey = Annotated[str, StringConstraints(max_length=64), NulFree]
MetadataValue = Annotated[str, StringConstraints(max_length=500, strip_whitespace=True), NulFree]


class SiteDefinition(BaseModel):
    """What a client sends to create a site; bounds as docs/ARCHITECTURE.md lists them."""

    model_config = FORBID
    requestedPeakLoadMw: float = Field(gt=0, le=5000)
    location: SiteLocation
    averageLoadMw: float | None = Field(
        default=None, ge=0, le=5000, description="At most requestedPeakLoadMw."
    )
    curtailableMw: float | None = Field(
        default=None, ge=0, le=5000, description="At most requestedPeakLoadMw."
    )
    serviceVoltageKv: float | None = Field(default=None, gt=0, le=1000)
    targetInServiceDate: CalendarDate | None = None
    loadProfile: Literal["flat", "diurnal", "seasonal", "variable"] | None = None
    redundancy: Literal["none", "n_plus_1", "2n"] | None = None
    rampProfile: Annotated[list[dict[str, Any]], FreeForm] | None = Field(
        default=None, max_length=100
    )
    onSiteGeneration: Annotated[list[dict[str, Any]], FreeForm] | None = Field(
        default=None, max_length=50
    )
    energyStorage: Annotated[dict[str, Any], FreeForm] | None = None
    address: SiteAddress | None = None
    customerReference: Text200 | None = None
    metadata: dict[MetadataKey, MetadataValue] | None = Field(default=None, max_length=50)

    @field_validator("targetInServiceDate")
    @classmethod
    def _real_date(cls, value: str | None) -> str | None:
        if value is not None:
            dt.date.fromisoformat(value)  # ValueError names an impossible day such as 02-30
        return value

    @model_validator(mode="after")
    def _within_peak(self) -> SiteDefinition:
        for name in ("averageLoadMw", "curtailableMw"):
            value = getattr(self, name)
            if value is not None and value > self.requestedPeakLoadMw:
                raise ValueError(f"{name} ({value}) must not exceed requestedPeakLoadMw")
        return self


class SitePatch(BaseModel):
    """What a client sends to rename or archive a site (PATCH, an extension).

    A member left out stays as it is; `customerReference` or `metadata` sent as null clears
    it; `metadata` sent replaces the whole object. At least one member is sent.
    """

    model_config = ConfigDict(
        extra="forbid", strict=True, allow_inf_nan=False, json_schema_extra={"minProperties": 1}
    )
    customerReference: Text200 | None = None
    metadata: dict[MetadataKey, MetadataValue] | None = Field(default=None, max_length=50)
    archived: bool = Field(
        default=None,  # type: ignore[assignment]  # absent: left as it is; never sent as null
        description="true archives the site (it leaves the default list), false brings it back.",
    )

    @model_validator(mode="after")
    def _something(self) -> SitePatch:
        if not self.model_fields_set:
            raise ValueError("send at least one of customerReference, metadata, archived")
        return self


def _swapped_hint(value: Any) -> str | None:
    if not (isinstance(value, list | tuple) and len(value) == 2):
        return None
    if not all(isinstance(v, int | float) and not isinstance(v, bool) for v in value):
        return None
    lon, lat = value
    if -180 <= lon <= 180 and -90 <= lat <= 90:
        return None
    if -90 <= lon <= 90 and -180 <= lat <= 180:
        return (
            f"coordinates {list(value)} are out of range as [longitude, latitude] but valid "
            f"swapped: GeoJSON order is [longitude, latitude], did you mean [{lat}, {lon}]?"
        )
    return (
        f"coordinates {list(value)} are out of range: longitude must be within -180..180 "
        "and latitude within -90..90, in GeoJSON order [longitude, latitude]"
    )


Longitude = Annotated[float, Field(ge=-180, le=180, strict=True)]
Latitude = Annotated[float, Field(ge=-90, le=90, strict=True)]


class Point(BaseModel):
    model_config = FORBID
    type: Literal["Point"]
    coordinates: tuple[Longitude, Latitude] = Field(
        description="GeoJSON order: [longitude, latitude].", strict=False
    )

    @field_validator("coordinates", mode="before")
    @classmethod
    def _in_range(cls, value: Any) -> Any:
        hint = _swapped_hint(value)
        if hint:
            raise ValueError(hint)
        return value


class TerritoryRequest(BaseModel):
    model_config = FORBID
    location: Point


async def refuse_screening_body(request: Request) -> None:
    """Screening takes no body: none, `{}` or `null` is accepted, anything else refused 422,
    as every other POST refuses a field it does not know."""
    raw = (await request.body()).strip()
    if raw in (b"", b"{}", b"null"):
        return
    try:
        body = json.loads(raw)
    except ValueError:
        body = raw
    if body in ({}, None):
        return
    raise ApiError(
        422,
        "validation_failed",
        "body: screening takes no body; send none or {}.",
        errors=[{"field": "body", "message": "screening takes no body; send none or {}"}],
    )


class ExportRequest(BaseModel):
    model_config = FORBID
    format: Literal["csv"]
