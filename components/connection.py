"""The one place that builds the client, starts the embedded demo service and keys caches.

Where the data comes from, in order:
1. `GRID_API_BASE_URL` / `GRID_API_TOKEN` in the environment, else `grid_api_base_url` /
   `grid_api_token` in `st.secrets`: a deployment, used as is.
2. Neither: the reference service is started once per process in a background thread on
   127.0.0.1 (port chosen by the system) on the demo database in a per-user data folder
   (`GRIDSERVICE_DB` points it at another file), and the app talks to it over HTTP. A store
   without the demo tokens (a harvested one) gets a token of tenant `local` issued by this
   process for itself, stored hashed like every token and revoked when the process exits.
   `GRID_API_TOKEN` set to a demo reviewer's token opens the embedded demo as that reviewer.

Where the deployment asks for a login (`components.login`), the deployment comes from the same
settings, but the token and tenant are the signed-in user's (their grant in secrets), never the
configured token nor the tenant switcher.

`connection_key()` is the session's deployment, token and tenant: the first argument of every
fetch in `components.data`, the only module that calls `client_for(key)`, so cached data
(shared by every session of the process) is keyed by tenant.
"""

from __future__ import annotations

import atexit
import hashlib
import os
import subprocess
import sys
import threading
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import streamlit as st

from components import login, state
from gridclient import GridDataClient
from gridservice.settings import Settings, default_db_path

if TYPE_CHECKING:
    from gridservice.runtime.server import RunningServer

# The reference service's server and token code are imported where the demo is embedded,
# never at import: a deployment never needs them, and they took 2 s of a fresh process's
# first page (FastAPI, the screening engine, the demo builder).

DEMO_TOKENS: dict[str, str] = {"demo-alpha": "gds_demo_alpha", "demo-beta": "gds_demo_beta"}
# The demo's fictional expert reviewers (`GRID_API_TOKEN` set to one, without a deployment,
# opens the embedded demo as that reviewer): token -> reviewer's name.
DEMO_REVIEWER_TOKENS: dict[str, str] = {
    "gds_demo_reviewer_avery": "fictional-reviewer-avery",
    "gds_demo_reviewer_blake": "fictional-reviewer-blake",
}
EMBEDDED_LABEL = "embedded demo service"
REPO_ROOT = Path(__file__).resolve().parents[1]
# The demo database's build in a process of its own, by database path: started when the
# server starts (`app.py`), it runs on another core while the first page's code loads.
_demo_builds: dict[str, subprocess.Popen] = {}
_demo_builds_lock = threading.Lock()
# The embedded service by database path: started once per process, as the server starts
# (`start_service_early`) or at the first page, whichever comes first.
_services: dict[str, RunningServer] = {}
_services_lock = threading.Lock()


@dataclass(frozen=True)
class ConnectionKey:
    """Which deployment and which credential: the key of the client and of every cache."""

    base_url: str
    token: str | None
    tenant: str
    embedded: bool = False
    signed_in: bool = False

    def __repr__(self) -> str:  # never print the token
        return f"ConnectionKey({self.base_url!r}, tenant={self.tenant!r})"


@dataclass(frozen=True)
class ConnectionInfo:
    """What the sidebar says about where the data comes from."""

    source: str
    base_url: str
    tenant: str
    embedded: bool
    demo: bool


def _setting(env_name: str, secret_name: str) -> str | None:
    value = os.environ.get(env_name)
    if value:
        return value
    try:
        value = st.secrets.get(secret_name)
    except Exception:  # no secrets.toml: the usual case on the demo
        return None
    return str(value) if value else None


def demo_db_path() -> Path:
    """Return the demo database file the embedded service uses (the service's per-user file)."""
    override = os.environ.get("GRIDSERVICE_DB")
    if override:
        return Path(override)
    return default_db_path()


def _embeds_demo() -> bool:
    """Return whether the app embeds the demo service: no deployment's address is set."""
    return _setting("GRID_API_BASE_URL", "grid_api_base_url") is None


def start_demo_build() -> None:
    """Start building the demo database in a process of its own when the app embeds the demo
    service and the database is not there yet; otherwise, or when started already, nothing.

    A first start spent half its processor time building the database before the service
    could start, on the one core the first page's code was loading on: started as the server
    starts, the build runs beside it (docs/BENCHMARKS.md, "First start").
    """
    if not _embeds_demo():
        return
    db_path = demo_db_path()
    with _demo_builds_lock:
        if db_path.exists() or str(db_path) in _demo_builds:
            return
        _demo_builds[str(db_path)] = subprocess.Popen(
            [sys.executable, "-m", "gridservice.demo.store_file", str(db_path)], cwd=REPO_ROOT
        )


def wait_for_demo_build(db_path: str) -> None:
    """Return once the demo database's build this process started at `db_path` has ended (at
    once when none runs); a build that failed leaves no file, and the embedded service then
    builds the database itself, as it did before the build had a process of its own."""
    with _demo_builds_lock:
        process = _demo_builds.get(db_path)
    if process is not None:
        process.wait()
        with _demo_builds_lock:
            _demo_builds.pop(db_path, None)


def start_service_early() -> None:
    """Start the embedded demo service in a thread of its own when the app embeds one (its
    database's build waited for); otherwise nothing.

    Called as the server starts (`app.py`): the app's process is idle while the browser loads
    the page, and the first page then finds the service started, or starting, instead of
    importing and starting it after its own code has loaded.
    """
    if not _embeds_demo():
        return
    thread = threading.Thread(
        target=embedded_service_at,
        args=(str(demo_db_path()),),
        name="embedded-service-start",
        daemon=True,
    )
    thread.start()


def embedded_service_at(db_path: str) -> RunningServer:
    """Return the embedded demo service on `db_path`, started once per process (a start under
    way in another thread is waited for)."""
    with _services_lock:
        server = _services.get(db_path)
        if server is None:
            # Deferred: the embedded service (FastAPI, uvicorn) loads only when no deployment
            # is set.
            from gridservice.app import prepare_openapi
            from gridservice.runtime.server import start_in_thread

            # while the demo database is built, or the browser loads the page
            prepare_openapi()
            wait_for_demo_build(db_path)
            server = start_in_thread(Settings(db_path=Path(db_path), demo=True))
            _services[db_path] = server
    return server


@st.cache_resource(show_spinner="Starting the embedded demo service…")
def _embedded_service(db_path: str):
    return embedded_service_at(db_path)


def start_embedded_service(meanwhile: Callable[[], object] | None = None) -> None:
    """Start the embedded demo service now, with its progress in the main area, when the app
    embeds one and its demo database is not built yet (a first start); otherwise nothing.

    The first start builds the demo database before any page can draw (in the process
    `start_demo_build` started, else started here), which left the main area blank with a
    spinner tucked in the sidebar. Drawn before the page, this says what is happening and
    that it happens once; then the service starts, under its own spinner. `meanwhile` is
    called while the database is built: what the first page needs of this process alone.
    """
    if not _embeds_demo():
        return
    db_path = demo_db_path()
    if db_path.exists():
        return
    with st.status("First start: building the demo database…", expanded=True) as progress:
        st.write(
            f"The demo database is built once, in {db_path.parent}; later starts reuse it. "
            "Screen a site opens here when it is ready."
        )
        start_demo_build()
        # Deferred, as in `_embedded_service`: imported here, the service's code (FastAPI,
        # the screening engine) loads on this core while the build runs on the other.
        from gridservice.runtime import server  # noqa: F401

        if meanwhile is not None:
            meanwhile()
        wait_for_demo_build(str(db_path))
        if not db_path.exists():  # that build failed: the service builds the database itself
            _embedded_service(str(db_path))
        progress.update(
            label="Demo database built: later starts reuse it.", state="complete", expanded=False
        )
    _embedded_service(str(db_path))


@st.cache_resource(show_spinner=False)
def _local_token(db_path: str) -> str | None:
    """Return None on a demo store; else a token of tenant `local` issued for this process
    (revoked when the process exits)."""
    # Deferred: the service's store (openpyxl, shapely) loads only for the embedded service.
    from gridservice.security.tokens import issue_local_token, revoke_token_quietly

    token = issue_local_token(db_path)
    if token is not None:
        atexit.register(revoke_token_quietly, db_path, token)
    return token


def connection_key() -> ConnectionKey:
    """Return the deployment and credential this session uses now (tenant switcher included)."""
    base_url = _setting("GRID_API_BASE_URL", "grid_api_base_url")
    token = _setting("GRID_API_TOKEN", "grid_api_token")
    if base_url is None:
        db_path = str(demo_db_path())
        server = _embedded_service(db_path)
        if login.required():
            return _signed_in_key(server.base_url, embedded=True)
        if token in DEMO_REVIEWER_TOKENS:
            return ConnectionKey(server.base_url, token, DEMO_REVIEWER_TOKENS[token], embedded=True)
        local_token = _local_token(db_path)
        if local_token is not None:
            from gridservice.security.tokens import LOCAL_TENANT  # deferred, as in _local_token

            return ConnectionKey(server.base_url, local_token, LOCAL_TENANT, embedded=True)
        tenant = state.demo_tenant()
        return ConnectionKey(server.base_url, DEMO_TOKENS[tenant], tenant, embedded=True)
    if login.required():
        return _signed_in_key(base_url.rstrip("/"), embedded=False)
    if token in DEMO_TOKENS.values():
        # a deployment of the demo database: the tenant switcher works there too, starting
        # from the configured token's tenant
        configured = next(t for t, demo_token in DEMO_TOKENS.items() if demo_token == token)
        tenant = state.demo_tenant(default=configured)
        return ConnectionKey(base_url.rstrip("/"), DEMO_TOKENS[tenant], tenant)
    return ConnectionKey(base_url.rstrip("/"), token, token_label(token))


def _signed_in_key(base_url: str, *, embedded: bool) -> ConnectionKey:
    grant = login.signed_in_grant(DEMO_TOKENS)
    if grant is None:
        # `login.gate` stops such a run before any page; should a caller come first, it stops
        # here too, rather than fall back to a tenant the user was not given
        st.stop()
    return ConnectionKey(base_url, grant.token, grant.tenant, embedded=embedded, signed_in=True)


def token_label(token: str | None) -> str:
    """Return a tenant label for a configured token that never reveals the token."""
    if not token:
        return "no token"
    return "token " + hashlib.sha256(token.encode("utf-8")).hexdigest()[:8]


@st.cache_resource(show_spinner=False)
def client_for(key: ConnectionKey) -> GridDataClient:
    """Return the process's client (one connection pool) for a deployment and credential."""
    return GridDataClient(base_url=key.base_url, token=key.token)


def is_demo(key: ConnectionKey | None = None) -> bool:
    """Return whether the session talks to a demo database with a demo tenant's token."""
    key = key or connection_key()
    return key.token in DEMO_TOKENS.values()


def connection_info() -> ConnectionInfo:
    """Return where the data comes from, for the sidebar."""
    key = connection_key()
    source = key.base_url
    if key.embedded:
        source = EMBEDDED_LABEL if is_demo(key) else f"embedded service on {demo_db_path().name}"
    return ConnectionInfo(
        source=source,
        base_url=key.base_url,
        tenant=key.tenant,
        embedded=key.embedded,
        # a signed-in user keeps the tenant they were given: no switcher
        demo=is_demo(key) and not key.signed_in,
    )
