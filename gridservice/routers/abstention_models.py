"""Response schema of an abstention: a dataset an answer leaves out because it covers other
markets only (the surroundings' `abstentions`, the assessment's `datasetAbstentions`)."""

from __future__ import annotations

from pydantic import BaseModel, Field


class Abstention(BaseModel):
    """A dataset the answer leaves out for some counties: it covers other markets only."""

    dataset: str
    title: str
    coversMarkets: list[str]
    missingForMarkets: list[str]
    countyFips: list[str] = Field(
        default_factory=list,
        description="The counties it is missing for (the queue history's); absent for a "
        "dataset missing for the site's market as a whole.",
    )
    asOf: str | None = Field(
        default=None,
        description="Extension: the newest date of the dataset where it is loaded.",
        json_schema_extra={"x-extension": True},
    )
    statement: str
