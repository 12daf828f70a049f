"""NYISO Interconnection Queue: queue records from its five sheets.

The active ('Interconnection Queue', ' Cluster Projects'), withdrawn ('Withdrawn',
'Cluster Projects-Withdrawn') and 'In Service' sheets; the last has its column names over
two rows ('Queue' over 'Pos.'). `requestedCapacityMw` is 'SP (MW)' (summer peak; 'WP (MW)'
is kept in the evidence). The status is NYISO's code in column 'S' (0 withdrawn, 1 to 13
the steps of the process, 14 in service, 15 partly in service, '1C' a cluster project).
"""

from __future__ import annotations

from gridservice.harvest import fuels
from gridservice.harvest._iso_queue import QueueLayout, QueueSheet

SOURCE_ID = "nyiso_queue"
STATUSES = {
    "0": "withdrawn",
    **{str(step): "active" for step in range(1, 14)},
    "14": "operational",
    "15": "operational",
    "1c": "active",
}
# NYISO's 'Type/ Fuel' codes (its legend); 'AC'/'DC' transmission and 'L' load get none.
FUEL_CODES = {
    "s": fuels.SOLAR, "w": fuels.WIND, "osw": fuels.WIND, "es": fuels.STORAGE,
    "f": fuels.STORAGE, "cc": fuels.GAS_CC, "ct": fuels.GAS_GT, "st": fuels.GAS_ST,
    "ng": fuels.GAS, "d": fuels.GAS, "o": fuels.OIL, "c": fuels.COAL, "nu": fuels.NUCLEAR,
    "h": fuels.HYDRO, "ps": fuels.HYDRO, "m": fuels.BIOMASS, "sw": fuels.BIOMASS,
    "wo": fuels.BIOMASS, "fc": fuels.FUEL_CELL,
}  # fmt: skip
_COMMON = {
    "key": "Queue Pos.", "name": "Project Name", "mw": "SP (MW)", "state": "State",
    "status": "S",
}  # fmt: skip
_OPTIONAL = {"queue_date": "Date of IR", "utility": "Utility"}
_ACTIVE_OPTIONAL = {
    **_OPTIONAL, "poi": "Points of Interconnection", "proposed_date": "Proposed COD",
    "ia_date": "IA Tender Date",
}  # fmt: skip
_WITHDRAWN_OPTIONAL = {**_OPTIONAL, "poi": "Interconnection Point", "developer": "Owner/Developer"}
_FUEL = ("Type/ Fuel",)

LAYOUT = QueueLayout(
    market="NYISO",
    source_id=SOURCE_ID,
    source_name="New York ISO, Interconnection Queue",
    source_url="https://www.nyiso.com/interconnections",
    expected="NYISO's Interconnection Queue workbook (five sheets)",
    sheets=(
        QueueSheet(
            name="Interconnection Queue",
            columns={**_COMMON, "county": "County"},
            optional={**_ACTIVE_OPTIONAL, "developer": "Developer/Interconnection Customer"},
            fuel=_FUEL,
        ),
        QueueSheet(
            name=" Cluster Projects",
            columns={**_COMMON, "county": "County"},
            optional={**_ACTIVE_OPTIONAL, "developer": "Interconnection Customer Name"},
            fuel=_FUEL,
        ),
        QueueSheet(
            name="Withdrawn",
            columns={**_COMMON, "county": "County"},
            optional=_WITHDRAWN_OPTIONAL,
            fuel=_FUEL,
        ),
        QueueSheet(
            name="Cluster Projects-Withdrawn",
            columns={**_COMMON, "county": "County"},
            optional=_WITHDRAWN_OPTIONAL,
            fuel=_FUEL,
        ),
        QueueSheet(
            name="In Service",
            columns={**_COMMON, "county": "Location County"},
            optional={**_WITHDRAWN_OPTIONAL, "queue_date": "Date of IR",
                      "online_date": "Proposed In-Service"},
            fuel=("Type/ Fuel",),
        ),
    ),
    statuses=STATUSES,
    fuel_codes=FUEL_CODES,
)  # fmt: skip
parse = LAYOUT.parse
