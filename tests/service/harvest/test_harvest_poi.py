"""Parsing ERCOT's hand-written 'POI Location' texts into buses and line taps.

The texts below are written as they appear in the published GIS reports.
"""

from __future__ import annotations

import pytest

from gridservice.harvest.poi import parse_poi


@pytest.mark.parametrize(
    ("raw", "number", "name", "kv"),
    [
        ("59903 Bearkat 345kV", 59903, "Bearkat", 345.0),
        ("Morrow Lake Switch 138kV (5896)", 5896, "Morrow Lake Switch", 138.0),
        ("345kV 3386 Outlaw Switch", 3386, "Outlaw Switch", 345.0),
        ("(3707) Cannon Switch 138kV", 3707, "Cannon Switch", 138.0),
        ("Anna 345 kV Bus# 2373.", 2373, "Anna", 345.0),
        ("39140 TNTxCityMain 69kV  (Will be upgraded to 138kV)", 39140, "TNTxCityMain", 69.0),
        ("Delaware River SW (11112)", 11112, "Delaware River SW", None),
        (
            "Station Name: Abilene Elm Creek\nTSP Station Code: ELMCRK\nLoad Transformer name: "
            "LOAD1\nBus#: 6255\nVoltage in kV (Transmission Level): 138kV",
            6255, "Abilene Elm Creek", 138.0,
        ),
    ],
)  # fmt: skip
def test_a_bus_gives_its_number_name_and_voltage(raw, number, name, kv):
    point = parse_poi(raw)
    assert (point["kind"], point["bus_number"], point["bus_name"], point["kv"]) == (
        "bus", number, name, kv,
    )  # fmt: skip
    assert point["point_id"] == f"bus:{number}" and point["raw"] == raw


@pytest.mark.parametrize(
    ("raw", "ends", "kv", "circuit", "point_id"),
    [
        ("tap 345kV 23914 Tule Canyon - 23912 Ogallala C2",
         ((23914, "Tule Canyon"), (23912, "Ogallala")), 345.0, "C2", "tap:23912-23914:345:C2"),
        ("Tap 138 kV Toco Switch (#1700) \u2013 Paris Switch (#1693)",
         ((1700, "Toco Switch"), (1693, "Paris Switch")), 138.0, None, "tap:1693-1700:138"),
        ("tap 138kV 42960 Mustang Bayou \u2013 42100 Hudson CKT #04",
         ((42960, "Mustang Bayou"), (42100, "Hudson")), 138.0, "C4", "tap:42100-42960:138:C4"),
        ("Tap 345 kV Stryker [3109] - Lufkin [3117]",
         ((3109, "Stryker"), (3117, "Lufkin")), 345.0, None, "tap:3109-3117:345"),
        ("Tap 1729 Valley South and 1692 Paris",
         ((1729, "Valley South"), (1692, "Paris")), None, None, "tap:1692-1729:?"),
    ],
)  # fmt: skip
def test_a_tap_gives_both_buses_voltage_and_circuit(raw, ends, kv, circuit, point_id):
    point = parse_poi(raw)
    assert point["kind"] == "tap" and point["point_id"] == point_id
    assert (point["from_bus_number"], point["from_bus_name"]) == ends[0]
    assert (point["to_bus_number"], point["to_bus_name"]) == ends[1]
    assert (point["kv"], point["circuit"]) == (kv, circuit)


def test_the_same_line_written_either_way_is_one_point():
    a = parse_poi("tap 345kV 23914 Tule Canyon - 23912 Ogallala C2")
    b = parse_poi("Tap 345kV 23912 OGALLALA - 23914 TULE CANYON Ckt 2")
    assert a["point_id"] == b["point_id"]


@pytest.mark.parametrize(
    "raw",
    [
        "two LCRA 138kV",
        "tap 138kV Jim English \u2013 Lufkin Chipper Mill",
        "Monticello Switch \u2013 Allen Switch 345 kV Line",
        "Tap 345kV 3391Jewett - 44645 Singleton",
    ],
)
def test_text_without_bus_numbers_is_kept_raw_as_unparsed(raw):
    point = parse_poi(raw)
    assert point["kind"] == "unparsed" and point["raw"] == raw
    assert point["point_id"].startswith("raw:")
    assert point["bus_number"] is None and point["from_bus_number"] is None


def test_a_point_row_is_the_callers_own_and_the_same_text_parses_the_same_again():
    # A build parses the same texts month after month (the parse is remembered): a row one
    # caller changes must not become the answer the next caller gets.
    raw = "59903 Bearkat 345kV"
    first = parse_poi(raw)
    expected = dict(first)
    first["bus_name"] = "changed by a caller"
    assert parse_poi(raw) == expected
