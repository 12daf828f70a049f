"""Fetching a source's current file from its publisher, then checking it before harvest.

Official addresses change with every release, so each is configurable: `--url`, or the
environment variable `GRIDSERVICE_URL_<SOURCE>` (e.g. `GRIDSERVICE_URL_ERCOT_GIS`), else
a default from `OFFICIAL_URLS`. A download is refused when it is empty, HTML (an error page), or not a
workbook where a workbook is expected; the harvest then checks sheets and columns.
"""

from __future__ import annotations

import hashlib
import io
import os
import zipfile
from pathlib import Path
from urllib.parse import unquote, urlparse

import httpx

from gridservice.harvest._base import HarvestError

# Publishers' file addresses change with every release and could not be verified from
# here, so none is built in: pass --url or set the environment variable. Add verified
# defaults here (source name -> URL) when they are known.
OFFICIAL_URLS: dict[str, str] = {}


def source_url(source: str, url: str | None = None) -> str:
    """Return the address to fetch: `url`, the environment override, or the default."""
    env = "GRIDSERVICE_URL_" + source.upper().replace("-", "_")
    chosen = url or os.environ.get(env) or OFFICIAL_URLS.get(source)
    if not chosen:
        raise HarvestError(f"no download address known for {source!r}; give --url or set {env}")
    return chosen


def download(source: str, *, url: str | None = None, directory: Path | None = None) -> Path:
    """Fetch the file into `directory` (default ./downloads), check it, return its path."""
    address = source_url(source, url)
    directory = Path(directory or "downloads")
    directory.mkdir(parents=True, exist_ok=True)
    name = Path(unquote(urlparse(address).path)).name or f"{source}.download"
    target = directory / name
    try:
        with httpx.stream("GET", address, follow_redirects=True, timeout=60) as response:
            response.raise_for_status()
            content_type = response.headers.get("content-type", "")
            data = response.read()
    except httpx.HTTPError as exc:
        raise HarvestError(f"{address}: download failed ({exc})") from exc
    _check(address, name, data, content_type)
    target.write_bytes(data)
    print(f"downloaded {address} -> {target} (sha256 {hashlib.sha256(data).hexdigest()})")
    return target


def _check(address: str, name: str, data: bytes, content_type: str) -> None:
    if not data:
        raise HarvestError(f"{address}: empty download")
    if "html" in content_type or data[:15].lstrip().lower().startswith((b"<!doctype", b"<html")):
        raise HarvestError(f"{address}: the server sent an HTML page, not the data file")
    if name.endswith(".xlsx") and not zipfile.is_zipfile(io.BytesIO(data)):
        raise HarvestError(f"{address}: {name} is not a complete .xlsx workbook")
