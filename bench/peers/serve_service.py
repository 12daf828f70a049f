"""Serve the reference service for the peer benchmark: one uvicorn process, no rate limit.

    python -m bench.peers.serve_service --db PATH --port N

The service's default token bucket (50 requests/s per token) would turn a load test into a
measurement of the limiter, so this launcher raises it out of reach; everything else is the
service as `gridservice serve` runs it (one process, FastAPI's thread pool, WAL store, its
page cache; `--page-cache-mb 0` serves every page by the full path).
"""

from __future__ import annotations

import argparse
from pathlib import Path

import uvicorn

from gridservice.app import create_app
from gridservice.runtime.server import bound_socket
from gridservice.settings import Settings


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--db", required=True)
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument(
        "--page-cache-mb", type=int, default=None, help="0: every page by the full path"
    )
    args = parser.parse_args()
    cache = {} if args.page_cache_mb is None else {"page_cache_bytes": args.page_cache_mb * 2**20}
    settings = Settings(
        db_path=Path(args.db), rate_limit_per_second=1e9, rate_limit_burst=1_000_000_000, **cache
    )
    app = create_app(settings)
    sock = bound_socket(args.host, args.port)
    config = uvicorn.Config(app, log_level="warning", access_log=False)
    uvicorn.Server(config).run(sockets=[sock])


if __name__ == "__main__":
    main()
