"""Every registry of public datasets agrees with `gridservice.catalogue.dataset_declarations`.

A dataset the snapshot hash reads but no PostgreSQL trigger forgets is served stale from
the page cache; a route without a client resource, or a client resource no declaration
names, is a dataset half added. Each test names the registry that disagrees and how.
"""

from __future__ import annotations

import importlib
import inspect
import re
import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from demo_store import demo_store_copy

import components.data
import gridclient
from gridclient import GridDataClient
from gridservice.app import create_app
from gridservice.catalogue.dataset_declarations import (
    DATASETS,
    PROVENANCE_TABLES,
    UNHASHED_TABLES,
    hashed_tables,
)
from gridservice.catalogue.source_fields import PUBLISHER_NAMES
from gridservice.harvest.runner import SOURCES
from gridservice.runtime.page_cache import PAGE_FILTERS, PUBLIC_PAGES
from gridservice.settings import Settings
from gridservice.store import collections, db, meta_reads, quality_reads

MIGRATIONS = Path(db.__file__).parent / "postgresql"
# Routes and client resources of a tenant's own records (its review cases too) or of the
# service itself.
NOT_DATASET_ROUTES = (
    "/v1/sites",
    "/v1/assessments",
    "/v1/review-cases",
    "/v1/release",
    "/v1/quality",
    "/v1/health",
)
NOT_DATASET_RESOURCES = {"sites", "assessments", "exports", "reviews"}
PAGING = {"cursor", "limit"}


def _disagreement(
    registry: str, theirs: set[str], declared: set[str], against: str = "the declarations"
) -> str:
    return (
        f"{registry} disagrees with {against}: only in {registry}: "
        f"{sorted(theirs - declared)}; only in {against}: {sorted(declared - theirs)}"
    )


@pytest.fixture(scope="module")
def openapi(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """The service's OpenAPI document, built on an empty SQLite store."""
    store = tmp_path_factory.mktemp("declarations") / "service.db"
    return create_app(Settings.for_store(store, secret_key=b"k" * 32)).openapi()


@pytest.fixture(scope="module")
def sqlite_store(tmp_path_factory: pytest.TempPathFactory) -> Iterator[sqlite3.Connection]:
    """A fresh SQLite store with the service's schema."""
    conn = db.connect(tmp_path_factory.mktemp("declarations") / "schema.db")
    db.init_schema(conn)
    yield conn
    conn.close()


def _route_filters(openapi: dict[str, Any], path: str) -> set[str]:
    """Return a GET route's filters: its query parameters but paging, and its path
    parameters as the store names them (controlNumber -> control_number)."""
    parameters = openapi["paths"][path]["get"].get("parameters", [])
    query = {p["name"] for p in parameters if p["in"] == "query"} - PAGING
    in_path = {p["name"] for p in parameters if p["in"] == "path"}
    return query | {re.sub(r"(?<!^)([A-Z])", r"_\1", name).lower() for name in in_path}


def _postgres_snapshot_triggers() -> set[str]:
    """Return the tables whose changes forget the snapshot hash, read from the migrations."""
    tables: set[str] = set()
    for migration in sorted(MIGRATIONS.glob("*.sql")):
        sql = migration.read_text()
        for names, body in re.findall(r"ARRAY\[([^\]]*)\]\s*LOOP(.*?)END LOOP", sql, re.S):
            if "forget_data_snapshot" in body:
                tables |= set(re.findall(r"'(\w+)'", names))
        tables |= set(
            re.findall(
                r"CREATE TRIGGER \w+\s+AFTER [^;]*? ON (\w+)\s+FOR EACH STATEMENT "
                r"EXECUTE FUNCTION forget_data_snapshot\(\)",
                sql,
            )
        )
        tables -= set(re.findall(r"DROP TRIGGER (?:IF EXISTS )?\w+_snapshot ON (\w+)", sql))
    return tables


def test_snapshot_hash_reads_every_declared_table() -> None:
    hashed = {table for table, _order, _expr in meta_reads.DATA_TABLES}
    assert hashed == set(hashed_tables()), _disagreement(
        "meta_reads.DATA_TABLES", hashed, set(hashed_tables())
    )


def test_postgresql_triggers_forget_the_hash_on_every_declared_table() -> None:
    triggers = _postgres_snapshot_triggers()
    declared = set(hashed_tables()) | set(UNHASHED_TABLES)
    assert triggers == declared, _disagreement(
        "the PostgreSQL migrations' forget_data_snapshot triggers", triggers, declared
    )


def test_postgresql_migrations_create_every_declared_table() -> None:
    sql = "\n".join(m.read_text() for m in sorted(MIGRATIONS.glob("*.sql")))
    created = set(re.findall(r"CREATE TABLE (?:IF NOT EXISTS )?(\w+)", sql))
    missing = (set(hashed_tables()) | set(UNHASHED_TABLES)) - created
    assert not missing, f"declared tables no PostgreSQL migration creates: {sorted(missing)}"


def test_sqlite_schema_forgets_the_hash_on_every_declared_table(
    sqlite_store: sqlite3.Connection,
) -> None:
    tables = {
        name
        for (name,) in sqlite_store.execute("SELECT name FROM sqlite_master WHERE type = 'table'")
    }
    missing = (set(hashed_tables()) | set(UNHASHED_TABLES)) - tables
    assert not missing, f"declared tables store/schema.sql does not create: {sorted(missing)}"
    triggers = {
        table
        for (table,) in sqlite_store.execute(
            "SELECT tbl_name FROM sqlite_master WHERE type = 'trigger' AND sql LIKE ?",
            (f"%{meta_reads.SNAPSHOT_KEY}%",),
        )
    }
    assert triggers == set(hashed_tables()), _disagreement(
        "the SQLite schema's snapshot triggers", triggers, set(hashed_tables())
    )


def test_quality_report_counts_every_declared_dataset() -> None:
    assert list(quality_reads.DATASET_COUNTS) == [d.name for d in DATASETS], (
        "quality_reads.DATASET_COUNTS names other datasets, or in another order, than "
        f"the declarations: {list(quality_reads.DATASET_COUNTS)}"
    )
    for dataset in DATASETS:
        counted = re.search(r"FROM (\w+)", quality_reads.DATASET_COUNTS[dataset.name])
        assert counted and counted[1] in dataset.tables, (
            f"quality_reads.DATASET_COUNTS counts {dataset.name} in a table it does not "
            f"declare: {quality_reads.DATASET_COUNTS[dataset.name]}"
        )


def test_store_collections_page_declared_tables() -> None:
    declared = {name: d for d in DATASETS for name in d.collections.values()}
    public = {
        name for name, spec in collections.COLLECTIONS.items() if spec.table in hashed_tables()
    }
    assert public == set(declared), _disagreement(
        "store.collections.COLLECTIONS (its public ones)", public, set(declared)
    )
    for name, dataset in declared.items():
        table = collections.COLLECTIONS[name].table
        assert table in dataset.tables, (
            f"store.collections.COLLECTIONS[{name!r}] reads {table}, which {dataset.name} "
            f"does not declare"
        )


def test_routes_serve_declared_collections_with_their_filters(openapi: dict[str, Any]) -> None:
    declared = {path for d in DATASETS for path in (*d.collections, *d.routes)}
    served = {path for path in openapi["paths"] if not path.startswith(NOT_DATASET_ROUTES)}
    assert served == declared, _disagreement("the OpenAPI paths", served, declared)
    for dataset in DATASETS:
        for path, name in dataset.collections.items():
            spec = collections.COLLECTIONS[name]
            stored = set(spec.filters) | set(spec.always)
            assert _route_filters(openapi, path) == stored, _disagreement(
                f"the filters of GET {path}",
                _route_filters(openapi, path),
                stored,
                f"store.collections.COLLECTIONS[{name!r}]",
            )


def test_page_cache_answers_declared_pages_with_every_filter(openapi: dict[str, Any]) -> None:
    declared = {path for d in DATASETS for path in d.cached_pages}
    assert set(PAGE_FILTERS) == declared, _disagreement(
        "page_cache.PAGE_FILTERS", set(PAGE_FILTERS), declared
    )
    for dataset in DATASETS:
        for path in dataset.cached_pages:
            page = PUBLIC_PAGES[path]
            assert set(page.filters) == _route_filters(openapi, path), _disagreement(
                f"page_cache.PUBLIC_PAGES[{path!r}].filters",
                set(page.filters),
                _route_filters(openapi, path),
                f"the filters of GET {path}",
            )


def test_harvest_sources_load_declared_datasets_under_a_publisher_name() -> None:
    declared = {source for d in DATASETS for source in d.harvests}
    assert set(SOURCES) == declared, _disagreement("harvest.runner.SOURCES", set(SOURCES), declared)
    unnamed = {s.source_id for s in SOURCES.values()} - set(PUBLISHER_NAMES)
    assert not unnamed, f"harvested sources without a publisher's name: {sorted(unnamed)}"


@pytest.fixture(scope="module")
def client_resources() -> Iterator[dict[str, Any]]:
    """The resources of a client (that never sends a request), by attribute name."""
    with GridDataClient(base_url="http://service.test") as client:
        yield {
            name: resource
            for name, resource in vars(client).items()
            if not name.startswith("_") and hasattr(resource, "_transport")
        }


def _paths_called(resource: Any) -> set[str]:
    """Return the /v1 paths a resource's methods name, each {parameter} written {}."""
    source = "".join(inspect.getsource(kind) for kind in type(resource).__mro__[:-1])
    return {re.sub(r"\{[^}]*\}", "{}", path) for path in re.findall(r'"(/v1/[^"]*)"', source)}


def test_client_resources_call_declared_routes(client_resources: dict[str, Any]) -> None:
    resources = client_resources
    declared = {d.client_resource for d in DATASETS if d.client_resource}
    public = set(resources) - NOT_DATASET_RESOURCES
    assert public == declared, _disagreement("GridDataClient's resources", public, declared)
    for dataset in DATASETS:
        if dataset.client_resource is None:
            continue
        routes = {re.sub(r"\{[^}]*\}", "{}", p) for p in (*dataset.collections, *dataset.routes)}
        called = _paths_called(resources[dataset.client_resource])
        assert routes <= called, (
            f"client.{dataset.client_resource} does not call {sorted(routes - called)}, "
            f"which {dataset.name} declares"
        )


def test_client_models_read_every_field_of_declared_routes(openapi: dict[str, Any]) -> None:
    schemas = openapi["components"]["schemas"]
    for dataset in DATASETS:
        for path in (*dataset.collections, *dataset.routes):
            for method, operation in openapi["paths"][path].items():
                answer = operation["responses"]["200"]["content"]["application/json"]["schema"]
                wrapper = answer["$ref"].rsplit("/", 1)[-1]  # Page_X_, One_X_, OneWithMeta_X_
                name = re.fullmatch(r"(?:Page|One|OneWithMeta)_(\w+)_", wrapper)[1]
                assert name in gridclient.__all__, (
                    f"{method.upper()} {path} answers {name}, which gridclient does not export"
                )
                model = getattr(gridclient, name)
                read = {field.alias or key for key, field in model.model_fields.items()}
                unread = set(schemas[name].get("properties", {})) - read
                assert not unread, f"gridclient.{name} does not read {sorted(unread)} of {path}"


def test_app_fetches_read_declared_client_resources(client_resources: dict[str, Any]) -> None:
    modules = {
        path.stem: importlib.import_module(f"components.data.{path.stem}")
        for path in Path(components.data.__file__).parent.glob("*.py")
    }
    for dataset in DATASETS:
        for fetch in dataset.app_fetches:
            module, function = fetch.split(".")
            assert callable(getattr(modules[module], function, None)), (
                f"{dataset.name} declares the app fetch components.data.{fetch}, which is not there"
            )
    used: set[str] = set()
    for module in modules.values():
        source = inspect.getsource(module)
        used |= set(re.findall(r"client\(conn\)\.(\w+)", source))
        used |= set(re.findall(r"\bc\.(\w+)\.", source))
    datasets_used = used & (set(client_resources) - NOT_DATASET_RESOURCES)
    declared = {d.client_resource for d in DATASETS if d.app_fetches}
    assert datasets_used == declared, _disagreement(
        "the client resources components.data reads", datasets_used, declared
    )


def test_provenance_and_unhashed_tables_belong_to_no_dataset() -> None:
    declared = {t for d in DATASETS for t in d.tables}
    assert not declared & (set(PROVENANCE_TABLES) | set(UNHASHED_TABLES))


# Building the demo store takes seconds when no other test of the process built it first.
@pytest.mark.slow
def test_demo_store_holds_every_declared_dataset(tmp_path: Path) -> None:
    conn = db.connect(demo_store_copy(tmp_path / "demo.db"))
    try:
        rows = quality_reads.dataset_rows(conn)
    finally:
        conn.close()
    empty = [d.name for d in DATASETS if d.in_demo and not rows[d.name]]
    held = [d.name for d in DATASETS if not d.in_demo and rows[d.name]]
    assert not held, f"declared not in the demo, yet the demo store holds {held}"
    assert not empty, f"the demo store holds no rows of {empty}: gridservice/demo builds none"
