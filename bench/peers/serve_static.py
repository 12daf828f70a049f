"""The HTTP floor: uvicorn answering every request with the same pre-built bytes.

    python -m bench.peers.serve_static --body FILE [--body FILE ...] --port N

A bare ASGI callable (no framework, no database) sending the bytes of real 500-record
pages (`/0`, `/1`, ... in the order given; `/` the first), so the table shows what uvicorn
and the loopback cost for the same bytes before any routing or SQL.
"""

from __future__ import annotations

import argparse
from pathlib import Path

import uvicorn


def make_app(bodies: list[bytes]):
    answers = {
        path: (
            [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())],
            body,
        )
        for i, body in enumerate(bodies)
        for path in ([f"/{i}", "/"] if i == 0 else [f"/{i}"])
    }

    async def app(scope, receive, send):
        if scope["type"] != "http":
            return
        headers, body = answers.get(scope["path"], answers["/"])
        await send({"type": "http.response.start", "status": 200, "headers": headers})
        await send({"type": "http.response.body", "body": body})

    return app


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--body", required=True, action="append")
    parser.add_argument("--port", type=int, required=True)
    args = parser.parse_args()
    app = make_app([Path(body).read_bytes() for body in args.body])
    uvicorn.run(app, host="127.0.0.1", port=args.port, log_level="warning", access_log=False)


if __name__ == "__main__":
    main()
