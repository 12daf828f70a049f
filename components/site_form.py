"""The site-definition form: every field with the published bounds, and clear messages.

`build_site_definition` is pure: it turns the form's raw values into the wire definition
(camelCase, empty fields left out) and a list of messages naming each field that is wrong.
The bounds mirror the service's (docs/ARCHITECTURE.md, "Site definition").
"""

from __future__ import annotations

import datetime as dt
import hashlib
import json
import re
from dataclasses import dataclass, field
from typing import Any

import pandas as pd
import streamlit as st

from components import state
from components.connection import ConnectionKey, client_for

MAX_PEAK_MW = 5000.0
MAX_VOLTAGE_KV = 1000.0
LOAD_PROFILES = ("flat", "diurnal", "seasonal", "variable")
REDUNDANCIES = ("none", "n_plus_1", "2n")
EARLIEST_DATE, LATEST_DATE = dt.date(2000, 1, 1), dt.date(2100, 12, 31)
MAX_RAMP_STEPS, MAX_GENERATION_ITEMS = 100, 50
MAX_TEXT = 200
MAX_METADATA_KEYS, MAX_METADATA_KEY, MAX_METADATA_VALUE = 50, 64, 500
ADDRESS_FIELDS = {
    "addressLine1": "Address line 1",
    "addressLine2": "Address line 2",
    "locality": "City / locality",
    "region": "State / region",
    "postalCode": "Postal code",
}


@dataclass
class SiteFormValues:
    """The raw values of the form, as the widgets give them."""

    latitude: float | None
    longitude: float | None
    requested_peak_load_mw: float | None
    average_load_mw: float | None = None
    curtailable_mw: float | None = None
    service_voltage_kv: float | None = None
    target_in_service_date: dt.date | None = None
    load_profile: str | None = None
    redundancy: str | None = None
    customer_reference: str = ""
    address: dict[str, str] = field(default_factory=dict)
    country_code: str = ""
    metadata_text: str = ""
    ramp_profile_text: str = ""
    on_site_generation_text: str = ""
    energy_storage_text: str = ""


def build_site_definition(values: SiteFormValues) -> tuple[dict[str, Any], list[str]]:
    """Return the wire site definition and the messages for every field that is wrong."""
    errors: list[str] = []
    definition: dict[str, Any] = {}
    _location(values, definition, errors)
    _loads(values, definition, errors)
    if values.target_in_service_date is not None:
        day = values.target_in_service_date
        if EARLIEST_DATE <= day <= LATEST_DATE:
            definition["targetInServiceDate"] = day.isoformat()
        else:
            errors.append("Target in-service date must be between 2000-01-01 and 2100-12-31.")
    if values.load_profile:
        _choice("Load profile", values.load_profile, LOAD_PROFILES, errors)
        definition["loadProfile"] = values.load_profile
    if values.redundancy:
        _choice("Redundancy", values.redundancy, REDUNDANCIES, errors)
        definition["redundancy"] = values.redundancy
    reference = values.customer_reference.strip()
    if reference:
        if len(reference) > MAX_TEXT:
            errors.append(f"Customer reference must be at most {MAX_TEXT} characters.")
        definition["customerReference"] = reference
    _address(values, definition, errors)
    _metadata(values.metadata_text, definition, errors)
    _json_list(
        "Ramp profile", "rampProfile", values.ramp_profile_text, MAX_RAMP_STEPS, definition, errors
    )
    _json_list(
        "On-site generation",
        "onSiteGeneration",
        values.on_site_generation_text,
        MAX_GENERATION_ITEMS,
        definition,
        errors,
    )
    _energy_storage(values.energy_storage_text, definition, errors)
    return definition, errors


def _location(values: SiteFormValues, definition: dict, errors: list[str]) -> None:
    if values.latitude is None or values.longitude is None:
        errors.append("Location is required: click the map or type latitude and longitude.")
        return
    if not -90 <= values.latitude <= 90:
        errors.append("Latitude must be between -90 and 90.")
    if not -180 <= values.longitude <= 180:
        errors.append("Longitude must be between -180 and 180.")
    definition["location"] = {"latitude": values.latitude, "longitude": values.longitude}


def _loads(values: SiteFormValues, definition: dict, errors: list[str]) -> None:
    peak = values.requested_peak_load_mw
    if peak is None:
        errors.append("Requested peak load (MW) is required.")
    elif not 0 < peak <= MAX_PEAK_MW:
        errors.append(f"Requested peak load must be more than 0 and at most {MAX_PEAK_MW:g} MW.")
    else:
        definition["requestedPeakLoadMw"] = peak
    for label, name, value in (
        ("Average load", "averageLoadMw", values.average_load_mw),
        ("Curtailable load", "curtailableMw", values.curtailable_mw),
    ):
        if value is None:
            continue
        if value < 0:
            errors.append(f"{label} must be at least 0 MW.")
        elif peak is not None and value > peak:
            errors.append(
                f"{label} ({value:g} MW) cannot exceed the requested peak load ({peak:g} MW)."
            )
        definition[name] = value
    voltage = values.service_voltage_kv
    if voltage is not None:
        if not 0 < voltage <= MAX_VOLTAGE_KV:
            errors.append(f"Service voltage must be more than 0 and at most {MAX_VOLTAGE_KV:g} kV.")
        definition["serviceVoltageKv"] = voltage


def _choice(label: str, value: str, allowed: tuple[str, ...], errors: list[str]) -> None:
    if value not in allowed:
        errors.append(f"{label} must be one of: {', '.join(allowed)}.")


def _address(values: SiteFormValues, definition: dict, errors: list[str]) -> None:
    address = {}
    for name, label in ADDRESS_FIELDS.items():
        text = (values.address.get(name) or "").strip()
        if not text:
            continue
        if len(text) > MAX_TEXT:
            errors.append(f"{label} must be at most {MAX_TEXT} characters.")
        address[name] = text
    country = values.country_code.strip()
    if country:
        if not re.fullmatch(r"[A-Z]{2}", country):
            errors.append("Country code must be two upper-case letters, e.g. US.")
        address["countryCode"] = country
    if address:
        definition["address"] = address


def _metadata(text: str, definition: dict, errors: list[str]) -> None:
    """Metadata is typed one `key=value` per line."""
    metadata: dict[str, str] = {}
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        key, separator, value = line.partition("=")
        key, value = key.strip(), value.strip()
        if not separator or not key:
            errors.append(f"Metadata line {number} must look like key=value.")
            continue
        if len(key) > MAX_METADATA_KEY:
            errors.append(
                f"Metadata key {key[:20]!r}… must be at most {MAX_METADATA_KEY} characters."
            )
        if len(value) > MAX_METADATA_VALUE:
            errors.append(
                f"Metadata value of {key!r} must be at most {MAX_METADATA_VALUE} characters."
            )
        metadata[key] = value
    if len(metadata) > MAX_METADATA_KEYS:
        errors.append(f"Metadata may have at most {MAX_METADATA_KEYS} keys.")
    if metadata:
        definition["metadata"] = metadata


def _parse_json(label: str, text: str, errors: list[str]) -> Any:
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        errors.append(f"{label} is not valid JSON ({exc.msg} at line {exc.lineno}).")
        return None


def _json_list(
    label: str, name: str, text: str, limit: int, definition: dict, errors: list[str]
) -> None:
    if not text.strip():
        return
    value = _parse_json(label, text, errors)
    if value is None:
        return
    if not isinstance(value, list) or not all(isinstance(item, dict) for item in value):
        errors.append(f"{label} must be a JSON array of objects.")
    elif len(value) > limit:
        errors.append(f"{label} may have at most {limit} entries (has {len(value)}).")
    definition[name] = value


def _energy_storage(text: str, definition: dict, errors: list[str]) -> None:
    if not text.strip():
        return
    value = _parse_json("Energy storage", text, errors)
    if value is not None and not isinstance(value, dict):
        errors.append("Energy storage must be a JSON object.")
    elif value is not None:
        definition["energyStorage"] = value


def definition_fingerprint(definition: dict[str, Any]) -> str:
    """Return a stable hash of a definition (the same body means the same submission)."""
    body = json.dumps(definition, sort_keys=True, separators=(",", ":"), default=str)
    return hashlib.sha256(body.encode("utf-8")).hexdigest()


def idempotency_key_for(definition: dict[str, Any]) -> str:
    """Return the Idempotency-Key to send for this definition.

    The key is made when the form is drawn and kept across reruns, so a double click (or a
    retry after an interrupted run) sends the same key with the same body and the service
    replays the one site. Only a changed definition after a success gets a fresh key.
    """
    fingerprint = definition_fingerprint(definition)
    done = st.session_state.get(state.LAST_SITE_RESULT)
    if done and done["fingerprint"] != fingerprint and done["key"] == state.site_submission_key():
        state.finish_site_submission()
    return state.site_submission_key()


def remember_success(definition: dict[str, Any], key: str, site_id: str) -> None:
    st.session_state[state.LAST_SITE_RESULT] = {
        "fingerprint": definition_fingerprint(definition),
        "key": key,
        "site_id": site_id,
    }


def site_form(point: tuple[float, float] | None) -> tuple[dict[str, Any], list[str]] | None:
    """Draw the form; on submit return (definition, errors), otherwise None."""
    state.site_submission_key()  # made when the form is drawn, kept until a success
    with st.form("site_definition"):
        st.markdown(
            f"**Location:** {point[0]:.5f}, {point[1]:.5f}"
            if point
            else "**Location:** not set yet"
        )
        first, second, third = st.columns(3)
        peak = first.number_input(
            "Requested peak load (MW) *",
            min_value=0.0,
            max_value=MAX_PEAK_MW,
            value=100.0,
            step=10.0,
            help="Required; more than 0 and at most 5000 MW.",
        )
        average = second.number_input(
            "Average load (MW)",
            min_value=0.0,
            max_value=MAX_PEAK_MW,
            value=None,
            step=10.0,
            help="At least 0 and at most the peak load.",
        )
        curtailable = third.number_input(
            "Curtailable load (MW)",
            min_value=0.0,
            max_value=MAX_PEAK_MW,
            value=None,
            step=10.0,
            help="At least 0 and at most the peak load.",
        )
        voltage = first.number_input(
            "Service voltage (kV)",
            min_value=0.0,
            max_value=MAX_VOLTAGE_KV,
            value=None,
            step=1.0,
            help="More than 0 and at most 1000 kV.",
        )
        target = second.date_input(
            "Target in-service date", value=None, min_value=EARLIEST_DATE, max_value=LATEST_DATE
        )
        reference = third.text_input("Customer reference", max_chars=MAX_TEXT)
        profile = first.selectbox(
            "Load profile", LOAD_PROFILES, index=None, placeholder="not given"
        )
        redundancy = second.selectbox(
            "Redundancy", REDUNDANCIES, index=None, placeholder="not given"
        )
        country = third.text_input("Country code", max_chars=2, placeholder="US")
        with st.expander("Address, metadata and profiles (optional)"):
            columns = st.columns(len(ADDRESS_FIELDS))
            address = {
                name: column.text_input(label, max_chars=MAX_TEXT)
                for column, (name, label) in zip(columns, ADDRESS_FIELDS.items(), strict=True)
            }
            metadata = st.text_area("Metadata (one key=value per line)", height=80)
            ramp = st.text_area("Ramp profile (JSON array of objects, at most 100)", height=80)
            generation = st.text_area(
                "On-site generation (JSON array of objects, at most 50)", height=80
            )
            storage = st.text_area("Energy storage (JSON object)", height=68)
        submitted = st.form_submit_button("Create site and screen it", type="primary")
    if not submitted:
        return None
    values = SiteFormValues(
        latitude=point[0] if point else None,
        longitude=point[1] if point else None,
        requested_peak_load_mw=peak,
        average_load_mw=average,
        curtailable_mw=curtailable,
        service_voltage_kv=voltage,
        target_in_service_date=target,
        load_profile=profile,
        redundancy=redundancy,
        customer_reference=reference,
        address=address,
        country_code=country,
        metadata_text=metadata,
        ramp_profile_text=ramp,
        on_site_generation_text=generation,
        energy_storage_text=storage,
    )
    return build_site_definition(values)


@st.cache_data(ttl=60, show_spinner=False)
def fetch_sites_with_assessments(key: ConnectionKey, max_sites: int = 200) -> list[dict[str, Any]]:
    """Return the tenant's sites (wire dicts), newest first, each with its `assessments`."""
    client = client_for(key)
    sites = [site.to_wire() for site in client.sites.list(max_items=max_sites)]
    for site in sites:
        site["assessments"] = [
            assessment.to_wire() for assessment in client.assessments.list(site["id"])
        ]
    return sorted(sites, key=lambda site: site.get("createdAt") or "", reverse=True)


def sites_frame(sites: list[dict[str, Any]]) -> pd.DataFrame:
    """Return one row per assessment (a site without one still gets a row)."""
    rows = []
    for site in sites:
        location = site.get("location") or {}
        base = {
            "Site": site.get("id"),
            "Customer reference": site.get("customerReference"),
            "Peak MW": site.get("requestedPeakLoadMw"),
            "Latitude": location.get("latitude"),
            "Longitude": location.get("longitude"),
            "Site created": site.get("createdAt"),
        }
        assessments = site.get("assessments") or [{}]
        for assessment in assessments:
            readiness = assessment.get("readiness") or {}
            assessment_id = assessment.get("id")
            rows.append(
                base
                | {
                    "Assessment": assessment_id,
                    "Readiness": readiness.get("level"),
                    "Assessed at": assessment.get("createdAt"),
                    "Open": f"assessment?assessment={assessment_id}" if assessment_id else None,
                }
            )
    columns = [
        "Site",
        "Customer reference",
        "Peak MW",
        "Latitude",
        "Longitude",
        "Site created",
        "Assessment",
        "Readiness",
        "Assessed at",
        "Open",
    ]
    return pd.DataFrame(rows, columns=columns)


SITES_COLUMN_CONFIG = {
    "Peak MW": st.column_config.NumberColumn(format="%.1f MW"),
    "Open": st.column_config.LinkColumn("Open", display_text="open assessment"),
}
