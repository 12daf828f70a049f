"""ISO-NE Interconnection Queue report: queue records.

Sheet 'Queue', header in row 5 under the report's title lines. `requestedCapacityMw` is
'Net MW' (the net output requested; 'Summer MW' and 'Winter MW' are kept in the
evidence). The status is 'Project Status'; ISO-NE leaves it blank for withdrawn requests
and gives their 'W/ D Date', so a blank status with that date reads
'withdrawn (W/ D Date)'. A blank status without one is kept, flagged `unknownStatus`.
A position may take several rows (one per unit or interconnection point): the second and
later get the record key '<position>-2', '-3'..., in file order.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from gridservice.harvest import fuels
from gridservice.harvest._iso_queue import QueueLayout, QueueSheet, text

SOURCE_ID = "isone_queue"
WITHDRAWN_BY_DATE = "withdrawn (W/ D Date)"
STATUSES = {
    "under study": "active",
    "under construction": "active",
    "in service": "operational",
    "partially in service": "operational",
    "suspended": "suspended",
    WITHDRAWN_BY_DATE.lower(): "withdrawn",
}
# ISO-NE's 'Fuel Type' codes are EIA's energy source codes.
FUEL_CODES = {
    "sun": fuels.SOLAR, "wnd": fuels.WIND, "bat": fuels.STORAGE, "ng": fuels.GAS,
    "dfo": fuels.OIL, "ker": fuels.OIL, "jf": fuels.OIL, "rfo": fuels.OIL, "wo": fuels.OIL,
    "wat": fuels.HYDRO, "wds": fuels.BIOMASS, "lfg": fuels.BIOMASS, "blq": fuels.BIOMASS,
    "msw": fuels.BIOMASS, "nuc": fuels.NUCLEAR, "bit": fuels.COAL, "sub": fuels.COAL,
    "fc": fuels.FUEL_CELL, "oth": fuels.OTHER,
}  # fmt: skip


def status_text(published: Mapping[str, Any]) -> str | None:
    """Return ISO-NE's 'Project Status', or WITHDRAWN_BY_DATE for a blank one with a date."""
    status = text(published.get("Project Status"))
    if status is None and text(published.get("W/ D Date")):
        return WITHDRAWN_BY_DATE
    return status


LAYOUT = QueueLayout(
    market="ISO-NE",
    source_id=SOURCE_ID,
    source_name="ISO New England, Interconnection Request Queue",
    source_url="https://irtt.iso-ne.com/reports/external",
    expected="ISO-NE's Queue report workbook (sheet 'Queue')",
    sheets=(
        QueueSheet(
            name="Queue",
            columns={
                "key": "Position", "name": "Alternative Name", "state": "State",
                "county": "County", "status": "Project Status", "mw": "Net MW",
            },
            optional={
                "poi": "Interconnection Location", "queue_date": "Requested",
                "proposed_date": "Op Date", "withdrawn_date": "W/ D Date",
                "service_type": "Serv",
            },
            fuel=("Fuel Type",),
        ),
    ),
    statuses=STATUSES,
    status_text=status_text,
    fuel_codes=FUEL_CODES,
    repeated_keys=True,
)  # fmt: skip
parse = LAYOUT.parse
