"""The site form's pure part: a `gridclient.SiteDefinition`, or what it cannot read, by field.

The bounds are the service's (its 422 names each field); tests/app/test_screen_site.py shows
its messages under the fields.
"""

from __future__ import annotations

import datetime as dt

import pytest

from components.site_form import SiteFormValues, build_site_definition, definition_fingerprint
from gridclient import SiteDefinition


def values(**changes) -> SiteFormValues:
    base = {"latitude": 29.88, "longitude": -97.94, "requested_peak_load_mw": 250.0}
    return SiteFormValues(**(base | changes))


def wire(definition: SiteDefinition) -> dict:
    return definition.model_dump(mode="json", by_alias=True, exclude_none=True)


def test_minimal_definition_is_location_and_peak_only():
    definition, unreadable = build_site_definition(values())
    assert unreadable == {}
    assert wire(definition) == {
        "location": {"latitude": 29.88, "longitude": -97.94},
        "requestedPeakLoadMw": 250.0,
    }


def test_full_definition_keeps_every_field():
    definition, unreadable = build_site_definition(
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
    assert unreadable == {}
    body = wire(definition)
    assert body["targetInServiceDate"] == "2029-06-01"
    assert body["customerReference"] == "ACME-42"
    assert body["address"] == {
        "addressLine1": "1 Main St",
        "locality": "San Marcos",
        "countryCode": "US",
    }
    assert body["metadata"] == {"deal": "7", "owner": "ana"}
    assert body["rampProfile"] == [{"year": 2029, "mw": 100}]
    assert body["onSiteGeneration"] == [{"kind": "solar", "mw": 10}]
    assert body["energyStorage"] == {"mwh": 40}
    assert body["loadProfile"] == "diurnal" and body["redundancy"] == "n_plus_1"


@pytest.mark.parametrize(
    ("changes", "field", "message"),
    [
        ({"latitude": None}, "location", "Location is required"),
        ({"requested_peak_load_mw": None}, "requestedPeakLoadMw", "Requested peak load (MW) is"),
        ({"metadata_text": "no separator"}, "metadata", "Metadata line 1 must look like key=value"),
        ({"ramp_profile_text": "[{"}, "rampProfile", "Ramp profile is not valid JSON"),
        ({"ramp_profile_text": "[1, 2]"}, "rampProfile", "must be a JSON array of objects"),
        ({"on_site_generation_text": "{}"}, "onSiteGeneration", "must be a JSON array"),
        ({"energy_storage_text": "[]"}, "energyStorage", "Energy storage must be a JSON object"),
    ],
)
def test_what_the_form_cannot_read_is_named_by_its_field(changes, field, message):
    definition, unreadable = build_site_definition(values(**changes))
    assert definition is None
    assert any(message in text for text in unreadable[field]), unreadable


def test_rules_beyond_the_published_bounds_are_left_to_the_service():
    # A number within its bound and text the form can read are sent for the service to judge.
    definition, unreadable = build_site_definition(
        values(requested_peak_load_mw=10.0, country_code="us")
    )
    assert unreadable == {}
    assert wire(definition)["address"] == {"countryCode": "us"}


def test_each_number_outside_its_bound_is_named_with_the_bound():
    definition, unreadable = build_site_definition(
        values(
            latitude=95.0,
            longitude=-181.0,
            requested_peak_load_mw=0.0,
            average_load_mw=6000.0,
            curtailable_mw=-1.0,
            service_voltage_kv=1200.0,
        )
    )
    assert definition is None
    assert unreadable["location"] == [
        "Latitude must be between -90 and 90; it is 95.",
        "Longitude must be between -180 and 180; it is -181.",
    ]
    assert "more than 0 and at most 5,000 MW; it is 0.0 MW" in unreadable["requestedPeakLoadMw"][0]
    assert "at most the peak load (5,000.0 MW); it is 6,000.0 MW" in unreadable["averageLoadMw"][0]
    assert "at least 0" in unreadable["curtailableMw"][0]
    assert "at most 1,000 kV; it is 1200 kV" in unreadable["serviceVoltageKv"][0]
    within = values(requested_peak_load_mw=100.0, average_load_mw=120.0)
    assert "(100.0 MW); it is 120.0 MW" in build_site_definition(within)[1]["averageLoadMw"][0]


def test_fingerprint_ignores_key_order_but_not_values():
    first = SiteDefinition.model_validate(
        {"requestedPeakLoadMw": 1.0, "location": {"latitude": 1.0, "longitude": 2.0}}
    )
    same = SiteDefinition.model_validate(
        {"location": {"longitude": 2.0, "latitude": 1.0}, "requestedPeakLoadMw": 1.0}
    )
    other = SiteDefinition.model_validate(
        {"requestedPeakLoadMw": 2.0, "location": {"latitude": 1.0, "longitude": 2.0}}
    )
    assert definition_fingerprint(first) == definition_fingerprint(same)
    assert definition_fingerprint(first) != definition_fingerprint(other)
