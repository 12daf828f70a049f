"""Tables with provenance: wire-shaped rows, quality flags as text, column configs for units.

Every shaping function here takes records as the interface publishes them (camelCase keys),
so it works the same on the client's models (dumped by alias) and on raw JSON.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

import pandas as pd
import streamlit as st

PROVENANCE_HELP = "Where the record came from: source id, locator inside the source, observed at."


def as_wire(record: Any) -> dict[str, Any]:
    """Return the record as a camelCase dict, whether it is a client model or plain JSON."""
    if record is None:
        return {}
    if isinstance(record, Mapping):
        return dict(record)
    dump = getattr(record, "model_dump", None)
    if dump is not None:
        return dump(by_alias=True, mode="json")
    raise TypeError(f"cannot read a record of type {type(record).__name__}")


def as_wire_list(records: Iterable[Any]) -> list[dict[str, Any]]:
    """Return every record as a camelCase dict."""
    return [as_wire(record) for record in records]


def flag_text(flag: Mapping[str, Any]) -> str:
    """Return one quality flag as readable text: `code (field): message`."""
    code = flag.get("code") or "flag"
    field = flag.get("field")
    message = flag.get("message")
    text = f"{code} ({field})" if field else str(code)
    return f"{text}: {message}" if message else text


def flags_text(flags: Iterable[Mapping[str, Any]] | None) -> str:
    """Return a record's quality flags joined as one line; empty when there are none."""
    return "; ".join(flag_text(flag) for flag in (flags or []))


def flags_frame(flags: Iterable[Mapping[str, Any]] | None) -> pd.DataFrame:
    """Return the quality flags as a table with code, severity, field and message."""
    rows = [
        {
            "code": flag.get("code"),
            "severity": flag.get("severity"),
            "field": flag.get("field"),
            "message": flag.get("message"),
        }
        for flag in (flags or [])
    ]
    return pd.DataFrame(rows, columns=["code", "severity", "field", "message"])


def mapping_frame(mapping: Mapping[str, Any] | None, *, key: str, value: str) -> pd.DataFrame:
    """Return a string-to-value mapping as a two-column table, in the source's own order."""
    rows = [{key: str(k), value: "" if v is None else str(v)} for k, v in (mapping or {}).items()]
    return pd.DataFrame(rows, columns=[key, value])


def mw_column(label: str, *, help: str | None = None) -> Any:
    """A number column in megawatts."""
    return st.column_config.NumberColumn(label, format="%.1f MW", help=help)


def kv_column(label: str = "Voltage") -> Any:
    """A number column in kilovolts."""
    return st.column_config.NumberColumn(label, format="%.0f kV")


def mwh_column(label: str) -> Any:
    """A number column in megawatt-hours."""
    return st.column_config.NumberColumn(label, format="%.0f MWh")


def link_column(label: str, *, display_text: str | None = "Open source") -> Any:
    """A link column that shows a short text instead of the whole address."""
    return st.column_config.LinkColumn(label, display_text=display_text)


def provenance_config() -> dict[str, Any]:
    """Column configs shared by every provenance table."""
    return {
        "sourceId": st.column_config.TextColumn("Source id", help=PROVENANCE_HELP),
        "sourceLocator": st.column_config.TextColumn("Locator", help=PROVENANCE_HELP),
        "observedAt": st.column_config.TextColumn("Observed at", help=PROVENANCE_HELP),
        "qualityFlags": st.column_config.TextColumn(
            "Quality flags", help="Flags the harvest attached to the record", width="large"
        ),
    }


def source_evidence_columns(record: Mapping[str, Any]) -> dict[str, Any]:
    """Return the provenance of a record whose evidence is a source evidence object."""
    evidence = record.get("evidence") or {}
    return {
        "sourceId": evidence.get("sourceId") or record.get("sourceId"),
        "sourceLocator": evidence.get("sourceLocator") or record.get("sourceLocator"),
        "observedAt": evidence.get("observedAt") or record.get("observedAt"),
        "qualityFlags": flags_text(record.get("qualityFlags")),
    }
