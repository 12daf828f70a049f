"""Serve a SQLite file with Datasette for the peer benchmark, without access logging.

    python -m bench.peers.serve_datasette --db PATH --metadata FILE --port N [--page-size 500]

What `datasette serve -i PATH --metadata FILE --setting default_page_size 500 --setting
max_returned_rows 500` runs (the file immutable, one process), except that uvicorn's access
log is off, as it is for our service, so neither side pays for a log line per request.
"""

from __future__ import annotations

import argparse
import asyncio
import json
from pathlib import Path

import uvicorn
from datasette.app import Datasette


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--db", required=True)
    parser.add_argument("--metadata", required=True)
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--page-size", type=int, default=500)
    args = parser.parse_args()
    datasette = Datasette(
        immutables=[args.db],
        metadata=json.loads(Path(args.metadata).read_text()),
        settings={
            "default_page_size": args.page_size,
            "max_returned_rows": args.page_size,
            "suggest_facets": False,
            "sql_time_limit_ms": 10_000,
        },
    )
    asyncio.run(datasette.invoke_startup())
    uvicorn.run(
        datasette.app(),
        host="127.0.0.1",
        port=args.port,
        log_level="warning",
        access_log=False,
        lifespan="on",
    )


if __name__ == "__main__":
    main()
