"""The site-definition form: widgets within the published bounds, the service's word on the rest.

`build_site_definition` is pure: it turns the form's raw values into a
`gridclient.SiteDefinition`, or into the messages for the fields it cannot even read (a
missing location or peak load, metadata lines that are not key=value, text that is not the
JSON asked for). Every other bound is the service's to check: its 422 names each field, and
the form shows each message under its field (`components.problems`).
"""

from __future__ import annotations

import datetime as dt
import hashlib
import json
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import streamlit as st

from components import glossary, state
from components.problems import Problem, draw_field_messages, draw_problem
from gridclient import MAX_PEAK_LOAD_MW, SiteDefinition

MAX_VOLTAGE_KV = 1000.0
LOAD_PROFILES = ("flat", "diurnal", "seasonal", "variable")
REDUNDANCIES = ("none", "n_plus_1", "2n")
EARLIEST_DATE, LATEST_DATE = dt.date(2000, 1, 1), dt.date(2100, 12, 31)
MAX_TEXT = 200
# The limit is shown and checked here rather than by the widget's max_chars: the browser cuts
# typed text at max_chars without a word, and a longer paste leaves the field empty.
TEXT_LIMIT = f"at most {MAX_TEXT} characters"
TEXT_HELP = f"Optional; {TEXT_LIMIT}."
ADDRESS_FIELDS = {
    "addressLine1": "Address line 1",
    "addressLine2": "Address line 2",
    "locality": "City / locality",
    "region": "State / region",
    "postalCode": "Postal code",
}
NOT_SENT = "The site was not sent"
# The fields inside the optional section (opened when one of them was refused)
OPTIONAL_FIELDS = [
    *(f"address.{name}" for name in ADDRESS_FIELDS),
    "metadata",
    "rampProfile",
    "onSiteGeneration",
    "energyStorage",
]
FieldMessages = dict[str, list[str]]


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


def build_site_definition(values: SiteFormValues) -> tuple[SiteDefinition | None, FieldMessages]:
    """Return the site definition, or None and the messages of each field (wire name) it
    cannot read."""
    messages: FieldMessages = {}

    def refuse(name: str, message: str) -> None:
        messages.setdefault(name, []).append(message)

    if values.latitude is None or values.longitude is None:
        refuse("location", "Location is required: click the map or type latitude and longitude.")
    if values.requested_peak_load_mw is None:
        refuse("requestedPeakLoadMw", "Requested peak load (MW) is required.")
    for name, message in bound_messages(values):
        refuse(name, message)
    for name, message in length_messages(values):
        refuse(name, message)
    metadata = _metadata(values.metadata_text, refuse)
    ramp = _json_text("rampProfile", "Ramp profile", values.ramp_profile_text, list, refuse)
    generation = _json_text(
        "onSiteGeneration", "On-site generation", values.on_site_generation_text, list, refuse
    )
    storage = _json_text(
        "energyStorage", "Energy storage", values.energy_storage_text, dict, refuse
    )
    if messages:
        return None, messages
    address = {name: text.strip() for name, text in values.address.items() if text.strip()}
    if values.country_code.strip():
        address["countryCode"] = values.country_code.strip()
    definition = SiteDefinition(
        requested_peak_load_mw=values.requested_peak_load_mw,
        location={"latitude": values.latitude, "longitude": values.longitude},
        average_load_mw=values.average_load_mw,
        curtailable_mw=values.curtailable_mw,
        service_voltage_kv=values.service_voltage_kv,
        target_in_service_date=values.target_in_service_date,
        load_profile=values.load_profile or None,
        redundancy=values.redundancy or None,
        customer_reference=values.customer_reference.strip() or None,
        address=address or None,
        metadata=metadata or None,
        ramp_profile=ramp,
        on_site_generation=generation,
        energy_storage=storage,
    )
    return definition, {}


def _outside(value: float | None, low: float, high: float, *, low_open: bool = False) -> bool:
    if value is None:
        return False
    return value < low or value > high or (low_open and value == low)


def bound_messages(values: SiteFormValues) -> list[tuple[str, str]]:
    """Return (field, message) for each number outside its published bound, naming the bound."""
    peak = values.requested_peak_load_mw
    found = []
    if _outside(values.latitude, -90, 90):
        found.append(
            ("location", f"Latitude must be between -90 and 90; it is {values.latitude:g}.")
        )
    if _outside(values.longitude, -180, 180):
        found.append(
            ("location", f"Longitude must be between -180 and 180; it is {values.longitude:g}.")
        )
    if _outside(peak, 0, MAX_PEAK_LOAD_MW, low_open=True):
        found.append(
            (
                "requestedPeakLoadMw",
                f"Requested peak load must be more than 0 and at most {MAX_PEAK_LOAD_MW:,.0f} MW; "
                f"it is {peak:,.1f} MW.",
            )
        )
    ceiling = peak if peak is not None and 0 < peak <= MAX_PEAK_LOAD_MW else MAX_PEAK_LOAD_MW
    for name, label, value in (
        ("averageLoadMw", "Average load", values.average_load_mw),
        ("curtailableMw", "Curtailable load", values.curtailable_mw),
    ):
        if _outside(value, 0, ceiling):
            found.append(
                (
                    name,
                    f"{label} must be at least 0 and at most the peak load ({ceiling:,.1f} MW); "
                    f"it is {value:,.1f} MW.",
                )
            )
    if _outside(values.service_voltage_kv, 0, MAX_VOLTAGE_KV, low_open=True):
        found.append(
            (
                "serviceVoltageKv",
                f"Service voltage must be more than 0 and at most {MAX_VOLTAGE_KV:,.0f} kV; "
                f"it is {values.service_voltage_kv:g} kV.",
            )
        )
    return found


def length_messages(values: SiteFormValues) -> list[tuple[str, str]]:
    """Return (field, message) for each text longer than the service keeps, with its length."""
    texts = {"customerReference": values.customer_reference} | {
        f"address.{name}": text for name, text in values.address.items()
    }
    return [
        (
            name,
            f"{field_label(name)} is {len(text.strip()):,} characters long; the limit is "
            f"{MAX_TEXT}. Shorten it.",
        )
        for name, text in texts.items()
        if len(text.strip()) > MAX_TEXT
    ]


def coverage_warning(location: dict[str, Any] | None, states: list[str]) -> str | None:
    """Return the warning for a point in no county the data covers, or None when it is in one.

    `location` is the service's territory resolution of the point; `states` the states its
    queue records name (what the county-based factors can draw on).
    """
    if not isinstance(location, dict) or location.get("county"):
        return None
    covered = ", ".join(states) if states else "no state"
    return (
        "This point is in no county the data covers, so every county-based factor would "
        "abstain and the screening would read 'Insufficient data'. The data covers counties "
        f"in {covered}: move the pin there to screen against it."
    )


def _metadata(text: str, refuse) -> dict[str, str]:
    """Metadata is typed one `key=value` per line."""
    metadata: dict[str, str] = {}
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        key, separator, value = line.partition("=")
        if not separator or not key.strip():
            refuse("metadata", f"Metadata line {number} must look like key=value.")
            continue
        metadata[key.strip()] = value.strip()
    return metadata


def _json_text(name: str, label: str, text: str, kind: type, refuse) -> Any:
    """Return the JSON typed in a text area: a list of objects or an object (None when empty)."""
    if not text.strip():
        return None
    try:
        value = json.loads(text)
    except json.JSONDecodeError as exc:
        refuse(name, f"{label} is not valid JSON ({exc.msg} at line {exc.lineno}).")
        return None
    if kind is list and not (
        isinstance(value, list) and all(isinstance(item, dict) for item in value)
    ):
        refuse(name, f"{label} must be a JSON array of objects.")
        return None
    if kind is dict and not isinstance(value, dict):
        refuse(name, f"{label} must be a JSON object.")
        return None
    return value


def unreadable_fields(messages: FieldMessages) -> Problem:
    """Return the form's own refusal as a problem, each message under its field."""
    lines = [message for field_messages in messages.values() for message in field_messages]
    return Problem(NOT_SENT, "", field_errors=lines, by_field=messages)


def draw_refusal(problem: Problem) -> None:
    """Draw every message of a refused submission in one box, each after its field's label
    (they are also shown under their fields, which a narrow form can push out of view)."""
    lines = [
        f"{field_label(name)}: {message}"
        if name and not message.startswith(field_label(name))
        else message
        for name, messages in problem.by_field.items()
        for message in messages
    ]
    advice = "Correct these fields, then press the button again."
    draw_problem(
        Problem(
            NOT_SENT,
            f"{problem.detail} {advice}" if explains_more(problem) else advice,
            problem.request_id,
            field_errors=lines or problem.field_errors,
        )
    )


def explains_more(problem: Problem) -> bool:
    """Return whether a refusal's detail says more than its field messages (a site abroad:
    why, and what to check), rather than repeating them as `field: message; ...`."""
    parts = [part.strip() for part in problem.detail.split(";") if part.strip()]
    # a part naming one of the fields repeats its message (in the service's own words)
    return bool(parts) and not all(part.split(": ", 1)[0] in problem.by_field for part in parts)


FIELD_LABELS = {
    "location": "Location",
    "requestedPeakLoadMw": "Requested peak load",
    "averageLoadMw": "Average load",
    "curtailableMw": "Curtailable load",
    "serviceVoltageKv": "Service voltage",
    "targetInServiceDate": "Target in-service date",
    "customerReference": "Customer reference",
    "loadProfile": "Load profile",
    "redundancy": "Redundancy",
    "address.countryCode": "Country code",
    "metadata": "Metadata",
    "rampProfile": "Ramp profile",
    "onSiteGeneration": "On-site generation",
    "energyStorage": "Energy storage",
    **{f"address.{name}": label for name, label in ADDRESS_FIELDS.items()},
}


def field_label(name: str) -> str:
    """Return the form's label of a field named by its wire name."""
    return FIELD_LABELS.get(name) or glossary.column_label(name.rpartition(".")[2])


def definition_fingerprint(definition: SiteDefinition) -> str:
    """Return a stable hash of a definition (the same body means the same submission)."""
    body = definition.model_dump(mode="json", by_alias=True, exclude_none=True)
    text = json.dumps(body, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def idempotency_key_for(definition: SiteDefinition) -> str:
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


def remember_success(definition: SiteDefinition, key: str, site_id: str) -> None:
    st.session_state[state.LAST_SITE_RESULT] = {
        "fingerprint": definition_fingerprint(definition),
        "key": key,
        "site_id": site_id,
    }


def _field(widget: Callable[..., Any], problem: Problem | None, name: str, *args, **kwargs) -> Any:
    """Draw a widget and, under it, what `problem` says about its field (a wire name)."""
    value = widget(*args, **kwargs)
    draw_field_messages(problem, name)
    return value


def site_form(
    point: tuple[float, float] | None, problem: Problem | None = None
) -> tuple[SiteDefinition | None, FieldMessages] | None:
    """Draw the form, each field with `problem`'s messages about it; on submit return
    `build_site_definition`'s answer, otherwise None."""
    state.site_submission_key()  # made when the form is drawn, kept until a success
    with st.form("site_definition"):
        st.markdown(
            f"**Location:** {point[0]:.5f}, {point[1]:.5f}"
            if point
            else "**Location:** not set yet"
        )
        draw_field_messages(problem, "location")
        # Two columns: three left every field too narrow at 1280 px ("not giv", "yyyy / [").
        first, second = st.columns(2)
        with first:
            peak = _field(
                st.number_input,
                problem,
                "requestedPeakLoadMw",
                "Requested peak load (MW) *",
                # no default: a cleared field is refused, never screened at a number the
                # analyst did not type
                value=None,
                step=10.0,
                placeholder="required",
                help=f"Required; more than 0 and at most {MAX_PEAK_LOAD_MW:,.0f} MW.",
            )
        with second:
            average = _field(
                st.number_input,
                problem,
                "averageLoadMw",
                "Average load (MW)",
                value=None,
                step=10.0,
                help="At least 0 and at most the peak load.",
            )
        with first:
            curtailable = _field(
                st.number_input,
                problem,
                "curtailableMw",
                "Curtailable load (MW)",
                value=None,
                step=10.0,
                help="At least 0 and at most the peak load.",
            )
        with second:
            voltage = _field(
                st.number_input,
                problem,
                "serviceVoltageKv",
                "Service voltage (kV)",
                value=None,
                step=1.0,
                help="More than 0 and at most 1000 kV.",
            )
        with first:
            target = _field(
                st.date_input,
                problem,
                "targetInServiceDate",
                "Target in-service date",
                value=None,
                min_value=EARLIEST_DATE,
                max_value=LATEST_DATE,
            )
        with second:
            reference = st.text_input("Customer reference", placeholder=TEXT_LIMIT, help=TEXT_HELP)
            draw_field_messages(problem, "customerReference")
        with first:
            profile = _field(
                st.selectbox,
                problem,
                "loadProfile",
                "Load profile",
                LOAD_PROFILES,
                index=None,
                placeholder="not given",
            )
        with second:
            redundancy = _field(
                st.selectbox,
                problem,
                "redundancy",
                "Redundancy",
                REDUNDANCIES,
                index=None,
                placeholder="not given",
            )
        with first:
            country = st.text_input("Country code", max_chars=2, placeholder="US")
            draw_field_messages(problem, "address.countryCode")
        refused_inside = (
            any(problem.messages_for(name) for name in OPTIONAL_FIELDS) if problem else False
        )
        with st.expander("Address, metadata and profiles (optional)", expanded=refused_inside):
            columns = st.columns(len(ADDRESS_FIELDS))
            address = {}
            for column, (name, label) in zip(columns, ADDRESS_FIELDS.items(), strict=True):
                with column:
                    address[name] = st.text_input(label, placeholder=TEXT_LIMIT, help=TEXT_HELP)
                    draw_field_messages(problem, f"address.{name}")
            metadata = st.text_area("Metadata (one key=value per line)", height=80)
            draw_field_messages(problem, "metadata")
            ramp = st.text_area("Ramp profile (JSON array of objects, at most 100)", height=80)
            draw_field_messages(problem, "rampProfile")
            generation = _field(
                st.text_area,
                problem,
                "onSiteGeneration",
                "On-site generation (JSON array of objects, at most 50)",
                height=80,
            )
            storage = st.text_area("Energy storage (JSON object)", height=68)
            draw_field_messages(problem, "energyStorage")
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
