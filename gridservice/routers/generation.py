"""Generators, generation plants and monthly generator operations."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Query, Request
from starlette.responses import Response

from gridservice.routers.common import (
    Cursor,
    FilterText,
    Limit,
    PlantId,
    StrictQuery,
    page_response,
    problem_responses,
)
from gridservice.routers.models import GenerationPlant, Generator, GeneratorOperation, Page

router = APIRouter(tags=["generation"], dependencies=[StrictQuery], responses=problem_responses())

Capacity = Annotated[float | None, Query(ge=0, allow_inf_nan=False)]
Period = Annotated[
    str | None,
    Query(pattern=r"^[0-9]{4}-(0[1-9]|1[0-2])$", description="YYYY-MM, month 01 to 12."),
]


@router.get("/v1/generators", response_model=Page[Generator], summary="List generators")
def list_generators(
    request: Request,
    state: FilterText = None,
    status: FilterText = None,
    ba_code: FilterText = None,
    source_id: Annotated[
        str | None,
        Query(max_length=200, description="Version from this source release; default current."),
    ] = None,
    technology: FilterText = None,
    plant_id: PlantId = None,
    min_capacity_mw: Capacity = None,
    max_capacity_mw: Capacity = None,
    cursor: Cursor = None,
    limit: Limit = 100,
) -> Response:
    filters = {
        "state": state,
        "status": status,
        "ba_code": ba_code,
        "source_id": source_id,
        "technology": technology,
        "plant_id": plant_id,
        "min_capacity_mw": min_capacity_mw,
        "max_capacity_mw": max_capacity_mw,
    }
    return page_response(request, "generators", filters, cursor, limit)


@router.get(
    "/v1/generation-plants", response_model=Page[GenerationPlant], summary="List generation plants"
)
def list_generation_plants(
    request: Request,
    state: FilterText = None,
    county: FilterText = None,
    ba_code: FilterText = None,
    cursor: Cursor = None,
    limit: Limit = 100,
) -> Response:
    filters = {"state": state, "county": county, "ba_code": ba_code}
    return page_response(request, "generation-plants", filters, cursor, limit)


@router.get(
    "/v1/generator-operations",
    response_model=Page[GeneratorOperation],
    summary="List monthly generator operations",
)
def list_generator_operations(
    request: Request,
    plant_id: PlantId = None,
    generator_id: FilterText = None,
    ba_code: FilterText = None,
    state: FilterText = None,
    period: Period = None,
    cursor: Cursor = None,
    limit: Limit = 100,
) -> Response:
    filters = {
        "plant_id": plant_id,
        "generator_id": generator_id,
        "ba_code": ba_code,
        "state": state,
        "period": period,
    }
    return page_response(request, "generator-operations", filters, cursor, limit)
