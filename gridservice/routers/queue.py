"""Interconnection queue records, their details and their spreadsheet-row evidence."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Path, Request
from starlette.responses import Response

from gridservice.routers.common import (
    Cursor,
    Limit,
    StrictQuery,
    conn_for,
    page_response,
    problem_responses,
)
from gridservice.routers.models import (
    One,
    OneWithMeta,
    Page,
    QueueRecord,
    QueueRecordDetails,
    QueueRecordEvidence,
)
from gridservice.runtime.errors import ApiError
from gridservice.runtime.paging import data_response
from gridservice.store import collections

router = APIRouter(tags=["queue"], dependencies=[StrictQuery], responses=problem_responses())

RecordId = Annotated[str, Path(alias="recordId", max_length=200)]


@router.get("/v1/queue-records", response_model=Page[QueueRecord], summary="List queue records")
def list_queue_records(request: Request, cursor: Cursor = None, limit: Limit = 100) -> Response:
    return page_response(request, "queue-records", {}, cursor, limit)


def _record(request: Request, kind: str, record_id: str) -> str:
    body = collections.record_body(conn_for(request), kind, record_id)
    if body is None:
        raise ApiError(404, "queue_record_not_found", f"No queue record {record_id!r}.")
    return body


@router.get(
    "/v1/queue-records/{recordId}/details",
    response_model=One[QueueRecordDetails],
    summary="Read a queue record's details",
)
def read_queue_record_details(request: Request, record_id: RecordId) -> Response:
    return data_response(_record(request, "queue_record_details", record_id))


@router.get(
    "/v1/queue-records/{recordId}/evidence",
    response_model=OneWithMeta[QueueRecordEvidence],
    summary="Read a queue record's source evidence",
)
def read_queue_record_evidence(request: Request, record_id: RecordId) -> Response:
    body = _record(request, "queue_record_evidence", record_id)
    return data_response(body, meta={"recordId": record_id, "kind": "spreadsheet_row_evidence"})
