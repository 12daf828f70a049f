"""A PostgreSQL connection that the store's SQL modules use as they use a sqlite3 one.

The store layer is written against sqlite3's connection: `execute` with `?` or `:name`
parameters, rows read by position or by column name, `with conn:` committing, and a
transaction opened implicitly by the first write (the sqlite3 module's default). `PgConnection`
offers that surface over a psycopg 3 connection, and rewrites the few SQLite forms the store
uses into PostgreSQL's:

- `?` and `:name` parameters become `%s` and `%(name)s` (a literal `%` is doubled);
- `INSERT OR REPLACE` becomes `INSERT ... ON CONFLICT (primary key) DO UPDATE` and
  `INSERT OR IGNORE` becomes `INSERT ... ON CONFLICT DO NOTHING`;
- `COLLATE NOCASE` is dropped: those columns are `citext` in the PostgreSQL schema;
- `json_array(...)` is `json_build_array(...)`, `group_concat(x, sep)` is `string_agg`, and
  SQLite's no-index hint `+column` loses its `+`;
- `BEGIN IMMEDIATE` (SQLite: take the write lock now) takes one transaction-scoped advisory
  lock, so such transactions run one at a time across every instance on the database.

SQL with no SQLite counterpart (full-text search) is written per backend where it is used,
after asking `is_postgres(conn)`.
"""

from __future__ import annotations

import re
import threading
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # psycopg is imported when a PostgreSQL store is opened, not before
    import psycopg
    from psycopg.rows import RowMaker

# Key of the advisory lock `BEGIN IMMEDIATE` takes ("gds" + 1).
WRITE_LOCK_KEY = 0x67647301


class Row(tuple):
    """A result row read by position or by column name, like `sqlite3.Row`."""

    _names: tuple[str, ...] = ()

    def __getitem__(self, key: Any) -> Any:
        if isinstance(key, str):
            return tuple.__getitem__(self, self._names.index(key))
        return tuple.__getitem__(self, key)

    def keys(self) -> list[str]:
        return list(self._names)


def _row_factory(cursor: psycopg.Cursor[Any]) -> RowMaker[Row]:
    names = tuple(column.name for column in cursor.description or ())
    row_class = type("Row", (Row,), {"_names": names})
    return lambda values: row_class(values)


_TOKENS = re.compile(
    r"'(?:[^']|'')*'"  # string literal
    r'|"(?:[^"]|"")*"'  # quoted identifier
    r"|--[^\n]*"  # comment
    r"|::"  # PostgreSQL cast (not a named parameter)
    r"|(?<![:\w]):([A-Za-z_]\w*)"  # :name parameter
    r"|\?"  # positional parameter
    r"|%",
)
_INSERT_OR = re.compile(
    r"^\s*INSERT\s+OR\s+(REPLACE|IGNORE)\s+INTO\s+(\w+)\s*\(([^)]*)\)", re.IGNORECASE
)
_NOCASE = re.compile(r"\s+COLLATE\s+NOCASE\b", re.IGNORECASE)
_JSON_ARRAY = re.compile(r"\bjson_array\(", re.IGNORECASE)
_GROUP_CONCAT = re.compile(r"\bgroup_concat\(", re.IGNORECASE)
# SQLite's "use no index for this term" (`AND +column IN ...`): PostgreSQL has no unary + on text.
_NO_INDEX_PLUS = re.compile(r"(?:(?<=AND )|(?<=WHERE )|(?<=OR )|(?<=\())\+(?=[A-Za-z_])")
_BEGIN_IMMEDIATE = re.compile(r"^\s*BEGIN\s+IMMEDIATE\s*;?\s*$", re.IGNORECASE)
_BEGIN = re.compile(r"^\s*BEGIN\b", re.IGNORECASE)
_BEGIN_WITH_MODE = re.compile(r"^\s*BEGIN\s+(ISOLATION\s+LEVEL|READ\s+ONLY)\b", re.IGNORECASE)
_WRITE = re.compile(r"^\s*(INSERT|UPDATE|DELETE|REPLACE)\b", re.IGNORECASE)


def _parameters(sql: str) -> str:
    def swap(match: re.Match[str]) -> str:
        text = match.group(0)
        if match.group(1):
            return f"%({match.group(1)})s"
        return {"?": "%s", "%": "%%"}.get(text, text)

    return _TOKENS.sub(swap, sql)


class _Dialect:
    """Rewrites of the store's SQLite statements, cached per statement text."""

    def __init__(self, primary_keys: Mapping[str, tuple[str, ...]]) -> None:
        self.primary_keys = primary_keys
        self._cache: dict[str, str] = {}
        self._lock = threading.Lock()

    def translate(self, sql: str) -> str:
        cached = self._cache.get(sql)
        if cached is not None:
            return cached
        text = _JSON_ARRAY.sub("json_build_array(", _NOCASE.sub("", sql))
        text = _NO_INDEX_PLUS.sub("", _GROUP_CONCAT.sub("string_agg(", text))
        insert_or = _INSERT_OR.match(text)
        if insert_or is not None:
            text = self._upsert(text, insert_or)
        text = _parameters(text)
        with self._lock:
            self._cache[sql] = text
        return text

    def _upsert(self, sql: str, match: re.Match[str]) -> str:
        verb, table, columns = match.group(1).upper(), match.group(2), match.group(3)
        body = sql[: match.start()] + f"INSERT INTO {table}({columns})" + sql[match.end() :]
        if verb == "IGNORE":
            return body + " ON CONFLICT DO NOTHING"
        keys = self.primary_keys[table.lower()]
        names = [c.strip() for c in columns.split(",")]
        updates = ", ".join(f"{c} = EXCLUDED.{c}" for c in names if c not in keys)
        action = f"DO UPDATE SET {updates}" if updates else "DO NOTHING"
        return body + f" ON CONFLICT ({', '.join(keys)}) {action}"


def primary_keys(conn: psycopg.Connection[Any]) -> dict[str, tuple[str, ...]]:
    """Return each table's primary-key columns (for `INSERT OR REPLACE`)."""
    rows = conn.execute(
        "SELECT c.relname, a.attname FROM pg_index i "
        "JOIN pg_class c ON c.oid = i.indrelid "
        "JOIN pg_namespace n ON n.oid = c.relnamespace "
        "JOIN LATERAL unnest(i.indkey) WITH ORDINALITY AS k(attnum, position) ON true "
        "JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum = k.attnum "
        "WHERE i.indisprimary AND n.nspname = current_schema() ORDER BY c.relname, k.position"
    ).fetchall()
    keys: dict[str, tuple[str, ...]] = {}
    for table, column in rows:
        keys[table] = (*keys.get(table, ()), column)
    return keys


class PgConnection:
    """A psycopg connection with the sqlite3 connection methods the store uses."""

    dialect_name = "postgresql"

    def __init__(
        self,
        raw: psycopg.Connection[Any],
        dialect: _Dialect | None = None,
        replace: Callable[[psycopg.Connection[Any]], psycopg.Connection[Any]] | None = None,
    ) -> None:
        """`replace`: given this connection found broken, return a working one (a pool's
        next); the first statement is then sent again once on it (`execute`)."""
        self.raw = self._ready(raw)
        self._dialect = dialect or _Dialect(primary_keys(raw))
        self._replace = replace
        self._used = False

    @staticmethod
    def _ready(raw: psycopg.Connection[Any]) -> psycopg.Connection[Any]:
        raw.autocommit = True  # transactions are opened below, as sqlite3 opens them
        raw.row_factory = _row_factory
        return raw

    @property
    def in_transaction(self) -> bool:
        return self.raw.info.transaction_status.name != "IDLE"

    def refresh_dialect(self) -> None:
        """Read the primary keys again (after a migration created tables)."""
        self._dialect = _Dialect(primary_keys(self.raw))

    def _begin_for(self, sql: str) -> str | None:
        """Open the transaction a statement needs; return the statement to run, if any."""
        if _BEGIN_IMMEDIATE.match(sql):
            if not self.in_transaction:
                self.raw.execute("BEGIN")
            self.raw.execute("SELECT pg_advisory_xact_lock(%s)", (WRITE_LOCK_KEY,))
            return None
        if _BEGIN.match(sql):
            # a plain BEGIN (SQLite's DEFERRED, EXCLUSIVE: one transaction here), or one
            # naming its isolation and access (`read_snapshot`), sent as written
            if self.in_transaction:
                return None
            return sql.strip() if _BEGIN_WITH_MODE.match(sql) else "BEGIN"
        if _WRITE.match(sql) and not self.in_transaction:
            self.raw.execute("BEGIN")
        return sql

    def execute(self, sql: str, parameters: Sequence[Any] | Mapping[str, Any] = ()) -> Any:
        if self._used or self._replace is None:
            return self._execute(sql, parameters)
        import psycopg  # deferred: psycopg loads when a PostgreSQL store is opened

        try:
            return self._execute(sql, parameters)
        except psycopg.OperationalError:
            # A pooled connection is lent unchecked (a check is a round trip per request):
            # one that the database closed since (a restart, an idle timeout) fails its first
            # statement, which ran nothing. Send it again, once, on a working connection.
            if not self.raw.broken:
                raise
            broken, self.raw = self.raw, None  # given back: never given back twice
            self.raw = self._ready(self._replace(broken))
            return self._execute(sql, parameters)
        finally:
            self._used = True

    def _execute(self, sql: str, parameters: Sequence[Any] | Mapping[str, Any]) -> Any:
        statement = self._begin_for(sql)
        cursor = self.raw.cursor()
        if statement is None:
            return cursor
        if _BEGIN.match(statement):
            return cursor.execute(statement)
        return cursor.execute(self._dialect.translate(statement), parameters or None)

    def executemany(
        self, sql: str, rows: Iterable[Sequence[Any] | Mapping[str, Any]]
    ) -> psycopg.Cursor[Any]:
        self._used = True
        self._begin_for(sql)
        cursor = self.raw.cursor()
        rows = list(rows)
        if rows:
            cursor.executemany(self._dialect.translate(sql), rows)
        return cursor

    def commit(self) -> None:
        if self.in_transaction:
            self.raw.execute("COMMIT")

    def rollback(self) -> None:
        if self.in_transaction:
            self.raw.execute("ROLLBACK")

    def close(self) -> None:
        self.raw.close()

    def __enter__(self) -> PgConnection:
        return self

    def __exit__(self, kind: type[BaseException] | None, *_: object) -> None:
        if kind is None:
            self.commit()
        else:
            self.rollback()


def is_postgres(conn: object) -> bool:
    """True when `conn` is a PostgreSQL store connection."""
    return getattr(conn, "dialect_name", "sqlite") == "postgresql"
