"""The market a point is in: the HIFLD ISO/RTO boundary holding it, or the non-ISO region.

The `market` extension object of the territory answer, the site, the assessment and the
surroundings. Where boundaries overlap, an ISO wins over a non-ISO region and the smaller
region over the larger: SPP's boundary is the union of its members' territories and reaches
over ERCOT's in West Texas (Odessa lies in both), so the more specific region is the
likelier market; the others are named in `alsoIn`. A point in no region, or a store without
the boundaries, has none.
"""

from __future__ import annotations

import re
import sqlite3
from typing import Any

from gridservice.geography.polygon_index import polygon_layer

MARKET_LAYER = "market_regions"
MARKET_METHOD = "iso_boundary_point_in_polygon"
# The market of each ISO's balancing authority as EIA-930 codes it.
BALANCING_AUTHORITY_MARKETS = {
    "ERCO": "ERCOT", "SWPP": "SPP", "MISO": "MISO", "PJM": "PJM",
    "CISO": "CAISO", "NYIS": "NYISO", "ISNE": "ISO-NE",
}  # fmt: skip
# How publishers spell the markets, each to the code the ISO boundaries and the queues use:
# EIA-861's Utility_Data names its RTO column "ISONE", HIFLD's boundary and ISO-NE's own
# queue say "ISO-NE". A name not listed is its own code, upper-cased.
MARKET_ALIASES = {"ISONE": "ISO-NE", "ISO NE": "ISO-NE", "ISO NEW ENGLAND": "ISO-NE"}
# A territory spanning two markets names both: "ERCOT/SPP" (older stores wrote "MISO, SPP").
_MARKET_SEPARATORS = re.compile(r"[/,]")


def market_code(name: str) -> str:
    """Return the market code of a publisher's market name ("ISONE" -> "ISO-NE")."""
    text = " ".join(name.split()).upper()
    return MARKET_ALIASES.get(text, text)


def market_codes(text: str | None) -> list[str]:
    """Return the market codes a territory's `isoRto` names, in its order ("ERCOT/SPP")."""
    codes = [market_code(part) for part in _MARKET_SEPARATORS.split(text or "") if part.strip()]
    return list(dict.fromkeys(codes))


def market_at(conn: sqlite3.Connection, latitude: float, longitude: float) -> dict[str, Any] | None:
    """Return the `market` object of a point (code, name, isIso, source, evidence), or None
    when no stored market region holds it."""
    holding = polygon_layer(conn, MARKET_LAYER).holding(latitude, longitude)
    if not holding:
        return None
    best = min(holding, key=lambda h: (not h.body.get("isIso"), h.area, h.region_id))
    body = best.body
    code = str(body.get("code"))
    evidence = dict(body.get("evidence") or {})
    return {
        "code": code,
        "name": body.get("name"),
        "label": code if body.get("isIso") else f"no ISO: {code}",
        "isIso": bool(body.get("isIso")),
        "alsoIn": [str(h.body.get("code")) for h in holding if h is not best],
        "method": MARKET_METHOD,
        "source": evidence.get("publisher"),
        "attribution": evidence.get("attribution"),
        "evidence": evidence,
    }
