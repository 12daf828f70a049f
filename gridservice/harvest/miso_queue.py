"""MISO Generator Interconnection Interactive Queue (CSV): queue records.

`requestedCapacityMw` is 'Summer MW' (MISO plans its resource adequacy on the summer
peak; 'Winter MW' is kept in the evidence). MISO gives no project name, so each record is
named from its 'Project #' and flagged `synthesizedProjectName`. A request MISO calls
'Done' (its agreement is signed) is read with its 'Post GIA Status'. The file holds a test
row of random words ('fish mango watermelon'): neither its state nor its status is MISO's,
so it is rejected as not a project.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from gridservice.harvest._iso_queue import QueueLayout, QueueSheet, text

SOURCE_ID = "miso_queue"
STATUSES = {
    "active": "active",
    "withdrawn": "withdrawn",
    "done": "active",
    "done / not started": "active",
    "done / under construction": "active",
    "done / in service": "operational",
    "done / in service (with provisional gia)": "operational",
    "done / withdrawn": "withdrawn",
}


def status_text(published: Mapping[str, Any]) -> str | None:
    """Return MISO's 'Request Status', with the 'Post GIA Status' of a 'Done' request."""
    status, post = text(published.get("Request Status")), text(published.get("Post GIA Status"))
    return f"{status} / {post}" if status == "Done" and post else status


LAYOUT = QueueLayout(
    market="MISO",
    source_id=SOURCE_ID,
    source_name="MISO, Generator Interconnection Interactive Queue",
    source_url="https://www.misoenergy.org/planning/resource-utilization/GI_Queue/gi-interactive-queue/",
    expected="MISO's GI Interactive Queue CSV export",
    sheets=(
        QueueSheet(
            name=None,
            columns={
                "key": "Project #", "state": "State", "county": "County",
                "status": "Request Status", "mw": "Summer MW",
            },
            optional={
                "poi": "POI Name", "utility": "Transmission Owner", "queue_date": "Queue Date",
                "withdrawn_date": "Withdrawn Date", "ia_date": "Done Date",
                "proposed_date": ("Negotiated In Service Date", "Appl In Service Date"),
                "cluster": "Study Cycle", "service_type": "Service Type",
            },
            fuel=("Fuel", "Generating Facility"),
        ),
    ),
    statuses=STATUSES,
    status_text=status_text,
)  # fmt: skip
parse = LAYOUT.parse
