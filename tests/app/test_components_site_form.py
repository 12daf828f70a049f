"""The site form's pure checks: the published bounds, with messages that name the field."""

from __future__ import annotations

import datetime as dt

import pytest

from components.site_form import SiteFormValues, build_site_definition, definition_fingerprint


def values(**changes) -> SiteFormValues:
    base = {"latitude": 29.88, "longitude": -97.94, "requested_peak_load_mw": 250.0}
    return SiteFormValues(**(base | changes))


def test_minimal_definition_is_location_and_peak_only():
    definition, errors = build_site_definition(values())
    assert errors == []
    assert definition == {
        "location": {"latitude": 29.88, "longitude": -97.94},
        "requestedPeakLoadMw": 250.0,
    }


def test_full_definition_uses_wire_names_and_keeps_every_field():
    definition, errors = build_site_definition(
        values(
            average_load_mw=200.0,
            curtailable_mw=20.0,
            service_voltage_kv=345.0,
            target_in_service_date=dt.date(2029, 6, 1),
            load_profile="diurnal",
            redundancy="n_plus_1",
            customer_reference=" ACME-42 ",
            address={"addressLine1": "1 Main St", "locality": "San Marcos", "region": ""},
            country_code="US",
            metadata_text="deal=7\n\nowner = ana",
            ramp_profile_text='[{"year": 2029, "mw": 100}]',
            on_site_generation_text='[{"kind": "solar", "mw": 10}]',
            energy_storage_text='{"mwh": 40}',
        )
    )
    assert errors == []
    assert definition["targetInServiceDate"] == "2029-06-01"
    assert definition["customerReference"] == "ACME-42"
    assert definition["address"] == {
        "addressLine1": "1 Main St",
        "locality": "San Marcos",
        "countryCode": "US",
    }
    assert definition["metadata"] == {"deal": "7", "owner": "ana"}
    assert definition["rampProfile"] == [{"year": 2029, "mw": 100}]
    assert definition["onSiteGeneration"] == [{"kind": "solar", "mw": 10}]
    assert definition["energyStorage"] == {"mwh": 40}
    assert definition["loadProfile"] == "diurnal" and definition["redundancy"] == "n_plus_1"


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"latitude": None}, "Location is required"),
        ({"requested_peak_load_mw": None}, "Requested peak load (MW) is required"),
        ({"requested_peak_load_mw": 0.0}, "more than 0 and at most 5000"),
        ({"requested_peak_load_mw": 5000.5}, "more than 0 and at most 5000"),
        ({"average_load_mw": 300.0}, "Average load (300 MW) cannot exceed"),
        ({"curtailable_mw": -1.0}, "Curtailable load must be at least 0"),
        ({"service_voltage_kv": 1200.0}, "at most 1000 kV"),
        ({"target_in_service_date": dt.date(1999, 12, 31)}, "between 2000-01-01 and 2100-12-31"),
        ({"load_profile": "spiky"}, "Load profile must be one of"),
        ({"redundancy": "3n"}, "Redundancy must be one of"),
        ({"customer_reference": "x" * 201}, "Customer reference must be at most 200"),
        ({"country_code": "us"}, "Country code must be two upper-case letters"),
        ({"metadata_text": "no separator"}, "Metadata line 1 must look like key=value"),
        ({"metadata_text": "k" * 65 + "=v"}, "must be at most 64 characters"),
        ({"metadata_text": "\n".join(f"k{i}=v" for i in range(51))}, "at most 50 keys"),
        ({"ramp_profile_text": "[{"}, "Ramp profile is not valid JSON"),
        ({"ramp_profile_text": "[1, 2]"}, "Ramp profile must be a JSON array of objects"),
        ({"ramp_profile_text": "[" + ",".join(["{}"] * 101) + "]"}, "at most 100 entries"),
        ({"on_site_generation_text": "[" + ",".join(["{}"] * 51) + "]"}, "at most 50 entries"),
        ({"energy_storage_text": "[]"}, "Energy storage must be a JSON object"),
    ],
)
def test_each_bound_gives_a_message_naming_the_field(changes, message):
    _, errors = build_site_definition(values(**changes))
    assert any(message in error for error in errors), errors


def test_fingerprint_ignores_key_order_but_not_values():
    first = {"requestedPeakLoadMw": 1.0, "location": {"latitude": 1.0, "longitude": 2.0}}
    same = {"location": {"longitude": 2.0, "latitude": 1.0}, "requestedPeakLoadMw": 1.0}
    other = {"requestedPeakLoadMw": 2.0, "location": {"latitude": 1.0, "longitude": 2.0}}
    assert definition_fingerprint(first) == definition_fingerprint(same)
    assert definition_fingerprint(first) != definition_fingerprint(other)
