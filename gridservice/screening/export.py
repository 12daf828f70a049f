"""The CSV export of an assessment: RFC 4180, one `section,item,field,value` row per value.

Rows are CRLF-terminated and quoted where needed (the csv module's minimal quoting is the
RFC's). This is the one CSV the service writes, and every cell passes `neutralise`: a cell
that a spreadsheet would run as a formula - beginning with `=`, `+`, `-`, `@`, tab or
carriage return, or a full-width or small form of the first four - is prefixed with `'`, so
it is shown as text; characters a workbook cannot hold (openpyxl's `ILLEGAL_CHARACTERS_RE`)
are dropped. The app's downloads apply the same rule with a writer of their own.
"""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Iterator
from typing import Any

HEADER = ("section", "item", "field", "value")
# The control characters a workbook cannot hold: openpyxl's `ILLEGAL_CHARACTERS_RE`, written
# here because importing openpyxl with the screening engine cost every service start a third of
# a second (tests/service/screening/test_screening_export.py keeps the two the same).
ILLEGAL_CHARACTERS_RE = re.compile(r"[\000-\010]|[\013-\014]|[\016-\037]")
# Full-width and small forms too: a spreadsheet in an East Asian locale reads them as `=`.
FORMULA_PREFIXES = (
    *("=", "+", "-", "@", "\t", "\r"),
    *("\uff1d", "\uff0b", "\uff0d", "\uff20"),
    *("\ufe66", "\ufe62", "\ufe63", "\ufe6b"),
)

Row = tuple[str, str, str, Any]

QUEUE_FIELDS = (
    "projectName",
    "market",
    "state",
    "county",
    "status",
    "requestedCapacityMw",
    "pointOfInterconnection",
    "proposedDate",
    "sourceLocator",
)
QUEUE_DETAIL_FIELDS = (
    "queueDate",
    "onlineDate",
    "withdrawnDate",
    "studyPhaseNormalized",
    "technology",
    "developer",
)
PROJECT_FIELDS = (
    "projectNumber",
    "title",
    "status",
    "transmissionOwner",
    "serviceLevelKv",
    "projectedInServiceDate",
    "actualInServiceDate",
    "counties",
)
FACT_FIELDS = (
    "market",
    "predicate",
    "period",
    "scenario",
    "value",
    "unit",
    "validFrom",
    "validTo",
    "knownFrom",
)
TERRITORY_FIELDS = (
    "utility",
    "companyType",
    "ccnNumber",
    "isoRto",
    "confidence",
    "confidenceBasis",
    "resolutionMethod",
)


def neutralise(cell: str) -> str:
    """Return the cell as a spreadsheet keeps it as text: characters a workbook cannot hold
    dropped (first, so none hides a formula), then a leading `'` before a formula."""
    text = ILLEGAL_CHARACTERS_RE.sub("", cell)
    return f"'{text}" if text.startswith(FORMULA_PREFIXES) else text


def _text(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, list):
        return "; ".join(_text(v) for v in value)
    if isinstance(value, dict):
        return "; ".join(f"{k}={_text(v)}" for k, v in value.items())
    return str(value)


def _fields(section: str, item: str, record: dict | None, names: tuple[str, ...]) -> Iterator[Row]:
    record = record or {}
    for name in names:
        yield section, item, name, record.get(name)


def _rows(a: dict) -> Iterator[Row]:
    for name in ("id", "siteId", "tenantId", "createdAt", "disclaimer"):
        yield "assessment", "", name, a.get(name)
    county = a.get("county")
    if county is None:
        yield "county", "", "county", "none: the point is in no loaded county"
    else:
        yield from _fields(
            "county",
            county.get("fips") or "",
            county,
            ("name", "state", "stateFips", "method", "source"),
        )
    readiness = a.get("readiness") or {}
    yield "readiness", "", "level", readiness.get("level")
    yield "readiness", "", "summary", readiness.get("summary")
    for finding in readiness.get("findings", []):
        yield from _fields(
            "finding", finding["factor"], finding, ("severity", "finding", "citations")
        )
    for abstention in readiness.get("abstentions", []):
        yield "abstention", abstention["factor"], "reason", abstention.get("reason")
    for n, text in enumerate(readiness.get("limitations", []), 1):
        yield "limitation", str(n), "text", text
    yield from _fields(
        "confidence", "", a.get("confidence"), ("score", "label", "isHeuristic", "basis", "note")
    )
    for n, text in enumerate(a.get("risks") or [], 1):
        yield "risk", str(n), "text", text
    for n, text in enumerate(a.get("nextActions") or [], 1):
        yield "next_action", str(n), "text", text
    for j in a.get("jurisdictions") or []:
        yield "jurisdiction", j.get("level") or "", "name", f"{j.get('name')} ({j.get('id')})"
    for c in a.get("serviceTerritoryCandidates") or []:
        yield from _fields(
            "service_territory_candidate", _text(c.get("utilityId")), c, TERRITORY_FIELDS
        )
    for u in a.get("utilityCandidates") or []:
        yield from _fields(
            "utility_candidate",
            _text(u.get("utilityId")),
            u,
            ("utility", "companyType", "confidence", "basis"),
        )
    for t in a.get("tariffCandidates") or []:
        yield from _fields(
            "tariff_candidate",
            _text(t.get("tariffId")),
            t,
            ("utilityId", "name", "applicability", "basis"),
        )
    for f in a.get("marketSignals") or []:
        yield from _fields("market_signal", _text(f.get("id")), f, FACT_FIELDS)
    for q in a.get("relevantQueueRecords") or []:
        yield from _fields("queue_record", _text(q.get("id")), q, QUEUE_FIELDS)
        yield from _fields(
            "queue_record", _text(q.get("id")), q.get("expandedDetails"), QUEUE_DETAIL_FIELDS
        )
    for p in a.get("relevantTransmissionProjects") or []:
        yield from _fields("transmission_project", _text(p.get("id")), p, PROJECT_FIELDS)
    yield from _queue_history_rows(a.get("queueHistory"))


def _locator(cell: dict | None) -> str:
    return cell["sourceLocator"] if cell else "none"


def _listed_rows(section: str, lists: dict | None) -> Iterator[Row]:
    """Say of each list the assessment cuts how many it lists, and where all of them are."""
    for name, page in (lists or {}).items():
        if page["listed"] < page["total"]:
            value = f"{page['listed']} of {page['total']}; every one at {page['href']}"
            yield section, name, "listed", value


def _queue_history_rows(history: dict | None) -> Iterator[Row]:
    """The county's queue in the harvested reports: firmness, then each change with its cells."""
    if not history:
        return
    report = history["report"]
    yield "queue_history", "", "report", f"{report['fileName']} (sha256 {report['sha256']})"
    for grade in history["byFirmness"]:
        item = grade["firmness"]
        yield "queue_history", item, "projects", grade["projects"]
        yield "queue_history", item, "mw", grade["mw"]
    for project in history["projects"]:
        yield (
            "queue_history",
            project["projectId"],
            project["firmness"],
            _locator(project["source"]),
        )
    yield from _listed_rows("queue_history", history.get("lists"))
    changes = history.get("changes")
    if not changes:
        return
    window = f"{changes['from']['reportMonth']} to {changes['to']['reportMonth']}"
    yield "queue_change", "", "window", window
    yield from _listed_rows("queue_change", changes.get("lists"))
    for p in changes["entered"]:
        yield "queue_change", p["projectId"], f"entered ({p['enteredAs']})", _locator(p["toCell"])
    for p in changes["left"]:
        cells = f"{_locator(p['fromCell'])} -> {_locator(p['toCell'])}"
        yield "queue_change", p["projectId"], f"left ({p['outcome']})", cells
    for p in changes["changed"]:
        for c in p["changes"]:
            value = (
                f"{_text(c['from'])} -> {_text(c['to'])} "
                f"({_locator(c['fromCell'])} -> {_locator(c['toCell'])})"
            )
            yield "queue_change", p["projectId"], c["field"], value


def assessment_csv(assessment: dict) -> str:
    """Return the assessment as RFC 4180 CSV text (CRLF, quoted, formulas neutralised)."""
    buffer = io.StringIO(newline="")
    writer = csv.writer(buffer, lineterminator="\r\n", quoting=csv.QUOTE_MINIMAL)
    writer.writerow(HEADER)
    for row in _rows(assessment):
        writer.writerow([neutralise(_text(cell)) for cell in row])
    return buffer.getvalue()
