"""Browser journeys: one demo database, one `streamlit run app.py` and one Chromium per session.

The demo database is built once in a temporary folder by a reference service in this
process; the app's embedded service opens the same file (`GRIDSERVICE_DB`), so the tests can
ask the service, through gridclient, what the page should have shown. Each test gets a fresh
browser context (no shared cookies or session) and fails if the browser console reports an
error other than the offline basemap requests named in `e2e_browser.ALLOWED_FAILED_HOSTS`.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import pytest
from demo_store import demo_store_copy
from e2e_browser import (
    APP_TIMEOUT_MS,
    CHROMIUM,
    CHROMIUM_ARGS,
    INSTALL_HINT,
    NO_SAVE_PICKER,
    VIEWPORT,
    ConsoleWatch,
    open_page,
    start_streamlit,
)
from playwright.sync_api import BrowserContext, Page

ALPHA_TOKEN, BETA_TOKEN = "gds_demo_alpha", "gds_demo_beta"


@pytest.fixture(scope="session", autouse=True)
def patient_expectations():
    """Give `expect(...)` the app's patience, not Playwright's 5 s: an element a rerun draws can
    take longer on a busy CI machine. Waiting, never a timing assertion."""
    from playwright.sync_api import expect

    expect.set_options(timeout=APP_TIMEOUT_MS)


def pytest_collection_modifyitems(config, items):
    for item in items:
        if "tests/e2e/" in item.nodeid.replace("\\", "/"):
            item.add_marker(pytest.mark.e2e)


@pytest.fixture(scope="session")
def chromium_path():
    if not CHROMIUM.exists():
        pytest.skip(INSTALL_HINT)
    return CHROMIUM


@pytest.fixture(scope="session")
def reference_service(chromium_path, tmp_path_factory):
    """Build a fresh demo database and serve it in this process (the tests' view of the data)."""
    from gridservice.runtime.server import start_in_thread
    from gridservice.settings import Settings

    db_path = demo_store_copy(tmp_path_factory.mktemp("e2e-demo") / "demo.db")
    server = start_in_thread(Settings(db_path=db_path, demo=True))
    server.db_path = db_path
    yield server
    server.stop()


def warm_up(browser, url: str) -> None:
    """Open the main page once, so the first journey does not pay for the process's first run
    (county outlines, the region's cells) and no journey depends on running first."""
    context = browser.new_context(viewport=VIEWPORT)
    try:
        open_page(context.new_page(), url)
    finally:
        context.close()


@pytest.fixture(scope="session")
def app_url(reference_service, browser, tmp_path_factory, alpha_assessment, beta_assessment):
    """Start `streamlit run app.py` on the embedded demo service over the session's database.

    The tenants' sites are made first: the app caches a tenant's site list for a minute, so
    a site made behind its back (through the service) would not show at once.
    """
    log_path = tmp_path_factory.mktemp("e2e-logs") / "streamlit.log"
    app = start_streamlit({"GRIDSERVICE_DB": str(reference_service.db_path)}, log_path)
    warm_up(browser, app.url)
    yield app.url
    app.stop()


@pytest.fixture(scope="session")
def browser(chromium_path):
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(chromium_path), args=CHROMIUM_ARGS)
        yield browser
        browser.close()


@pytest.fixture
def foreign_hosts() -> frozenset[str]:
    """Return the hosts (host:port) of pages not the app's whose console errors a journey
    leaves out: none, unless a module passes through such pages (a login provider's)."""
    return frozenset()


def journey_context(browser):
    """Return a new browser context as every journey sees it (the app's window size,
    downloads accepted, the save dialog answered)."""
    context = browser.new_context(viewport=VIEWPORT, accept_downloads=True)
    context.set_default_timeout(60_000)
    context.add_init_script(NO_SAVE_PICKER)
    return context


def fail_on_console_errors(watches: list[ConsoleWatch]) -> None:
    unexpected = [entry for watch in watches for entry in watch.unexpected()]
    if unexpected:
        pytest.fail("browser console errors during the journey:\n" + "\n".join(unexpected))


@pytest.fixture
def new_page(browser, foreign_hosts):
    """Return a factory of pages, each in its own fresh context, watched for console errors:
    for journeys about what a fresh browser sees (no cookies, no session, another tenant)."""
    contexts, watches = [], []

    def make():
        context = journey_context(browser)
        contexts.append(context)
        page = context.new_page()
        watch = ConsoleWatch(foreign_hosts=foreign_hosts)
        watch.attach(page)
        watches.append(watch)
        return page

    yield make
    for context in contexts:
        context.close()
    fail_on_console_errors(watches)


@dataclass
class KeptTab:
    """One browser tab kept for the session's journeys, with its console watch."""

    context: BrowserContext
    tab: Page | None = None
    watch: ConsoleWatch = field(default_factory=ConsoleWatch)

    def ready(self, foreign_hosts: frozenset[str]) -> Page:
        """Return the tab cleared for a journey: no cookies, the app's window size, an empty
        console watch (a new tab if a journey closed it)."""
        if self.tab is None or self.tab.is_closed():
            self.tab = self.context.new_page()
            self.watch = ConsoleWatch()
            self.watch.attach(self.tab)
        self.context.clear_cookies()
        self.tab.set_viewport_size(VIEWPORT)
        self.watch.errors.clear()
        self.watch.failed_basemap.clear()
        self.watch.foreign_hosts = foreign_hosts
        return self.tab


@pytest.fixture(scope="session")
def kept_tab(browser):
    """The session's kept tab. A new tab costs Chromium about twice the processor time of
    opening the app again in a tab it already has (3 processor-seconds a page more, measured
    on 2 cores), and every journey opens the app by its address, which starts a new app
    session anyway."""
    kept = KeptTab(journey_context(browser))
    yield kept
    kept.context.close()


@pytest.fixture
def page(kept_tab, foreign_hosts):
    """Return the session's kept tab, cleared for this journey; the journey fails on console
    errors of its own. Journeys about what a fresh browser sees use `new_page` instead."""
    tab = kept_tab.ready(foreign_hosts)
    yield tab
    if not tab.is_closed():
        # leave the app before the next journey, so no late message of this one counts there
        tab.goto("about:blank")
    fail_on_console_errors([kept_tab.watch])


@pytest.fixture(scope="session")
def alpha_client(reference_service):
    from gridclient import GridDataClient

    with GridDataClient(base_url=reference_service.base_url, token=ALPHA_TOKEN) as client:
        yield client


@pytest.fixture(scope="session")
def beta_client(reference_service):
    from gridclient import GridDataClient

    with GridDataClient(base_url=reference_service.base_url, token=BETA_TOKEN) as client:
        yield client


def _screened_site(client, reference: str) -> dict:
    """Create a site at the dual-certified demo point and screen it; return the assessment."""
    import uuid

    from gridservice.demo import DEMO_POINTS

    latitude, longitude = DEMO_POINTS["dual_certified"]
    definition = {
        "location": {"latitude": latitude, "longitude": longitude},
        "requestedPeakLoadMw": 120.0,
        "customerReference": reference,
    }
    site = client.sites.create(definition, idempotency_key=f"e2e-{uuid.uuid4()}")
    return client.assessments.create(site.id, idempotency_key=f"e2e-{uuid.uuid4()}").to_wire()


@pytest.fixture(scope="session")
def alpha_assessment(alpha_client):
    """An assessment of tenant demo-alpha, made through the service (not the page)."""
    return _screened_site(alpha_client, "e2e alpha site")


@pytest.fixture(scope="session")
def beta_assessment(beta_client):
    """An assessment of tenant demo-beta, made through the service (not the page)."""
    return _screened_site(beta_client, "e2e beta site")
