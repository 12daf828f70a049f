"""Release identity, the harvest-quality report and the health probe."""

from __future__ import annotations

import json

from fastapi import APIRouter, Request
from starlette.concurrency import run_in_threadpool
from starlette.responses import Response

from gridservice.routers.common import StrictQuery, conn_for, problem_responses
from gridservice.routers.models import Health, One, QualityReport, ReleaseIdentity
from gridservice.runtime.paging import json_bytes_response
from gridservice.security.auth import Tenant
from gridservice.store import meta_reads
from gridservice.store.backend import PooledConnections

router = APIRouter(tags=["release and quality"], dependencies=[StrictQuery])

METHODOLOGY = {
    "unit": "source record (one spreadsheet row, table row or API record)",
    "acceptanceRateDefinition": "acceptedRecords / inputRecords of a harvest run: rows that "
    "parsed into a stored record, whether or not they carry quality flags.",
    "note": "This report counts what the loaders accepted, rejected and flagged. It is not "
    "independent field-accuracy validation: a clean record is not thereby a correct one.",
}


@router.get(
    "/v1/release",
    response_model=One[ReleaseIdentity],
    summary="Identity of the running build, schema and data release",
    responses=problem_responses(),
)
def read_release(request: Request) -> Response:
    return json_bytes_response(request.app.state.release_bytes)


@router.get(
    "/v1/quality",
    response_model=QualityReport,
    summary="Harvest quality report",
    responses=problem_responses(),
)
def read_quality(request: Request, tenant: Tenant) -> Response:
    state = request.app.state
    quality = state.quality  # counted when the service started (`create_app`)
    runs = meta_reads.harvest_run_bodies(conn_for(request))
    tail = json.dumps(
        {
            "quality": quality,
            "scope": quality.get("scope") or "commercial-core",
            "release": state.release,
            "methodology": METHODOLOGY,
        },
        separators=(",", ":"),
        ensure_ascii=False,
    )
    content = '{"data":[' + ",".join(runs) + "]," + tail[1:]
    return json_bytes_response(content.encode("utf-8"))


@router.get(
    "/v1/health",
    response_model=Health,
    summary="Liveness probe (no authentication); `degraded` while the store has no room",
    responses=problem_responses((400, 406, 500, 503)),
)
async def health(request: Request) -> Response:
    # Answered on the event loop, not the worker threads: under a saturating load the probe
    # does not queue behind data requests (SELECT 1 takes microseconds). A pooled database
    # connection may have to wait for the server, so that check runs on a thread.
    # An unreachable database answers 503 store_unavailable (`errors`).
    # A store with no room for writes is degraded (200: reads still work, the service stays
    # in rotation and says writes cannot land).
    if isinstance(request.app.state.connections, PooledConnections):
        full = await run_in_threadpool(_store_full, request)
    else:
        full = _store_full(request)
    if full:
        return json_bytes_response(b'{"status":"degraded","store":"full"}')
    return json_bytes_response(b'{"status":"ok"}')


def _store_full(request: Request) -> bool:
    """Check the store answers; return whether its last write found no room."""
    conn = conn_for(request)
    conn.execute("SELECT 1").fetchone()
    return request.app.state.store_space.is_full(conn)
