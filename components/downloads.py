"""The two downloads of an assessment, byte for byte what the service sent.

- Expert-review packet: `<caseId>.json`, the response body of
  `GET /v1/assessments/{id}/expert-review.json` unchanged (never re-serialised).
- CSV export: the export's `content` encoded as UTF-8, unchanged.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass

from gridclient import AssessmentExport

PACKET_MIME = "application/json"
CSV_MIME = "text/csv"


@dataclass(frozen=True)
class Download:
    """A file ready for st.download_button."""

    file_name: str
    data: bytes
    mime: str


def safe_name(text: str) -> str:
    """Return text usable as a file name (letters, digits, dot, dash, underscore)."""
    return re.sub(r"[^A-Za-z0-9._-]+", "_", text).strip("._") or "download"


def packet_download(raw_body: bytes) -> Download:
    """Return the packet download: named by its caseId, the service's bytes unchanged."""
    body = json.loads(raw_body)
    data = body.get("data", body) if isinstance(body, dict) else {}
    case_id = data.get("caseId") if isinstance(data, dict) else None
    return Download(f"{safe_name(case_id or 'expert-review')}.json", raw_body, PACKET_MIME)


def csv_download(export: AssessmentExport) -> Download:
    """Return the CSV download of an export: its content as UTF-8, unchanged."""
    name = safe_name(f"assessment-{export.assessment_id or export.id}")
    return Download(f"{name}.csv", export.content_bytes, CSV_MIME)
