"""The interconnection point an ERCOT GIS 'POI Location' text names: a bus or a tap on a line.

ERCOT writes the text by hand, so it comes in many shapes:

    59903 Bearkat 345kV                       -> bus 59903 'Bearkat', 345 kV
    Morrow Lake Switch 138kV (5896)           -> bus 5896 'Morrow Lake Switch', 138 kV
    tap 345kV 23914 Tule Canyon - 23912 Ogallala C2
                                              -> tap on the line 23914-23912, 345 kV, circuit C2
    Tap 138 kV Toco Switch (#1700) – Paris Switch (#1693)
                                              -> tap on the line 1700-1693, 138 kV

A text is a bus when it names exactly one bus number with a name; a tap when it splits at
' - ', ' to ' or ' and ' into two sides that each name a bus number with a name. Anything
else (no bus number, one side without a number, a prose description) is kept raw as kind
'unparsed'. Parenthesised remarks that are not a bus number are dropped before parsing
('(Will be upgraded to 138kV)', '(New Substation: Open Sky 68014)').
"""

from __future__ import annotations

import hashlib
import json
import re
from functools import lru_cache
from typing import Any

from gridservice.catalogue.quality import flag

KV = re.compile(r"(\d+(?:\.\d+)?)\s*-?\s*kv\b", re.IGNORECASE)
CIRCUIT = re.compile(
    r"\b(?:ckts?|circuit)\.?\s*[#-]?\s*(\d+)\b|\bckt(\d+)\b|\bc(\d{1,2})\b", re.IGNORECASE
)
BUS_IN_PARENS = re.compile(r"[(\[]\s*(?:bus\s*#?|#)?\s*(\d{1,6})\s*[)\]]?", re.IGNORECASE)
OTHER_PARENS = re.compile(r"\([^()]*\)")
BUS_WORD = re.compile(r"\b(?:bus|pti)\s*#\s*|\bbus\b|#", re.IGNORECASE)
SIDES = re.compile(r"\s*-{2,3}\s*|\s+-\s*|\s*-\s+|\s+(?:to|and)\s+", re.IGNORECASE)
DASHES = re.compile("[\u2010-\u2015\u2212]")
# 'Tap 345 60404 SOLSTICE - ...': a bare voltage after 'tap', followed by a bus number.
BARE_KV = re.compile(r"\btap\s+(69|138|345)\s+(?=#?\d)", re.IGNORECASE)
NUMBER = re.compile(r"(?<![\w.])\d{1,6}(?!\w|\.\d)")
# Words before a bus's name ('tap the 345 kV line from ...') and after it ('... line').
LEADING = re.compile(
    r"^(?:(?:tap|tapping|the|existing|line|from|connecting|both|one|on|at|into|to)\b\s*)+",
    re.IGNORECASE,
)
TRAILING = re.compile(r"(?:\s+(?:line|double circuit|circuits?|ckts?)\b\.?)+$", re.IGNORECASE)
# Filled-in forms: 'Station Name: ESCONDIDO ... Bus #: 8260 ... Voltage ...: 138 kV'.
FORM_STATION = re.compile(
    r"(?:Station (?:Long )?Name|^Substation)[^:\n]*:\s*([^\n:]+?)\s*(?:\n|TSP Station Code|$)"
)
FORM_BUS = re.compile(
    r"Bus\s*(?:#|Number|No\.?|ID\s*#?)\s*:?\s*(?:PTI Bus Number:\s*)?(\d{1,6})", re.I
)
FORM_KV = re.compile(r"(?:Voltage|Transmission kV)[^:\n]*[:-]\s*(\d+(?:\.\d+)?)", re.IGNORECASE)


def parse_poi(raw: str) -> dict[str, Any]:
    """Return the interconnection point row (schema `interconnection_points`) of a text, a
    row of the caller's own."""
    return dict(_parse_poi(raw))


# A build of many monthly reports reads most POI texts again every month.
@lru_cache(maxsize=16384)
def _parse_poi(raw: str) -> dict[str, Any]:
    form = _form(raw)
    if form:
        return form
    point = _parsed(raw, raw)
    if point:
        return point
    flat = " ".join(raw.split())
    kv_match = KV.search(flat)
    digest = hashlib.sha1(flat.encode("utf-8")).hexdigest()
    return _point(f"raw:{digest}", "unparsed", _kv(kv_match), raw)


def _parsed(text: str, raw: str) -> dict[str, Any] | None:
    flat = " ".join(DASHES.sub(" - ", text).split())
    kv = _kv(KV.search(flat) or BARE_KV.search(flat))
    body = _without_remarks(BARE_KV.sub("tap ", flat))
    circuits = [f"C{int(next(g for g in m.groups() if g))}" for m in CIRCUIT.finditer(body)]
    body = " ".join(KV.sub(" ", CIRCUIT.sub(" ", body)).split())
    circuit = ",".join(dict.fromkeys(circuits)) or None
    for separator in SIDES.finditer(body):
        ends = [_bus(body[: separator.start()]), _bus(body[separator.end() :])]
        if all(ends):
            (a_num, a_name), (b_num, b_name) = ends
            low, high = sorted((a_num, b_num))
            point_id = f"tap:{low}-{high}:{_kv_key(kv)}" + (f":{circuit}" if circuit else "")
            return _point(point_id, "tap", kv, raw, from_bus_number=a_num, from_bus_name=a_name,
                          to_bus_number=b_num, to_bus_name=b_name, circuit=circuit)  # fmt: skip
    if re.match(r"\s*tap", flat, re.IGNORECASE) or re.search(r"\btap\b", flat, re.IGNORECASE):
        return None
    bus = _bus(body)
    if bus:
        return _point(f"bus:{bus[0]}", "bus", kv, raw, bus_number=bus[0], bus_name=bus[1])
    return None


def _form(raw: str) -> dict[str, Any] | None:
    """A POI written as a filled-in form, with the station name and bus number labelled."""
    station, bus = FORM_STATION.search(raw), FORM_BUS.search(raw)
    if not (station and bus):
        return None
    kv_match = FORM_KV.search(raw) or KV.search(raw)
    number = int(bus.group(1))
    return _point(f"bus:{number}", "bus", _kv(kv_match), raw, bus_number=number,
                  bus_name=station.group(1).strip())  # fmt: skip


def _kv(match: re.Match | None) -> float | None:
    return float(match.group(1)) if match else None


def _without_remarks(text: str) -> str:
    """Drop parenthesised remarks but keep '(1234)', '(#1234)', '[1234]' and '(Bus# 1234)'."""
    kept = BUS_IN_PARENS.sub(lambda m: f" #{m.group(1)} ", text)
    return " ".join(OTHER_PARENS.sub(" ", kept).split())


def _bus(side: str) -> tuple[int, str] | None:
    """Return (bus number, name) when a side names one bus number (maybe twice) and a name."""
    text = " ".join(BUS_WORD.sub(" ", side).split())
    numbers = set(NUMBER.findall(text))
    if len(numbers) != 1:
        return None
    name = " ".join(NUMBER.sub(" ", text.split(";")[0]).split()).strip(" ,.;:-/")
    name = TRAILING.sub("", LEADING.sub("", name)).strip(" ,.;:-/")
    if not re.search(r"[A-Za-z]{2}", name):
        return None
    return int(numbers.pop()), name


def _kv_key(kv: float | None) -> str:
    return "?" if kv is None else f"{kv:g}"


def _point(point_id: str, kind: str, kv: float | None, raw: str, **fields: Any) -> dict[str, Any]:
    row = {
        "point_id": point_id,
        "kind": kind,
        "kv": kv,
        "bus_number": None,
        "bus_name": None,
        "from_bus_number": None,
        "from_bus_name": None,
        "to_bus_number": None,
        "to_bus_name": None,
        "circuit": None,
        "raw": raw,
    }
    row.update(fields)
    row["quality_flags"] = json.dumps(_flags(kind, kv, raw))
    return row


def _flags(kind: str, kv: float | None, raw: str) -> list[dict[str, str]]:
    if kind == "unparsed":
        return [
            flag(
                "unparsedPointOfInterconnection",
                "raw",
                "The POI text names no bus number with a name, nor a line between two such "
                "buses; it is kept as published.",
            )
        ]
    if kv is None:
        return [flag("missingVoltage", "kv", "The POI text states no voltage in kV.")]
    return []
