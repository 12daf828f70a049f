"""Fixtures every suite may use: a throwaway PostgreSQL server (`postgres_cluster`); and the
`slow` mark, given here to whole kinds of test so that `-m "not slow"` is a fast subset."""

from __future__ import annotations

import functools
from collections.abc import Iterator
from pathlib import Path

import pytest
from postgres_cluster import Cluster, start_cluster, unavailable_reason

TESTS = Path(__file__).parent
# Browser journeys and the benchmarks' own checks start whole apps and browsers.
SLOW_FOLDERS = {"e2e", "benchmarks"}
# A test on the PostgreSQL store waits for a server and copies of the demo store.
SLOW_FIXTURES = {"postgres_cluster"}
# Modules that read the real data files, start service processes, build stores or run
# whole pages: together they took three quarters of a full run's time on 2 cores.
SLOW_MODULES = {
    "service/harvest/test_harvest_ercot_gis.py",
    "service/harvest/test_harvest_queue_history.py",
    "service/harvest/test_harvest_cli.py",
    "service/harvest/test_harvest_tables.py",
    "service/harvest/test_harvest_cdr.py",
    "service/screening/test_real_data_screening.py",
    "service/screening/test_real_data_surroundings.py",
    "service/catalogue/test_queue_status_real_data.py",
    "service/store/search/test_search_impacts.py",
    "service/demo/test_demo_data.py",
    "service/demo/test_demo_edition.py",
    "service/demo/test_demo_reviews.py",
    "service/screening/test_readiness_weights.py",
    "security/test_workers.py",
    "security/test_faults.py",
    "security/test_app_recovery.py",
    "security/test_stored_input.py",
    "security/test_authentication.py",
    "security/test_idempotency_concurrency.py",
    "security/test_http_surface.py",
    "app/test_screen_site.py",
    "app/test_assessment.py",
    "app/test_assessment_surroundings.py",
    "app/test_assessment_queue_history.py",
    "app/test_grid_operations.py",
    "app/test_national_store.py",
    "app/test_portfolio.py",
    "app/test_reviews_page.py",
    "app/test_generation.py",
    "app/test_frame.py",
    "app/test_first_start.py",
    "app/test_queue.py",
    "app/test_queue_timeline.py",
    "app/test_filters_in_url.py",
    "app/test_dataset_notices.py",
    "app/test_components_derived.py",
    "service/harvest/test_harvest_territories.py",
    "service/screening/test_surroundings_national.py",
    "service/store/test_store_connections.py",
    "security/test_store_full.py",
    "security/test_token_cache.py",
    "test_import_structure.py",
    "service/runtime/test_page_cache.py",
    "service/routers/test_service_collections.py",
    "service/screening/test_surroundings_summary.py",
    "client/test_client_live.py",
    "security/test_property_level.py",
    "security/test_resource_caps.py",
    "app/test_site_report.py",
    "service/routers/test_service_schemathesis.py",
}


# Each worker runs whole modules (`--dist loadfile`), so a module-scoped store is built
# once. Modules are handed out in this order, the longest first (measured on 2 cores), so
# that no long module starts last while the other worker idles; the rest follow in
# collection order. (pytest-xdist would sort modules by their number of tests instead, so
# the one-test journeys of half a minute ran last: `--no-loadscope-reorder` keeps this
# order.) All browser journeys as one group on one worker was tried: that run took
# 18 min 56 s, this arrangement 17 min 58 s (17 min 55 s with this order, 29 Nov 2026).
FIRST_MODULES = (
    "service/harvest/test_harvest_history_archive.py",
    "e2e/test_map_picker.py",
    "service/routers/test_service_schemathesis.py",
    "service/screening/test_national_screening.py",
    "e2e/test_failure.py",
    "e2e/test_share_and_isolation.py",
    "service/store/test_postgres_store.py",
    "service/store/search/test_search_impacts.py",
    "app/test_screen_site.py",
    "e2e/test_inert_text.py",
    "e2e/test_analyst.py",
    "e2e/test_review_journey.py",
    "e2e/test_sales_demo.py",
    "app/test_assessment_surroundings.py",
    "security/test_deploy_recipe.py",
    "e2e/test_views_in_tabs.py",
    "e2e/test_plain_words.py",
    "e2e/test_surroundings_fold.py",
    "e2e/test_portfolio_journey.py",
    "security/test_concurrent_updates.py",
    "security/test_stateful_fuzzing.py",
    "service/harvest/test_harvest_build_deferral.py",
    "service/harvest/test_harvest_iso_queues.py",
    "app/test_assessment.py",
    "security/test_postgres_instances.py",
    "e2e/test_territory.py",
    "security/test_workers.py",
    "e2e/test_whole_figures.py",
    "e2e/test_login_journey.py",
    "security/test_faults.py",
    "e2e/test_surroundings_months.py",
    "service/demo/test_demo_data.py",
    "e2e/test_links_connect_at_the_root.py",
    "e2e/test_map_rows_served.py",
    "service/harvest/test_harvest_queue_history.py",
    "service/harvest/test_harvest_ercot_gis.py",
    "security/test_http_surface.py",
)


def run_order(item: pytest.Item) -> int:
    """Return where a test's module stands in `FIRST_MODULES`, or after all of them."""
    relative = item.path.relative_to(TESTS).as_posix()
    return FIRST_MODULES.index(relative) if relative in FIRST_MODULES else len(FIRST_MODULES)


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Put the long modules first (a stable sort: the rest keep their order), and mark the
    slow kinds of test `slow` (a module marks its own slow tests as well)."""
    items.sort(key=run_order)
    for item in items:
        relative = item.path.relative_to(TESTS)
        if (
            relative.parts[0] in SLOW_FOLDERS
            or relative.as_posix() in SLOW_MODULES
            or SLOW_FIXTURES & set(item.fixturenames)
        ):
            item.add_marker(pytest.mark.slow)


def pytest_configure(config: pytest.Config) -> None:
    """Scan the installed packages for Streamlit components once per test process.

    Every new `AppTest` scans the metadata of every installed distribution for custom
    components on its first run (0.36 processor-seconds each, several hundred AppTests in a
    run: about a tenth of a full run's processor time). The installed packages do not change
    while the tests run, so the first scan's answer stands for the rest; the app's own
    components are declared by its code and are not part of that scan.
    """
    try:
        from streamlit.components.v2 import manifest_scanner
    except ImportError:  # an older or newer Streamlit without the scan: nothing to keep
        return
    scan = getattr(manifest_scanner, "scan_component_manifests", None)
    if scan is not None and not hasattr(scan, "cache_info"):
        manifest_scanner.scan_component_manifests = functools.cache(scan)


@pytest.fixture(scope="session")
def postgres_cluster() -> Iterator[Cluster]:
    """One PostgreSQL server for the session, removed at its end; skips when none can run."""
    reason = unavailable_reason()
    if reason is not None:
        pytest.skip(reason)
    cluster = start_cluster()
    try:
        yield cluster
    finally:
        cluster.remove()


@pytest.fixture
def postgres_url(postgres_cluster: Cluster) -> str:
    """The URL of a new, empty database on the session's server."""
    return postgres_cluster.new_database()


@pytest.fixture(scope="session")
def postgres_demo_template(postgres_cluster: Cluster) -> str:
    """The name of a database holding the demo store (scale 1); copy it before writing."""
    from gridservice.demo import build_demo_database
    from gridservice.store.db import connect, init_schema

    url = postgres_cluster.new_database()
    conn = connect(url)
    try:
        init_schema(conn)
        build_demo_database(conn)
        conn.commit()
    finally:
        conn.close()
    return url.rsplit("/", 1)[1]


@pytest.fixture
def postgres_demo_url(postgres_cluster: Cluster, postgres_demo_template: str) -> str:
    """The URL of a new database holding a copy of the demo store (no demo build to wait on)."""
    return postgres_cluster.new_database(template=postgres_demo_template)
