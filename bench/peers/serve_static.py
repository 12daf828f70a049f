"""The HTTP floor: uvicorn answering every request with the same pre-built bytes.

    python -m bench.peers.serve_static --body FILE --port N

A bare ASGI callable (no framework, no database) sending the body of one real 500-record
page, so the table shows what uvicorn and the loopback cost before any routing or SQL.
"""

from __future__ import annotations

import argparse
from pathlib import Path

import uvicorn


def make_app(body: bytes):
    headers = [
        (b"content-type", b"application/json"),
        (b"content-length", str(len(body)).encode()),
    ]

    async def app(scope, receive, send):
        if scope["type"] != "http":
            return
        await send({"type": "http.response.start", "status": 200, "headers": headers})
        await send({"type": "http.response.body", "body": body})

    return app


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--body", required=True)
    parser.add_argument("--port", type=int, required=True)
    args = parser.parse_args()
    app = make_app(Path(args.body).read_bytes())
    uvicorn.run(app, host="127.0.0.1", port=args.port, log_level="warning", access_log=False)


if __name__ == "__main__":
    main()
