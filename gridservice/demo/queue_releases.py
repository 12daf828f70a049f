"""Thirteen monthly releases of the demo ERCOT queue report, and the points they name.

Each ERCOT demo queue record gets a fictional history that ends where the record stands
in the September 2025 report: active projects are on the large-generation sheet of every
month since their queue date; withdrawn ones go to the cancellation sheet in the month of
their withdrawal; suspended ones move to the (cumulative) inactive sheet at a drawn month;
operational ones go to the commissioning sheet in the month they came online. On the way,
some projects change MW, slip their COD, advance a study phase, sign their IA or post
financial security, so the change view and the dropout rates have something to show.
"""

from __future__ import annotations

import calendar
import hashlib
import random
import re
from dataclasses import dataclass, field
from datetime import date, timedelta
from typing import Any

from gridservice.demo.common import WORDS, DemoContext
from gridservice.harvest.poi import parse_poi
from gridservice.store.history_store import HISTORY_COLUMNS

FIRST_MONTH = (2024, 9)
MONTHS = 13
MARKET = "ERCOT"
FUEL_CODES = {
    "Solar": ("SOL", "PV"),
    "Wind": ("WIN", "WT"),
    "Battery": ("OTH", "BA"),
    "Solar + Battery": ("SOL", "PV"),
    "Gas": ("GAS", "GT"),
}
WORKSHEETS = {
    "large_gen": ("Project Details - Large Gen", 36),
    "inactive": ("Inactive Projects", 9),
    "cancellation": ("Cancellation Update", 9),
    "commissioning": ("Commissioning Update", 9),
}
SHEET_STATUS = {
    "large_gen": "active",
    "inactive": "inactive",
    "cancellation": "cancelled",
    "commissioning": "commissioned",
}
_SUBSTATION = re.compile(r"^(\w+) (\d+) kV Substation$")


def report_months() -> list[date]:
    """Return the first day of each released month, oldest first."""
    year, month = FIRST_MONTH
    out = []
    for n in range(MONTHS):
        index = year * 12 + month - 1 + n
        out.append(date(index // 12, index % 12 + 1, 1))
    return out


def _month_end(first: date) -> date:
    return first.replace(day=calendar.monthrange(first.year, first.month)[1])


def _file_name(first: date) -> str:
    return f"GIS_Report_{calendar.month_name[first.month]}{first.year}_demo.xlsx"


def _report(first: date, seed: int) -> dict[str, Any]:
    name = _file_name(first)
    run = _month_end(first) + timedelta(days=1)
    return {
        "report_id": f"demo-ercot-gis-{first:%Y-%m}",
        "market": MARKET,
        "report_month": f"{first:%Y-%m}",
        "report_date": run.isoformat(),
        "file_name": name,
        "sha256": hashlib.sha256(f"gridservice-demo-report\n{name}\n{seed}".encode()).hexdigest(),
        "sheets": "large_gen,inactive,cancellation,commissioning",
    }


@dataclass
class Trajectory:
    """One project's path through the released months (indices into report_months())."""

    start: int
    active_until: int  # last index with an active row (-1: none)
    exit_sheet: str | None = None
    exit_index: int | None = None
    exit_date: date | None = None
    earlier: dict[str, tuple[int, Any]] = field(default_factory=dict)  # before index: value


def _index_of(months: list[date], day: date | None) -> int | None:
    if day is None:
        return None
    for i, first in enumerate(months):
        if first <= day <= _month_end(first):
            return i
    return -1 if day < months[0] else MONTHS


def _leave(trajectory: Trajectory, sheet: str, index: int, day: date) -> None:
    """End the project's active months: from `index` it is on `sheet` (outside the window:
    -1 means it left before the first release, so it has no row at all)."""
    if index < MONTHS:
        trajectory.active_until = index - 1
        trajectory.exit_sheet, trajectory.exit_index, trajectory.exit_date = sheet, index, day


def _leave_at_drawn_month(
    rng: random.Random, trajectory: Trajectory, sheet: str, months: list[date]
) -> None:
    start = trajectory.start
    out = rng.randrange(start + 1, MONTHS) if start + 1 < MONTHS else MONTHS - 1
    _leave(trajectory, sheet, out, months[out] + timedelta(days=rng.randrange(0, 27)))


def _trajectory(rng: random.Random, record: dict, details: dict, months: list[date]) -> Trajectory:
    start = max(0, _index_of(months, date.fromisoformat(details["queueDate"])))
    trajectory = Trajectory(start=start, active_until=MONTHS - 1)
    exits = {"withdrawn": ("cancellation", "withdrawnDate"),
             "operational": ("commissioning", "onlineDate")}  # fmt: skip
    status = record["status"]
    if status in exits and details.get(exits[status][1]):
        sheet, key = exits[status]
        day = date.fromisoformat(details[key])
        index = _index_of(months, day)
        if index < MONTHS:
            _leave(trajectory, sheet, index, day)
        else:  # in service by September 2025 although its stated online date is later
            _leave_at_drawn_month(rng, trajectory, sheet, months)
    elif status != "active":  # suspended, or a status the report does not know
        _leave_at_drawn_month(rng, trajectory, "inactive", months)
    _draw_earlier_values(rng, trajectory, record, details)
    return trajectory


def _draw_earlier_values(rng: random.Random, t: Trajectory, record: dict, details: dict) -> None:
    """Draw values the project had before some month (a change the change view can find)."""
    if t.active_until - t.start < 1:
        return

    def when() -> int:
        return rng.randrange(t.start + 1, t.active_until + 1)

    capacity = record.get("requestedCapacityMw")
    if isinstance(capacity, int | float) and capacity > 0 and rng.random() < 0.15:
        t.earlier["capacity_mw"] = (when(), round(capacity * rng.choice((0.8, 1.25)), 1))
    if record.get("proposedDate") and rng.random() < 0.35:
        cod = date.fromisoformat(record["proposedDate"]) - timedelta(days=rng.randrange(90, 365))
        t.earlier["projected_cod"] = (when(), cod.isoformat())
    if rng.random() < 0.3:
        t.earlier["study_phase"] = (when(), "SS Completed, FIS Started")


def _security_date(rng: random.Random, details: dict) -> str | None:
    ia = details.get("interconnectionAgreementDate")
    if not ia or rng.random() < 0.5:
        return None
    return (date.fromisoformat(ia) + timedelta(days=rng.randrange(60, 240))).isoformat()


class PointBook:
    """Buses and line taps the demo reports name, numbered in order of first naming and
    read back with the harvest's own POI parser, as a real report's text would be."""

    def __init__(self) -> None:
        self.points: dict[str, dict[str, Any]] = {}
        self._bus_numbers: dict[tuple[str, float], int] = {}

    def _bus(self, name: str, kv: float) -> int:
        return self._bus_numbers.setdefault((name, kv), 50001 + len(self._bus_numbers))

    def _text(self, rng: random.Random, raw: str) -> str:
        """Return the report's POI text for a record's POI: a bus, or a tap on a line."""
        match = _SUBSTATION.match(raw)
        if match is None:
            return raw  # 'TBD', 'Unknown', damaged text: kept as the report has it
        name, kv = match.group(1), float(match.group(2))
        number = self._bus(name, kv)
        if rng.random() < 0.12:
            other = rng.choice([w for w in WORDS if w != name])
            return f"tap {kv:g}kV {self._bus(other, kv)} {other} - {number} {name}"
        return f"{number} {name} {kv:g}kV"

    def poi(self, rng: random.Random, raw: str | None) -> tuple[str | None, str | None]:
        """Return (the report's POI text, point id) for a record's POI (None when it has none)."""
        if raw is None:
            return None, None
        text = self._text(rng, raw)
        point = parse_poi(text)
        self.points.setdefault(point["point_id"], point)
        return text, point["point_id"]


def _value(t: Trajectory, column: str, index: int, current: Any) -> Any:
    before = t.earlier.get(column)
    return before[1] if before and index < before[0] else current


def _base_row(record: dict, details: dict) -> dict[str, Any]:
    fuel, technology = FUEL_CODES.get(details.get("technology") or "", ("OTH", None))
    return {
        "project_id": record["recordKey"],
        "project_name": record["projectName"],
        "county": record["county"],
        "county_fips": details.get("countyFips"),
        "fuel": fuel,
        "technology": technology,
    }


def build_releases(ctx: DemoContext, triples: list[tuple[dict, dict, dict]]) -> dict[str, list]:
    """Return reports, history rows, points and point namings of the demo ERCOT releases."""
    rng = ctx.rng("queue-releases")
    months = report_months()
    reports = [_report(m, ctx.seed) for m in months]
    book = PointBook()
    rows: list[dict[str, Any]] = []
    point_of: dict[str, str] = {}
    entries = sorted(
        (t for t in triples if t[0]["market"] == MARKET), key=lambda t: t[0]["recordKey"]
    )
    for record, details, _ in entries:
        trajectory = _trajectory(rng, record, details, months)
        poi_text, point_id = book.poi(rng, record.get("pointOfInterconnection"))
        if point_id is not None:
            point_of[record["recordKey"]] = point_id
        security = _security_date(rng, details)
        base = _base_row(record, details)
        for i, first in enumerate(months):
            end = _month_end(first).isoformat()
            if trajectory.start <= i <= trajectory.active_until:
                ia = details.get("interconnectionAgreementDate")
                rows.append({
                    **base, "report_id": reports[i]["report_id"], "sheet": "large_gen",
                    "capacity_mw": _value(trajectory, "capacity_mw", i,
                                          record.get("requestedCapacityMw")),
                    "study_phase": _value(trajectory, "study_phase", i,
                                          details.get("studyPhaseOriginal")),
                    "projected_cod": _value(trajectory, "projected_cod", i,
                                            record.get("proposedDate")),
                    "ia_signed": ia if ia and ia <= end else None,
                    "security_ntp": "Yes" if security and security <= end else None,
                    "poi_location": poi_text,
                })  # fmt: skip
            elif trajectory.exit_index is not None and (
                i == trajectory.exit_index
                or (trajectory.exit_sheet == "inactive" and i > trajectory.exit_index)
            ):
                rows.append({
                    **base, "report_id": reports[i]["report_id"],
                    "sheet": trajectory.exit_sheet, "capacity_mw": record.get("requestedCapacityMw"),
                    "event_date": trajectory.exit_date.isoformat(),
                })  # fmt: skip
    _number_rows(rows, reports)
    namings = [
        _naming(row, point_of[row["project_id"]])
        for row in rows
        if row["sheet"] == "large_gen" and row["project_id"] in point_of
    ]
    return {"reports": reports, "rows": rows, "points": list(book.points.values()),
            "namings": namings}  # fmt: skip


def _naming(row: dict, point_id: str) -> dict[str, Any]:
    return {
        "point_id": point_id,
        "project_id": row["project_id"],
        "county_fips": row["county_fips"],
        "report_id": row["report_id"],
        "file_name": row["file_name"],
        "worksheet": row["worksheet"],
        "row": row["row"],
    }


def _number_rows(rows: list[dict], reports: list[dict]) -> None:
    """Give each row its worksheet and 1-based row, per report and sheet in project order."""
    files = {r["report_id"]: r["file_name"] for r in reports}
    counters: dict[tuple[str, str], int] = {}
    for row in sorted(rows, key=lambda r: (r["report_id"], r["sheet"], r["project_id"])):
        worksheet, first_row = WORKSHEETS[row["sheet"]]
        key = (row["report_id"], row["sheet"])
        counters[key] = counters.get(key, first_row - 1) + 1
        row.update(
            file_name=files[row["report_id"]],
            worksheet=worksheet,
            row=counters[key],
            status=SHEET_STATUS[row["sheet"]],
            milestone="commercial_operation" if row["sheet"] == "commissioning" else "",
            upstream_locator=None,
        )
        for column in HISTORY_COLUMNS:
            row.setdefault(column, None)
