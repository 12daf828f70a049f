"""PostgreSQL schema migrations: ordered SQL files, each applied once.

The files are `gridservice/store/postgresql/NNNN_name.sql`. `schema_migrations` records each
applied one with the SHA-256 of its text. The head of the code is its last file; the head of
a database is its last recorded migration. They are written `NNNN_name@sha12`, so a file
edited after it was applied is a different head, not the same one.

`upgrade` brings a database to the code's head (the `migrate` command, and every command that
builds or writes a store). A serving instance only checks (`require_head`): it refuses to start
on a database at another head, so that two instances never serve two schemas.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass
from importlib import resources

from gridservice.store.pg import PgConnection

_FILE = re.compile(r"^(\d{4})_(\w+)\.sql$")


class MigrationHeadMismatch(RuntimeError):
    """The database and this code are at different migration heads."""


@dataclass(frozen=True)
class Migration:
    version: int
    name: str
    sql: str

    @property
    def sha256(self) -> str:
        return hashlib.sha256(self.sql.encode("utf-8")).hexdigest()

    @property
    def head(self) -> str:
        return f"{self.version:04d}_{self.name}@{self.sha256[:12]}"


def code_migrations() -> list[Migration]:
    """Return the migrations shipped with this code, in order."""
    folder = resources.files("gridservice.store.postgresql")
    found = []
    for entry in folder.iterdir():
        match = _FILE.match(entry.name)
        if match:
            found.append(Migration(int(match[1]), match[2], entry.read_text("utf-8")))
    return sorted(found, key=lambda m: m.version)


def code_head() -> str:
    return code_migrations()[-1].head


def _ensure_table(conn: PgConnection) -> None:
    conn.raw.execute(
        "CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, "
        "name TEXT NOT NULL, sha256 TEXT NOT NULL, applied_at TIMESTAMPTZ NOT NULL DEFAULT now())"
    )


def applied(conn: PgConnection) -> list[tuple[int, str, str]]:
    """Return (version, name, sha256) of each migration recorded in the database."""
    exists = conn.raw.execute("SELECT to_regclass('schema_migrations') IS NOT NULL").fetchone()
    if not exists[0]:
        return []
    return [
        (r[0], r[1], r[2])
        for r in conn.raw.execute("SELECT version, name, sha256 FROM schema_migrations ORDER BY 1")
    ]


def database_head(conn: PgConnection) -> str | None:
    """Return the head of the database (None when no migration was ever applied)."""
    rows = applied(conn)
    if not rows:
        return None
    version, name, sha256 = rows[-1]
    return f"{version:04d}_{name}@{sha256[:12]}"


def _check_history(conn: PgConnection, migrations: list[Migration]) -> None:
    """Refuse a database whose applied migrations are not a prefix of the code's."""
    by_version = {m.version: m for m in migrations}
    for version, name, sha256 in applied(conn):
        known = by_version.get(version)
        if known is None or known.sha256 != sha256 or known.name != name:
            raise MigrationHeadMismatch(
                f"the database is at migration head {database_head(conn)}, this code at "
                f"{code_head()}: migration {version:04d}_{name} differs from this code's "
                "(a newer or different release of gridservice migrated this database)"
            )


def upgrade(conn: PgConnection) -> list[str]:
    """Apply every pending migration in one transaction; return the heads applied.

    The transaction holds the store's write lock (`BEGIN IMMEDIATE`), so instances starting
    together on an empty database apply each migration once.
    """
    migrations = code_migrations()
    conn.commit()
    with conn:
        conn.execute("BEGIN IMMEDIATE")
        _ensure_table(conn)
        _check_history(conn, migrations)
        done_versions = {row[0] for row in applied(conn)}
        pending = [m for m in migrations if m.version not in done_versions]
        for migration in pending:
            conn.raw.execute(migration.sql)
            conn.raw.execute(
                "INSERT INTO schema_migrations(version, name, sha256) VALUES (%s, %s, %s)",
                (migration.version, migration.name, migration.sha256),
            )
    conn.refresh_dialect()
    return [m.head for m in pending]


def require_head(conn: PgConnection) -> str:
    """Return the database's head when it is the code's; else raise, naming both."""
    _check_history(conn, code_migrations())
    current, wanted = database_head(conn), code_head()
    if current != wanted:
        raise MigrationHeadMismatch(
            f"the database is at migration head {current or '(none: empty database)'}, "
            f"this code at {wanted}; run `gridservice migrate` with this release first"
        )
    return current


def prepare_for_serving(conn: PgConnection) -> str:
    """Return the database's head for a serving instance: an empty database is migrated,
    one at another head is refused (MigrationHeadMismatch names both)."""
    if database_head(conn) is None:
        upgrade(conn)
    return require_head(conn)
