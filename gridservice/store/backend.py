"""Which database a store is: the one place that chooses between SQLite and PostgreSQL.

A store location is either a SQLite file path or a `postgresql://` URL (from
`--database-url` or `GRIDSERVICE_DATABASE_URL`). The
service's per-request connections come from `connections.connection_source(settings)`;
`store.db.connect` opens either kind of location.

A URL's password is never printed: every message names the URL through `redact_url`.
"""

from __future__ import annotations

import contextlib
import contextvars
import os
import sys
import threading
import weakref
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import SplitResult, unquote, urlsplit

from gridservice.store.pg import PgConnection

DATABASE_URL_ENV = "GRIDSERVICE_DATABASE_URL"
_SCHEMES = ("postgresql", "postgres")


class DatabaseUrlError(ValueError):
    """A database URL that cannot be used; the message never holds its password."""


class StoreUnavailable(RuntimeError):
    """The database cannot be reached now (down, restarting, out of connections)."""


def is_database_url(location: object) -> bool:
    return isinstance(location, str) and location.split(":", 1)[0].lower() in _SCHEMES


def redact_url(url: str) -> str:
    """Return `url` with its password (if any) replaced by `***`."""
    try:
        parts = urlsplit(url)
    except ValueError:
        return "(unparseable URL)"
    if parts.password is None:
        return url
    user = parts.username or ""
    host = parts.netloc.rsplit("@", 1)[1]
    return parts._replace(netloc=f"{user}:***@{host}").geturl()


def _scrub(text: str, url: str) -> str:
    """Remove the URL's password from a driver message, in case one echoes it."""
    with contextlib.suppress(ValueError):
        password = urlsplit(url).password
        if password:
            for form in {password, unquote(password)}:
                text = text.replace(form, "***")
    return text


def check_database_url(url: str) -> str:
    """Return `url` when it is a usable PostgreSQL URL; else raise DatabaseUrlError."""
    shown = redact_url(url)
    try:
        parts: SplitResult = urlsplit(url)
        port = parts.port
    except ValueError as exc:
        raise DatabaseUrlError(
            f"malformed database URL {shown}: {_scrub(str(exc), url)}; expected "
            "postgresql://user:password@host:port/database"
        ) from None
    if parts.scheme.lower() not in _SCHEMES:
        raise DatabaseUrlError(f"database URL {shown} must start with postgresql://")
    if not parts.path.strip("/") and "dbname=" not in parts.query:
        raise DatabaseUrlError(
            f"database URL {shown} names no database: postgresql://user@host:port/database"
        )
    if port is not None and not 0 < port < 65536:
        raise DatabaseUrlError(f"database URL {shown} has port {port}, outside 1-65535")
    from psycopg.conninfo import conninfo_to_dict  # deferred: psycopg loads for PostgreSQL only

    try:
        conninfo_to_dict(url)
    except Exception as exc:  # psycopg.ProgrammingError: libpq refused to parse it
        raise DatabaseUrlError(f"malformed database URL {shown}: {_scrub(str(exc), url)}") from None
    return url


def location_from(database_url: str | None, db_path: str | Path) -> str | Path:
    """Return the store to use: `--database-url`, else $GRIDSERVICE_DATABASE_URL, else `--db`
    (a file, or a URL given there)."""
    url = database_url or os.environ.get(DATABASE_URL_ENV) or None
    if url is None and is_database_url(str(db_path)):
        url = str(db_path)
    return check_database_url(url) if url else Path(db_path)


def describe(location: str | Path) -> str:
    """Return how to name a store in messages (a URL without its password)."""
    return redact_url(location) if is_database_url(location) else str(location)


def connect_postgres(url: str, *, connect_timeout: int = 10):
    """Return a PgConnection to the database at `url`; StoreUnavailable if unreachable."""
    import psycopg  # deferred: psycopg loads for PostgreSQL only

    try:
        raw = psycopg.connect(check_database_url(url), connect_timeout=connect_timeout)
    except psycopg.OperationalError as exc:
        raise StoreUnavailable(
            f"cannot connect to {redact_url(url)}: {_scrub(str(exc), url).strip()}"
        ) from None
    return PgConnection(raw)


def unavailable_errors() -> tuple[type[BaseException], ...]:
    """Exceptions that mean the database is unreachable now (answered 503, not 500).

    The driver's own are included once it is loaded: a process that never opened a
    PostgreSQL store cannot raise them, and need not spend start-up time importing it.
    """
    errors: list[type[BaseException]] = [StoreUnavailable]
    if "psycopg" in sys.modules:
        errors.append(sys.modules["psycopg"].OperationalError)
    if "psycopg_pool" in sys.modules:
        errors.append(sys.modules["psycopg_pool"].PoolTimeout)
    return tuple(errors)


# The pooled connection of the request being served (set by PooledConnections.scope).
_request_connection: contextvars.ContextVar[dict[str, Any] | None] = contextvars.ContextVar(
    "gridservice_request_connection", default=None
)


class PooledConnections:
    """PostgreSQL connections from a psycopg pool: one per request while it is served.

    A request takes a connection on its first query and gives it back when its response is
    sent (`scope`, entered by the service's middleware). Work outside a request (start-up)
    keeps one connection per thread, as the SQLite store does.

    A connection is lent without a check (a check is a round trip on every request): one the
    database closed meanwhile (a restart, an idle timeout) fails its first statement, which
    is then sent again, once, on a working connection after the pool has checked and
    replaced its idle ones (`_replace`). So a restarted database is reconnected to without a
    restart here, and without failing the requests that find its old connections.
    """

    def __init__(
        self, url: str, *, max_size: int = 10, timeout: float = 5.0, dialect: Any = None
    ) -> None:
        from psycopg_pool import ConnectionPool  # deferred: for PostgreSQL only

        self.url = check_database_url(url)
        self._dialect = dialect
        self._local = threading.local()
        self.pool = ConnectionPool(
            url,
            min_size=1,
            max_size=max_size,
            timeout=timeout,
            open=False,
            kwargs={"connect_timeout": max(1, int(timeout))},
            name="gridservice",
        )
        self.pool.open(wait=False)

    def _wrap(self, raw: Any):
        conn = PgConnection(raw, self._dialect, replace=self._replace)
        self._dialect = conn._dialect
        return conn

    def _getconn(self) -> Any:
        try:
            return self.pool.getconn()
        except Exception as exc:
            if isinstance(exc, unavailable_errors()):
                raise StoreUnavailable(
                    f"the database at {redact_url(self.url)} is unavailable"
                ) from None
            raise

    def _take(self):
        return self._wrap(self._getconn())

    def _replace(self, broken: Any) -> Any:
        """Give back a connection found broken (the pool drops it), have the pool check
        its idle ones (after a restart they are all broken), and lend a working one."""
        with contextlib.suppress(Exception):
            self.pool.putconn(broken)
        self.pool.check()
        return self._getconn()

    def _give_back(self, conn: Any) -> None:
        if conn.raw is None:  # found broken and given back, no other one to be had
            return
        with contextlib.suppress(Exception):
            conn.rollback()
        if self.pool.closed:
            conn.raw.close()
        else:
            self.pool.putconn(conn.raw)

    def get(self):
        holder = _request_connection.get()
        if holder is not None:
            if "conn" not in holder:
                holder["conn"] = self._take()
            return holder["conn"]
        held = getattr(self._local, "held", None)
        if held is None or held[0].raw is None or held[0].raw.closed:
            conn = self._take()
            held = (conn, weakref.finalize(threading.current_thread(), self._give_back, conn))
            self._local.held = held
        return held[0]

    @contextlib.contextmanager
    def scope(self) -> Iterator[None]:
        """Lend the requests served inside one connection, given back at the end."""
        holder: dict[str, Any] = {}
        token = _request_connection.set(holder)
        try:
            yield
        finally:
            _request_connection.reset(token)
            if "conn" in holder:
                self._give_back(holder["conn"])

    def forget_thread_connection(self) -> None:
        """Give this thread's start-up connection back to the pool."""
        held = getattr(self._local, "held", None)
        if held is not None:
            self._local.held = None
            held[1]()  # a finalizer runs once: the thread's end will not give it back again

    @property
    def open_count(self) -> int:
        return self.pool.get_stats().get("pool_size", 0)

    def close_all(self) -> None:
        self.pool.close()
