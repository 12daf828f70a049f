"""The `gridservice` command: serve, build demo data, issue tokens."""

from __future__ import annotations

import argparse
import datetime as dt
import sys
from pathlib import Path

from gridservice import demo as demo_data
from gridservice.runtime import workers
from gridservice.security.tokens import check_tenant, issue_token, revoke_tenant, revoke_token
from gridservice.settings import Settings, add_database_url_option, default_db_path
from gridservice.store import backend, meta_reads, migrations
from gridservice.store.backend import DatabaseUrlError, StoreUnavailable
from gridservice.store.db import connect, init_schema
from gridservice.store.migrations import MigrationHeadMismatch


def _serve(args: argparse.Namespace) -> int:
    # Deferred: FastAPI and uvicorn load only to serve, not for tokens, harvests or migrations.
    import uvicorn

    from gridservice.app import create_app, prepare_store
    from gridservice.runtime.server import bound_socket, freeze_start_up, uvicorn_config

    if args.workers < 1:
        print("gridservice serve: --workers must be at least 1", file=sys.stderr)
        return 2
    if args.workers > 1 and not workers.supported():
        print("gridservice serve: --workers needs Linux (SO_REUSEPORT)", file=sys.stderr)
        return 2
    if args.read_timeout <= 0:
        print("gridservice serve: --read-timeout must be more than 0", file=sys.stderr)
        return 2
    if args.max_store_mb is not None and args.max_store_mb < 1:
        print("gridservice serve: --max-store-mb must be at least 1", file=sys.stderr)
        return 2
    if min(args.mmap_mb, args.page_cache_mb, args.token_cache_seconds, args.data_check_seconds) < 0:
        print(
            "gridservice serve: --mmap-mb, --page-cache-mb, --token-cache-seconds and "
            "--data-check-seconds must be 0 or more",
            file=sys.stderr,
        )
        return 2
    location = backend.location_from(args.database_url, args.db)
    settings = Settings(
        db_path=Path(args.db),
        database_url=location if backend.is_database_url(location) else None,
        demo=args.demo,
        rate_limit_per_second=args.rate_limit,
        rate_limit_burst=args.rate_burst,
        rate_limit_enabled=not args.no_rate_limit,
        idempotency_lease_seconds=args.idempotency_lease,
        started_at=dt.datetime.now(dt.UTC),
        mmap_bytes=args.mmap_mb * 2**20,
        read_timeout_seconds=args.read_timeout,
        max_store_bytes=args.max_store_mb * 2**20 if args.max_store_mb else None,
        page_cache_bytes=args.page_cache_mb * 2**20,
        token_cache_seconds=args.token_cache_seconds,
        data_check_seconds=args.data_check_seconds,
    )
    if args.workers == 1:
        sock = bound_socket(args.host, args.port)
        host, port = sock.getsockname()[:2]
        app = create_app(settings)
        freeze_start_up()
        print(
            f"Grid Data Service on http://{host}:{port}/v1/docs "
            f"(store: {backend.describe(location)})",
            flush=True,
        )
        uvicorn.Server(uvicorn_config(app, settings, log_level="info")).run(sockets=[sock])
        return 0

    # The parent prepares the store once, keeps the port, and runs the workers.
    holder = workers.reuseport_socket(args.host, args.port, listen=False)
    host, port = holder.getsockname()[:2]
    prepare_store(settings)
    print(
        f"Grid Data Service on http://{host}:{port}/v1/docs (store: {backend.describe(location)}, "
        f"{args.workers} worker processes)",
        flush=True,
    )
    return workers.serve_workers(settings, holder, args.workers)


def _demo_data(args: argparse.Namespace) -> int:
    location = backend.location_from(args.database_url, args.db)
    conn = connect(location)
    init_schema(conn)
    if meta_reads.has_public_data(conn):
        print(
            f"{backend.describe(location)} already holds data; remove it to rebuild.",
            file=sys.stderr,
        )
        return 1
    demo_data.build_demo_database(conn, scale=args.scale)
    conn.commit()
    conn.close()
    print(f"demo database (scale {args.scale}) written to {backend.describe(location)}")
    return 0


def _migrate(args: argparse.Namespace) -> int:
    location = backend.location_from(args.database_url, args.db)
    if not backend.is_database_url(location):
        print("SQLite stores need no migration: their schema is created on use.")
        return 0
    conn = connect(location)
    try:
        applied = migrations.upgrade(conn)
        head = migrations.require_head(conn)
    finally:
        conn.close()
    for name in applied:
        print(f"applied {name}")
    print(f"{backend.describe(location)} is at migration head {head}")
    return 0


def _tokens_create(args: argparse.Namespace) -> int:
    for option, value in (("--tenant", args.tenant), ("--reviewer", args.reviewer)):
        try:
            if value is not None:
                check_tenant(value)
        except ValueError as error:
            print(f"gridservice tokens create: {option}: {error}", file=sys.stderr)
            return 2
    location = backend.location_from(args.database_url, args.db)
    print(issue_token(location, args.tenant, reviewer=args.reviewer))
    whose = f"reviewer {args.reviewer} of " if args.reviewer else ""
    print(
        f"({whose}tenant {args.tenant}; only its SHA-256 is stored: keep it now)", file=sys.stderr
    )
    return 0


def _tokens_revoke(args: argparse.Namespace) -> int:
    location = backend.location_from(args.database_url, args.db)
    if args.token is not None:
        removed = revoke_token(location, args.token)
    else:
        removed = revoke_tenant(location, args.tenant)
    # Name the tenant, never the token: terminals and CI logs keep what is printed.
    what = f"tenant {args.tenant}" if args.token is None else "the given token"
    print(
        f"revoked {removed} token(s) of {what}; a service on SQLite refuses them at once, "
        "on PostgreSQL within its --token-cache-seconds (2 s by default)"
    )
    return 0 if removed else 1


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="gridservice", description=__doc__)
    commands = parser.add_subparsers(dest="command", required=True)
    db_help = f"SQLite store (default {default_db_path()})"

    serve = commands.add_parser("serve", help="serve the Grid Data Service v1 over HTTP")
    serve.add_argument("--host", default="127.0.0.1")
    serve.add_argument("--port", type=int, default=8000)
    serve.add_argument("--db", default=str(default_db_path()), help=db_help)
    serve.add_argument("--demo", action="store_true", help="build demo data on first use")
    serve.add_argument(
        "--rate-limit",
        type=float,
        default=None,
        metavar="PER_SECOND",
        help="requests per second per token (default 50; off with --demo unless given)",
    )
    serve.add_argument("--rate-burst", type=int, default=None, help="burst per token (default 100)")
    serve.add_argument("--no-rate-limit", action="store_true", help="turn the rate limit off")
    serve.add_argument(
        "--idempotency-lease",
        type=float,
        default=30.0,
        metavar="SECONDS",
        help="take over an in-flight Idempotency-Key claim older than this (default 30)",
    )
    serve.add_argument(
        "--read-timeout",
        type=float,
        default=30.0,
        metavar="SECONDS",
        help="drop a request that has not arrived whole this long after its first byte "
        "(slow clients; default 30)",
    )
    serve.add_argument(
        "--workers",
        type=int,
        default=1,
        metavar="N",
        help="worker processes sharing the port (default 1). Each has its own connections, "
        "ranking cache and rate-limit buckets, so the per-token limit applies per worker",
    )
    serve.add_argument(
        "--mmap-mb",
        type=int,
        default=0,
        metavar="MB",
        help="SQLite memory-mapped window per connection (default 0: off). Faster large "
        "pages; resident memory then counts the mapped store pages once per connection",
    )
    serve.add_argument(
        "--page-cache-mb",
        type=int,
        default=64,
        metavar="MB",
        help="memory for encoded pages of public collections, kept while the public data is "
        "unchanged (default 64; 0: off)",
    )
    serve.add_argument(
        "--token-cache-seconds",
        type=float,
        default=2.0,
        metavar="S",
        help="PostgreSQL: how long a token's tenant is remembered, so the longest a token "
        "revoked by another process is still accepted here (default 2; 0: ask every time)",
    )
    serve.add_argument(
        "--data-check-seconds",
        type=float,
        default=1.0,
        metavar="S",
        help="PostgreSQL: how often the page cache reads the data snapshot hash again, so the "
        "longest a page changed by a harvest elsewhere is still answered from the cache here "
        "(default 1; 0: every request)",
    )
    add_database_url_option(serve)
    serve.add_argument(
        "--max-store-mb",
        type=int,
        default=None,
        metavar="MB",
        help="a SQLite store file may not grow past this; a write past it is refused 503 as "
        "on a full disk, and writes resume once room is made (default: as far as the disk "
        "allows)",
    )
    serve.set_defaults(run=_serve)

    demo = commands.add_parser("demo-data", help="build the seeded demo database")
    demo.add_argument("--db", default=str(default_db_path()), help=db_help)
    demo.add_argument("--scale", type=int, default=1, help="multiply volumes (benchmarks)")
    add_database_url_option(demo)
    demo.set_defaults(run=_demo_data)

    tokens = commands.add_parser("tokens", help="manage bearer tokens")
    token_commands = tokens.add_subparsers(dest="tokens_command", required=True)
    create = token_commands.add_parser("create", help="issue a token for a tenant")
    create.add_argument("--tenant", required=True)
    create.add_argument(
        "--reviewer",
        metavar="NAME",
        help="issue a reviewer's token instead: it reaches only the tenant's review cases "
        "assigned to NAME",
    )
    create.add_argument("--db", default=str(default_db_path()), help=db_help)
    add_database_url_option(create)
    create.set_defaults(run=_tokens_create)
    revoke = token_commands.add_parser(
        "revoke", help="revoke one token, or every token of a tenant (effective at once)"
    )
    which = revoke.add_mutually_exclusive_group(required=True)
    which.add_argument("--token", help="the token to revoke")
    which.add_argument("--tenant", help="revoke every token of this tenant")
    revoke.add_argument("--db", default=str(default_db_path()), help=db_help)
    add_database_url_option(revoke)
    revoke.set_defaults(run=_tokens_revoke)
    migrate = commands.add_parser(
        "migrate", help="bring a PostgreSQL store to this release's migration head"
    )
    migrate.add_argument("--db", default=str(default_db_path()), help=db_help)
    add_database_url_option(migrate)
    migrate.set_defaults(run=_migrate)
    # Deferred: the harvest commands list every reader (openpyxl, httpx). Each worker of
    # `serve --workers N` imports this module to start and never builds the parser; with the
    # readers, its start cost about two processor-seconds more.
    from gridservice.harvest.cli import add_subcommands as add_harvest_subcommands

    add_harvest_subcommands(commands)
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    if getattr(args, "scale", 1) < 1:
        build_parser().error("--scale must be at least 1")
    try:
        return args.run(args)
    except (DatabaseUrlError, StoreUnavailable, MigrationHeadMismatch) as exc:
        # Messages name a database URL without its password (`store.backend.redact_url`).
        print(f"gridservice {args.command}: {exc}", file=sys.stderr)
        return 2 if isinstance(exc, DatabaseUrlError) else 1


if __name__ == "__main__":
    raise SystemExit(main())
