"""PJM Serial Service Request Status (New Services Queue): queue records.

Sheet 'Data', one row per request. `requestedCapacityMw` is 'MW Energy' (the injection
the request asks for; 'MW Capacity' is the part of it with capacity rights). PJM has no
separate point-of-interconnection column: 'Name' is the substation or line, so it is both
the point of interconnection and, when there is no 'Commercial Name', the project name.
"""

from __future__ import annotations

from gridservice.harvest._iso_queue import QueueLayout, QueueSheet

SOURCE_ID = "pjm_queue"
STATUSES = {
    "active": "active",
    "engineering and procurement": "active",
    "under construction": "active",
    "partially in service - under construction": "active",
    "suspended": "suspended",
    "in service": "operational",
    "withdrawn": "withdrawn",
    "canceled": "withdrawn",
    # Built, then deactivated: no longer requested nor operating.
    "deactivated": "withdrawn",
}

LAYOUT = QueueLayout(
    market="PJM",
    source_id=SOURCE_ID,
    source_name="PJM Interconnection, Serial Service Request Status (New Services Queue)",
    source_url="https://www.pjm.com/planning/service-requests/serial-service-request-status",
    expected="PJM's Serial Service Request Status workbook (sheet 'Data')",
    sheets=(
        QueueSheet(
            name="Data",
            columns={
                "key": "Project ID", "name": ("Commercial Name", "Name"), "poi": "Name",
                "state": "State", "county": "County", "status": "Status", "mw": "MW Energy",
            },
            optional={
                "utility": "Transmission Owner", "queue_date": "Submitted Date",
                "proposed_date": ("Revised In Service Date", "Commercial Operation Milestone"),
                "online_date": "Actual In Service Date", "withdrawn_date": "Withdrawal Date",
                "service_type": "Capacity or Energy",
            },
            fuel=("Fuel",),
        ),
    ),
    statuses=STATUSES,
)  # fmt: skip
parse = LAYOUT.parse
