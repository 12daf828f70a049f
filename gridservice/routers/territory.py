"""Resolve a point to candidate electric service territories."""

from __future__ import annotations

from fastapi import APIRouter, Depends, Request
from starlette.responses import Response

from gridservice.routers.common import POST_ERRORS, StrictQuery, conn_for, problem_responses
from gridservice.routers.idempotency import dumps, require_json
from gridservice.routers.models import OneWithMeta, TerritoryResolution
from gridservice.routers.requests import TerritoryRequest
from gridservice.runtime.paging import data_response
from gridservice.screening import resolve_service_territory
from gridservice.security.auth import Tenant

router = APIRouter(tags=["territory"], dependencies=[StrictQuery])


@router.post(
    "/v1/service-territory-resolutions",
    response_model=OneWithMeta[TerritoryResolution],
    summary="Resolve a point to service-territory candidates",
    description="`coordinates` are GeoJSON order: [longitude, latitude].",
    responses=problem_responses(tuple(s for s in POST_ERRORS if s != 409)),
    dependencies=[Depends(require_json)],
)
def resolve_territory(request: Request, tenant: Tenant, body: TerritoryRequest) -> Response:
    longitude, latitude = body.location.coordinates
    resolution = resolve_service_territory(conn_for(request), latitude, longitude)
    meta = {
        "coordinateOrder": "longitude_latitude",
        "candidateCount": len(resolution.get("candidates", [])),
        "confidenceBasis": "source_authority_heuristic_not_benchmark_accuracy",
    }
    return data_response(dumps(resolution), meta=meta)
