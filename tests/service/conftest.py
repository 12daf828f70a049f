"""Service fixtures: a fresh store per test module, with small records written directly."""

from __future__ import annotations

import shutil
import sqlite3
from collections.abc import Iterator
from pathlib import Path

import pytest
from demo_store import demo_store_copy
from fastapi.testclient import TestClient
from service_support import seed_small_store
from shared_build import built_once

from gridservice.app import create_app
from gridservice.settings import Settings


@pytest.fixture(scope="module", params=["sqlite", "postgresql"])
def store_backend(request: pytest.FixtureRequest) -> str:
    """Each module that uses the service runs once per store backend."""
    return request.param


@pytest.fixture(scope="module")
def small_db(
    store_backend: str, request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Path | str:
    """The small known store: a SQLite file, or the URL of a PostgreSQL database."""
    if store_backend == "postgresql":
        location: Path | str = request.getfixturevalue("postgres_cluster").new_database()
    else:
        location = tmp_path_factory.mktemp("store") / "service.db"
    seed_small_store(location)
    return location


@pytest.fixture(scope="module")
def client(small_db: Path | str) -> Iterator[TestClient]:
    settings = Settings.for_store(small_db, secret_key=b"k" * 32, rate_limit_burst=100000)
    app = create_app(settings)
    with TestClient(app, raise_server_exceptions=False) as test_client:
        yield test_client


@pytest.fixture(scope="module")
def demo_with_db(tmp_path_factory) -> Iterator[tuple[TestClient, sqlite3.Connection]]:
    """The demo store (SQLite) served in-process, rate limits out of the way, and a direct
    connection to it for checking answers against the stored rows."""
    db_path = demo_store_copy(tmp_path_factory.mktemp("demo") / "demo.db")
    app = create_app(Settings(db_path=db_path, demo=True, rate_limit_burst=10**6))
    with TestClient(app, raise_server_exceptions=False) as test_client:
        conn = sqlite3.connect(db_path)
        yield test_client, conn
        conn.close()


@pytest.fixture(scope="session")
def census_counties_store(tmp_path_factory) -> tuple[Path, dict]:
    """A store holding only the Census county outlines, harvested once per test run (about
    10 s), and the run that loaded them: a module copies the file
    (`harvest_support.counties_store`) instead of harvesting the outlines again."""
    from gridservice.harvest import census, run_harvest
    from gridservice.store import db

    def build(path: Path) -> dict:
        conn = db.connect(path)
        try:
            db.init_schema(conn)
            return run_harvest(conn, "census-counties", census.default_path()).run
        finally:
            conn.close()

    return built_once(tmp_path_factory, "counties.db", build)


# The files of a store for screening anywhere in the country: the EIA-861 county listing,
# HIFLD's territories and ISO boundaries, the six ISOs' January 2025 queues and the national
# plants file, harvested in this order over the Census counties.
NATIONAL_FILES = (
    ("eia861", "eia861/Service_Territory_2024.xlsx"),
    ("hifld-territories", "hifld_territories/hifld_electric_retail_service_territories.geojson"),
    ("hifld-iso", "hifld_territories/hifld_independent_system_operators.geojson"),
    ("pjm-queue", "iso_queues_2025_01/pjm_serial_service_request_status_2025-01.xlsx"),
    ("miso-queue", "iso_queues_2025_01/miso_gi_interactive_queue_2025-01.csv"),
    ("spp-queue", "iso_queues_2025_01/spp_gi_active_requests_2025-01.xlsx"),
    ("caiso-queue", "iso_queues_2025_01/caiso_queue_report_2025-01-23.xlsx"),
    ("nyiso-queue", "iso_queues_2025_01/nyiso_interconnection_queue_2025-01.xlsx"),
    ("isone-queue", "iso_queues_2025_01/isone_queue_report_2025-01-23.xlsx"),
    ("eia-plants", "eia_plants/eia_power_plants_202305_us.csv"),
)


@pytest.fixture(scope="session")
def national_build(census_counties_store, tmp_path_factory) -> tuple[Path, dict]:
    """A store of the whole country harvested once per test run from the real files
    (`NATIONAL_FILES` over a copy of the counties store, about a minute; copy it before
    writing), and each file's harvest run by file name. Skips when a file is absent."""
    from gridservice.harvest import run_harvest
    from gridservice.store import db

    data = Path(__file__).resolve().parents[2] / ".." / "shared" / "data"
    missing = [relative for _, relative in NATIONAL_FILES if not (data / relative).is_file()]
    if missing:
        pytest.skip(f"shared public data files are absent: {', '.join(missing)}")

    def build(path: Path) -> dict:
        shutil.copyfile(census_counties_store[0], path)
        conn = db.connect(path)
        try:
            return {
                relative.rsplit("/", 1)[-1]: run_harvest(conn, source, data / relative).run
                for source, relative in NATIONAL_FILES
            }
        finally:
            conn.close()

    return built_once(tmp_path_factory, "national.db", build)


@pytest.fixture(scope="session")
def national_store(national_build) -> Path:
    """The file of `national_build`: copy it before writing."""
    return national_build[0]
