"""A folder served over loopback HTTP, for the benchmarks' browser tests."""

from __future__ import annotations

import contextlib
import functools
import http.server
import threading
from collections.abc import Iterator
from pathlib import Path


@contextlib.contextmanager
def served(folder: Path, cached_suffix: str | None = None) -> Iterator[str]:
    """Serve `folder` over loopback HTTP, quietly; yield its base URL. Files ending in
    `cached_suffix` are cached for a year, as Streamlit's hashed bundles are."""

    class Handler(http.server.SimpleHTTPRequestHandler):
        def end_headers(self):
            if cached_suffix and self.path.endswith(cached_suffix):
                self.send_header("Cache-Control", "public, immutable, max-age=31536000")
            super().end_headers()

        def log_message(self, *args):
            pass

    server = http.server.ThreadingHTTPServer(
        ("127.0.0.1", 0), functools.partial(Handler, directory=str(folder))
    )
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()
