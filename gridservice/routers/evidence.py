"""Ranked full-text search over source evidence chunks."""

from __future__ import annotations

import re
from enum import StrEnum
from typing import Annotated

from fastapi import APIRouter, Query, Request
from starlette.responses import Response

from gridservice.routers.common import (
    MAX_ID,
    Cursor,
    FilterText,
    StrictQuery,
    codec,
    conn_for,
    problem_responses,
    utc_instant,
)
from gridservice.routers.models import EvidenceChunk, Page
from gridservice.runtime.errors import ApiError
from gridservice.runtime.paging import ORDER_RANK_DESC_ID_ASC, envelope_bytes, json_bytes_response
from gridservice.store import collections

router = APIRouter(tags=["evidence"], dependencies=[StrictQuery], responses=problem_responses())

MAX_QUERY_CHARS = 500
MAX_SEARCH_TERMS = 16
_SEARCH_TERM = re.compile(r"\w+", re.UNICODE)  # the terms the store's FTS query is built from


def refuse_costly_query(q: str) -> None:
    """Refuse a `q` with more terms than one search may match (400 `too_many_search_terms`)."""
    terms = len(_SEARCH_TERM.findall(q))
    if terms > MAX_SEARCH_TERMS:
        raise ApiError(
            400,
            "too_many_search_terms",
            f"q has {terms} terms; a search takes at most {MAX_SEARCH_TERMS}.",
            errors=[{"field": "q", "message": f"at most {MAX_SEARCH_TERMS} terms"}],
        )


class Authority(StrEnum):
    federal_regulator = "federal_regulator"
    regulatory_order = "regulatory_order"
    approved_tariff = "approved_tariff"
    official_operator_dataset = "official_operator_dataset"
    official_utility_dataset = "official_utility_dataset"
    official_filing = "official_filing"
    official_planning_report = "official_planning_report"
    federal_aggregated_dataset = "federal_aggregated_dataset"
    officially_sponsored_synthesis = "officially_sponsored_synthesis"
    customer_supplied = "customer_supplied"
    other_public_source = "other_public_source"


class RedistributionPolicy(StrEnum):
    normalized_records_only = "normalized_records_only"
    public_redistribution = "public_redistribution"
    links_only = "links_only"
    review_before_redistribution = "review_before_redistribution"
    internal_analysis_only_pending_terms_review = "internal_analysis_only_pending_terms_review"


class ChunkKind(StrEnum):
    prose = "prose"
    table = "table"
    figure = "figure"


@router.get(
    "/v1/evidence-search",
    response_model=Page[EvidenceChunk],
    summary="Search source evidence",
    description="Weighted lexical, exact-phrase and prefix matching; ordered rank_desc_id_asc.",
)
def search_evidence(
    request: Request,
    q: Annotated[
        str,
        Query(
            min_length=1,
            max_length=MAX_QUERY_CHARS,
            description=f"Search text: at most {MAX_QUERY_CHARS} characters and "
            f"{MAX_SEARCH_TERMS} words; the last word also matches as a prefix.",
        ),
    ],
    source_id: FilterText = None,
    authority: Authority | None = None,
    redistribution_policy: RedistributionPolicy | None = None,
    kind: ChunkKind | None = None,
    page: Annotated[int | None, Query(ge=1, le=MAX_ID)] = None,
    known_at: Annotated[
        str | None, Query(max_length=64, json_schema_extra={"format": "date-time"})
    ] = None,
    cursor: Cursor = None,
    limit: Annotated[int, Query(ge=1, le=100, description="Page size, 1 to 100.")] = 20,
) -> Response:
    refuse_costly_query(q)
    filters = {
        "source_id": source_id,
        "authority": authority.value if authority else None,
        "redistribution_policy": redistribution_policy.value if redistribution_policy else None,
        "kind": kind.value if kind else None,
        "page": page,
        "known_at": utc_instant(known_at, "known_at"),
    }
    endpoint = request.scope["route"].path
    bound = {**filters, "q": q}
    after = None
    if cursor is not None:
        position = codec(request).decode(cursor, endpoint, bound)
        if (
            len(position) != 2
            or not isinstance(position[0], int | float)
            or not isinstance(position[1], str)
        ):
            raise ApiError(400, "malformed_cursor", "The cursor cannot be read.")
        after = (float(position[0]), position[1])
    rows = collections.evidence_search(
        conn_for(request), q, filters, after, limit + 1, request.app.state.search_cache
    )
    has_more = len(rows) > limit
    rows = rows[:limit]
    next_cursor = (
        codec(request).encode(endpoint, bound, [rows[-1][2], rows[-1][0]]) if has_more else None
    )
    bodies = [body[:-1] + f',"rank":{rank!r}}}' for _id, body, rank in rows]
    content = envelope_bytes(
        bodies,
        limit=limit,
        has_more=has_more,
        next_cursor=next_cursor,
        order=ORDER_RANK_DESC_ID_ASC,
    )
    return json_bytes_response(content)
