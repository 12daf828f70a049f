"""`create_app(settings)`: the FastAPI application of the reference Grid Data Service."""

from __future__ import annotations

import copy
import datetime as dt
import json
import logging
import secrets
from typing import Any

from fastapi import Depends, FastAPI
from fastapi.openapi.utils import get_openapi
from fastapi.responses import JSONResponse

from gridservice.catalogue.kept_quality import quality_report
from gridservice.catalogue.release import build_artifact_sha256, openapi_sha256, release_identity
from gridservice.demo.edition import retire_outdated
from gridservice.routers import (
    assessments,
    completion,
    evidence,
    facts,
    generation,
    grid,
    queue,
    review_cases,
    reviews,
    site_changes,
    site_edits,
    sites,
    surroundings,
    system,
    territory,
)
from gridservice.routers.models import Problem
from gridservice.runtime.errors import install_error_handlers
from gridservice.runtime.middleware import PooledConnectionMiddleware, RequestContextMiddleware
from gridservice.runtime.page_cache import PageCache, PageCacheMiddleware, SnapshotTag
from gridservice.runtime.paging import CursorCodec
from gridservice.runtime.versioning import NEWEST_VERSION
from gridservice.security.auth import current_principal, current_tenant, limiter_for
from gridservice.security.token_cache import TokenCache
from gridservice.settings import Settings
from gridservice.store import meta_reads, migrations, surroundings_summary
from gridservice.store.backend import PooledConnections
from gridservice.store.collections import RankedSearchCache
from gridservice.store.connections import connection_source
from gridservice.store.db import connect, init_schema
from gridservice.store.pg import is_postgres
from gridservice.store.search import impacts
from gridservice.store.write_room import StoreSpace

DESCRIPTION = """\
Reference implementation of the Grid Data Service v1: evidence-linked data about electric grid
siting and interconnection. Authenticate with `Authorization: Bearer <token>` (the demo
database has `gds_demo_alpha` and `gds_demo_beta`). Errors are `application/problem+json`.
Operations tagged **extensions** (`x-extension: true`) are this project's additions.
"""
_OPEN_PATHS = {"/v1/release", "/v1/health"}


def _secret_key(settings: Settings, conn) -> bytes:
    if settings.secret_key is not None:
        return settings.secret_key
    stored = meta_reads.set_meta_if_absent(conn, "service_secret_key", secrets.token_hex(32))
    return bytes.fromhex(stored)


def _retire_outdated_demo(settings: Settings) -> None:
    """Set a demo store built by other code aside, so a current one is built in its place."""
    if settings.demo and settings.database_url is None:
        aside = retire_outdated(settings.db_path)
        if aside is not None:
            logger.warning(
                "The demo store was built by another version of the service; it is kept as "
                "%s and a new one is built.",
                aside,
            )


def _ensure_data(settings: Settings, conn) -> None:
    if settings.demo and not meta_reads.has_public_data(conn):
        # Deferred: the demo builder (openpyxl) loads only when a demo store is built.
        from gridservice.demo import build_demo_database

        build_demo_database(conn, scale=settings.demo_scale)
        conn.commit()


logger = logging.getLogger("gridservice")

_openapi_cache: dict[str, Any] = {}

# OpenAPI links from each creation to what it makes readable: clients (and stateful fuzzers)
# follow a created site to its assessments, packet and export.
_LINKS: dict[tuple[str, str], dict[str, tuple[str, str, str]]] = {
    ("post", "/v1/sites"): {
        "ReadSite": ("get", "/v1/sites/{siteId}", "siteId"),
        "ScreenSite": ("post", "/v1/sites/{siteId}/assessments", "siteId"),
        "ListSiteAssessments": ("get", "/v1/sites/{siteId}/assessments", "siteId"),
    },
    ("post", "/v1/sites/{siteId}/assessments"): {
        "ReadAssessment": ("get", "/v1/assessments/{assessmentId}", "assessmentId"),
        "ReadExpertReviewPacket": (
            "get",
            "/v1/assessments/{assessmentId}/expert-review.json",
            "assessmentId",
        ),
        "ExportAssessment": ("post", "/v1/assessments/{assessmentId}/exports", "assessmentId"),
    },
    ("post", "/v1/assessments/{assessmentId}/exports"): {
        "ReadExport": ("get", "/v1/assessments/exports/{exportId}", "exportId"),
    },
}


def _add_links(schema: dict[str, Any]) -> None:
    """Declare `_LINKS` on the 201 response of each creating operation."""
    paths = schema.get("paths", {})
    for (method, path), links in _LINKS.items():
        response = paths[path][method]["responses"]["201"]
        response["links"] = {
            name: {
                "operationId": paths[target_path][target_method]["operationId"],
                "parameters": {parameter: "$response.body#/data/id"},
            }
            for name, (target_method, target_path, parameter) in links.items()
        }


def _openapi(app: FastAPI) -> dict[str, Any]:
    """Return the OpenAPI document; every app has the same routes, so it is built once."""
    if app.openapi_schema:
        return app.openapi_schema
    if "document" in _openapi_cache:
        app.openapi_schema = copy.deepcopy(_openapi_cache["document"])
        return app.openapi_schema
    schema = get_openapi(
        title=app.title,
        version=app.version,
        description=app.description,
        routes=app.routes,
        tags=[
            {"name": "extensions", "description": "Project additions to the published interface."}
        ],
    )
    components = schema.setdefault("components", {})
    components.setdefault("schemas", {})["Problem"] = Problem.model_json_schema(
        ref_template="#/components/schemas/{model}"
    )
    for path, operations in schema.get("paths", {}).items():
        for operation in operations.values():
            if path in _OPEN_PATHS:
                operation.pop("security", None)
            operation.setdefault("responses", {})
    _add_links(schema)
    schema["x-service-version"] = NEWEST_VERSION
    _openapi_cache["document"] = copy.deepcopy(schema)
    app.openapi_schema = schema
    return schema


def _prepare(settings: Settings, conn) -> tuple[bytes, str]:
    """What every app over this store does first: the schema (and any table a newer version
    adds), demo data if asked; return the stored secret key and deployment id."""
    if is_postgres(conn):
        migrations.prepare_for_serving(conn)
    else:
        init_schema(conn)
    _ensure_data(settings, conn)
    impacts.refresh(conn)
    surroundings_summary.refresh(conn)
    deployment_id = meta_reads.set_meta_if_absent(
        conn, "deployment_id", "dep_" + secrets.token_hex(8)
    )
    return _secret_key(settings, conn), deployment_id


def prepare_store(settings: Settings) -> None:
    """Prepare the store once, on a connection of its own.

    `serve --workers N` runs this in the parent so that its workers start on a ready store
    and agree on the key and the id (`gridservice.runtime.workers`).
    """
    _retire_outdated_demo(settings)
    conn = connect(settings.store_location)
    try:
        _prepare(settings, conn)
    finally:
        conn.close()


def _service_app() -> FastAPI:
    """Return the service's FastAPI application, before its routes."""
    return FastAPI(
        title="Grid Data Service (reference)",
        version="1.0.0",
        description=DESCRIPTION,
        openapi_url="/v1/openapi.json",
        docs_url="/v1/docs",
        redoc_url=None,
        # A redirect to the slash-less path would be built from the Host header; an unknown
        # path, a trailing slash included, is a 404 problem instead.
        redirect_slashes=False,
    )


def _route(app: FastAPI) -> None:
    """Add every operation's route to `app`, and its OpenAPI document."""
    authenticated = [Depends(current_tenant)]
    for module in (
        facts,
        generation,
        grid,
        queue,
        evidence,
        territory,
        sites,
        site_edits,
        site_changes,
        assessments,
        surroundings,
        completion,
    ):
        app.include_router(module.router, dependencies=authenticated)
    # Review cases: a reviewer's token reaches these (and nothing above), each route
    # deciding what a tenant's and a reviewer's token may do.
    app.include_router(review_cases.router, dependencies=[Depends(current_principal)])
    app.include_router(reviews.router, dependencies=[Depends(current_principal)])
    app.include_router(system.router)
    app.openapi = lambda: _openapi(app)


def prepare_openapi() -> None:
    """Build the OpenAPI document and its hash before any store is opened: the app that
    embeds the service calls it while the demo database is built or the browser loads the
    page. A start then finds both made (the hash in the user's cache folder, the document in
    this process), where the release's identity and the app's first question (its
    capabilities, read from the document) each built it, 1 to 1.5 processor-seconds."""
    app = _service_app()
    _route(app)
    openapi_sha256(build_artifact_sha256(), lambda: JSONResponse(app.openapi()).body)
    app.openapi()


def create_app(settings: Settings) -> FastAPI:
    """Build the service over its store (`settings.store_location`), demo data built if asked."""
    _retire_outdated_demo(settings)
    connections = connection_source(settings)
    conn = connections.get()
    secret_key, deployment_id = _prepare(settings, conn)

    app = _service_app()
    app.state.settings = settings
    app.state.connections = connections
    app.state.secret_key = secret_key
    app.state.cursor_codec = CursorCodec(app.state.secret_key, settings.cursor_ttl_seconds)
    app.state.rate_limiter = limiter_for(connections, settings.rate_limit())
    # Refused credentials draw one at a time: no user waits on them, and a guesser's
    # allowance stays exact across instances.
    app.state.refused_limiter = limiter_for(connections, settings.refused_rate_limit(), batch=1)
    app.state.search_cache = RankedSearchCache()
    # Each request's token lookup is a round trip on PostgreSQL: kept a short, stated time.
    app.state.token_cache = (
        TokenCache(settings.token_cache_seconds)
        if isinstance(connections, PooledConnections) and settings.token_cache_seconds > 0
        else None
    )
    # Room is back once the largest request body fits twice (the record and its replay).
    app.state.store_space = StoreSpace(
        None if settings.database_url else settings.db_path, 2 * settings.max_body_bytes
    )
    install_error_handlers(app)
    app.state.page_cache = PageCache(settings.page_cache_bytes)
    # The snapshot hash the cache answers on: read on every request on SQLite, kept a
    # short, stated time on PostgreSQL (a round trip per read).
    app.state.snapshot_tag = SnapshotTag(
        settings.data_check_seconds if isinstance(connections, PooledConnections) else 0.0
    )
    if settings.page_cache_bytes > 0:
        # Inside the request context: cached pages get the same request id, version header
        # and early refusals as every other answer.
        app.add_middleware(
            PageCacheMiddleware, cache=app.state.page_cache, snapshot=app.state.snapshot_tag
        )
    app.add_middleware(
        RequestContextMiddleware,
        max_body_bytes=settings.max_body_bytes,
        max_query_bytes=settings.max_query_bytes,
    )
    if isinstance(connections, PooledConnections):
        app.add_middleware(PooledConnectionMiddleware, connections=connections)
    _route(app)
    # The quality report is read once, here: the release's identity hashes it, and
    # /v1/quality serves it (`routers.system`) for the life of the process, as the release.
    # Counted again at the first /v1/quality, it held that request 13.4 s at demo scale 100
    # (bench/bench_quality.py); counted at every start, it took 6 s of each start on the full
    # build, so it is kept in the store with the data it counts (`kept_quality`).
    app.state.quality = quality_report(conn)
    app.state.release = release_identity(
        conn,
        openapi_sha=openapi_sha256(
            build_artifact_sha256(), lambda: JSONResponse(app.openapi()).body
        ),
        deployment_id=deployment_id,
        started_at=settings.started_at or dt.datetime.now(dt.UTC),
        quality=app.state.quality,
    )
    app.state.release_bytes = json.dumps(
        {"data": app.state.release}, separators=(",", ":")
    ).encode()
    if isinstance(connections, PooledConnections):
        connections.forget_thread_connection()
    return app
