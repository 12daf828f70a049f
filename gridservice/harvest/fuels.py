"""One fuel and technology vocabulary for every queue: ERCOT's codes.

ERCOT's GIS report writes a project's fuel and technology as codes from its Acronyms
sheet ('SOL/PV', 'WIN/WT', 'OTH/BA' for a battery, 'GAS/CC'); its event sheets spell the
fuel as a word (`FUEL_CODES`). The other ISOs' queues spell fuels and technologies in words
or in their own codes; `technology_code` reads those into the same 'FUEL/TECH' codes, so a
solar request reads 'SOL/PV' whichever market published it. A project of several parts
(a hybrid) joins its parts with '+', e.g. 'SOL/PV+OTH/BA'. A word in no table gives no
code: the publisher's own word stays in the record's evidence.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping

# ERCOT's event sheets: fuel word -> ERCOT fuel code.
FUEL_CODES = {
    "solar": "SOL", "wind": "WIN", "gas": "GAS", "other": "OTH", "nuclear": "NUC",
    "coal": "COA", "biomass": "BIO", "hydro": "WAT", "geothermal": "GEO",
    "battery": "BAT", "battery storage": "BAT", "fuel oil": "OIL",
}  # fmt: skip

SOLAR, WIND, STORAGE = "SOL/PV", "WIN/WT", "OTH/BA"
GAS, GAS_CC, GAS_GT, GAS_IC, GAS_ST = "GAS", "GAS/CC", "GAS/GT", "GAS/IC", "GAS/ST"
OIL, COAL, NUCLEAR, HYDRO = "OIL/OT", "COA/ST", "NUC/ST", "WAT/OT"
GEOTHERMAL, BIOMASS, FUEL_CELL, OTHER = "GEO/OT", "BIO/OT", "OTH/FC", "OTH/OT"

# Words (lower case) that mean the same in every ISO's queue. A bare fuel (GAS) takes the
# technology another column of the row names; codes particular to one ISO live in its module.
WORDS: dict[str, str] = {
    "solar": SOLAR, "photovoltaic": SOLAR, "solar thermal": SOLAR,
    "wind": WIND, "wind turbine": WIND, "offshore wind": WIND,
    "storage": STORAGE, "battery": STORAGE, "battery storage": STORAGE,
    "energy storage": STORAGE, "flywheel": STORAGE, "gravity via rail": STORAGE,
    "combined cycle": GAS_CC, "combined-cycle – steam plant": GAS_CC,
    "combustion turbine": GAS_GT, "gas turbine": GAS_GT,
    "combustion turbine (simple cycle)": GAS_GT,
    "reciprocating engine": GAS_IC, "recip gas": GAS_IC,
    "piston (engine), internal combustion (diesel)": GAS_IC,
    "steam": GAS_ST, "steam turbine": GAS_ST, "cogeneration": GAS_ST, "co-gen": GAS_ST,
    "waste heat recovery": GAS_ST,
    "natural gas": GAS, "gas": GAS,
    "oil": OIL, "diesel": OIL, "fuel oil": OIL,
    "coal": COAL, "nuclear": NUCLEAR,
    "hydro": HYDRO, "water": HYDRO, "hydroelectric": HYDRO, "pumped-storage hydro": HYDRO,
    "geothermal": GEOTHERMAL,
    "biomass": BIOMASS, "biofuel": BIOMASS, "wood": BIOMASS, "methane": BIOMASS,
    "fuel cell": FUEL_CELL, "other": OTHER,
}  # fmt: skip
_SEPARATORS = re.compile(r"\s*[;/+\\]\s*|\s+and\s+")


def technology_code(
    texts: Iterable[str | None], codes: Mapping[str, str] | None = None
) -> str | None:
    """Return the 'FUEL/TECH' code of a project from its publisher's words, or None.

    `codes` adds the publisher's own abbreviations (lower case) to the shared `WORDS`.
    Each text may name several parts ('Solar; Storage', 'SUN BAT', 'Solar/Battery');
    a bare fuel takes the technology another text of the row names ('Natural Gas' +
    'Combined Cycle' -> 'GAS/CC'), else 'OT' (other).
    """
    table = {**WORDS, **(codes or {})}
    found: list[str] = []
    for text in texts:
        for part in _parts(text, table):
            code = table.get(part)
            found.extend([code] if code else [c for c in map(table.get, part.split()) if c])
    return _joined(found)


def _parts(text: str | None, table: Mapping[str, str]) -> list[str]:
    key = " ".join((text or "").lower().split())
    if not key or key in table:
        return [key] if key else []
    return [p for p in _SEPARATORS.split(key) if p]


def _joined(codes: list[str]) -> str | None:
    """Give a bare fuel the technology of the same fuel if named, drop repeats, keep order."""
    techs = [c for c in codes if "/" in c]
    merged: list[str] = []
    for code in codes:
        if "/" not in code:
            same = [t for t in techs if t.startswith(f"{code}/")]
            code = same[0] if same else f"{code}/OT"
        if code not in merged:
            merged.append(code)
    return "+".join(merged) or None
