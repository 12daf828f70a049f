"""SPP Generation Interconnection Active Requests: queue records.

Sheet 'SPP GI_ActiveRequest', header in row 2 under a 'Last Updated On' line.
`requestedCapacityMw` is 'Capacity' (the interconnection service requested; 'MAX Summer
MW' and 'MAX Winter MW' are kept in the evidence). SPP gives the 'Nearest Town or County':
it is resolved when it names a county of the row's state, otherwise kept as published and
flagged `unresolvedCounty`. SPP gives no project name: records are named from the request
number and flagged `synthesizedProjectName`.
"""

from __future__ import annotations

from gridservice.harvest import fuels
from gridservice.harvest._iso_queue import QueueLayout, QueueSheet

SOURCE_ID = "spp_queue"
STATUSES = {
    "disis stage": "active",
    "facility study stage": "active",
    "ia pending": "active",
    "ia fully executed/on schedule": "active",
    "ia fully executed/on suspension": "suspended",
    "ia fully executed/commercial operation": "operational",
}
FUEL_CODES = {
    "ct": fuels.GAS_GT, "ctg": fuels.GAS_GT, "cc": fuels.GAS_CC, "rice": fuels.GAS_IC,
    "ng": fuels.GAS,
}  # fmt: skip

LAYOUT = QueueLayout(
    market="SPP",
    source_id=SOURCE_ID,
    source_name="Southwest Power Pool, Generation Interconnection Active Requests",
    source_url="https://opsportal.spp.org/Studies/GIActive",
    expected="SPP's GI Active Requests workbook (sheet 'SPP GI_ActiveRequest')",
    sheets=(
        QueueSheet(
            name="SPP GI_ActiveRequest",
            columns={
                "key": "Generation Interconnection Number", "state": "State",
                "county": "Nearest Town or County", "status": "Status", "mw": "Capacity",
            },
            optional={
                "poi": "Substation or Line", "utility": "TO at POI",
                "queue_date": "Request Received", "withdrawn_date": "Date Withdrawn",
                "proposed_date": ("Commercial Operation Date", "In-Service Date"),
                "cluster": "Current Cluster", "service_type": "Service Type",
            },
            fuel=("Generation Type", "Fuel Type"),
        ),
    ),
    statuses=STATUSES,
    fuel_codes=FUEL_CODES,
)  # fmt: skip
parse = LAYOUT.parse
