"""CAISO Queue Report: queue records from its active, completed and withdrawn sheets.

Each sheet has a group row ('Generating Facility', 'MWs', 'Location') over its column
names; the header finder reads the names row. `requestedCapacityMw` is 'Net MWs to Grid'
(the sum of the request's parts 'MW-1' to 'MW-3' that reaches the grid). An active request
whose 'Suspension Status' says 'Suspended' is suspended.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from gridservice.harvest._iso_queue import QueueLayout, QueueSheet, text

SOURCE_ID = "caiso_queue"
STATUSES = {
    "active": "active",
    "active / suspended": "suspended",
    "completed": "operational",
    "withdrawn": "withdrawn",
}
_COMMON = {
    "key": "Queue Position", "status": "Application Status", "county": "County",
    "state": "State", "mw": "Net MWs to Grid",
}  # fmt: skip
_OPTIONAL = {
    "poi": "Station or Transmission Line", "utility": "Utility", "queue_date": "Queue Date",
    "cluster": "Study Process",
    "service_type": "Full Capacity, Partial or Energy Only (FC/P/EO)",
}  # fmt: skip
_FUEL = ("Fuel-1", "Fuel-2", "Fuel-3", "Type-1", "Type-2", "Type-3")


def status_text(published: Mapping[str, Any]) -> str | None:
    """Return CAISO's 'Application Status', with a 'Suspension Status' when one is given."""
    status, suspension = (
        text(published.get("Application Status")),
        text(published.get("Suspension Status")),
    )
    return f"{status} / {suspension}" if status and suspension else status


LAYOUT = QueueLayout(
    market="CAISO",
    source_id=SOURCE_ID,
    source_name="California ISO, Interconnection Queue Report",
    source_url="https://www.caiso.com/planning/Pages/GeneratorInterconnection/Default.aspx",
    expected="CAISO's Queue Report workbook (active, completed and withdrawn sheets)",
    sheets=(
        QueueSheet(
            name="Grid GenerationQueue",
            columns={**_COMMON, "name": "Project Name"},
            optional={**_OPTIONAL, "proposed_date": "Current On-line Date"},
            fuel=_FUEL,
        ),
        QueueSheet(
            name="Completed Generation Projects",
            columns={**_COMMON, "name": "Project Name"},
            optional={**_OPTIONAL, "online_date": "Actual On-line Date",
                      "proposed_date": "Proposed On-line Date (as filed with IR)"},
            fuel=_FUEL,
        ),
        QueueSheet(
            name="Withdrawn Generation Projects",
            columns={**_COMMON, "name": "Project Name - Confidential"},
            optional={**_OPTIONAL, "withdrawn_date": "Withdrawn Date",
                      "proposed_date": "Current On-line Date"},
            fuel=_FUEL,
        ),
    ),
    statuses=STATUSES,
    status_text=status_text,
)  # fmt: skip
parse = LAYOUT.parse
