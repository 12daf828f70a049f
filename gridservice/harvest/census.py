"""Census county and state geometry (cb_2016 500k) from the plotly-geo package.

The geometry is read by `gridservice.geography.geo`, the same code the demo builder uses, so a
point lands in the same county whichever database the service runs on. The asset is the
county shapefile (`cb_2016_us_county_500k.shp`) that plotly-geo ships.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

from gridservice.geography import geo
from gridservice.harvest._base import Asset, Harvest, HarvestError
from gridservice.store import writer

SOURCE_ID = "census_cb_2016_counties"
FILE_NAME = f"{geo.COUNTY_FILE}.shp"
EXPECTED = f"the Census county shapefile {FILE_NAME} shipped by plotly-geo"


def default_path() -> Path:
    """Return the county shapefile inside the installed plotly-geo package."""
    return geo.package_data_dir() / FILE_NAME


def parse(asset: Asset, conn: sqlite3.Connection) -> Harvest:
    """Read every county and state of the Census files (all states and territories)."""
    if (
        asset.path.name != FILE_NAME
        or asset.path.resolve().parent != geo.package_data_dir().resolve()
    ):
        raise HarvestError(f"{asset.file_name}: expected {EXPECTED} ({default_path()})")
    states = sorted(geo._state_table())  # noqa: SLF001 - every state the Census file has
    try:
        county_rows = geo.load_counties(states)
        state_rows = geo.load_states(states)
    except Exception as exc:  # a damaged shapefile: say which file
        raise HarvestError(f"{asset.file_name}: cannot read ({exc}); expected {EXPECTED}") from exc

    def store(conn: sqlite3.Connection) -> None:
        writer.insert_states(conn, state_rows)
        writer.insert_counties(conn, county_rows)

    return Harvest(
        source_id=SOURCE_ID,
        input_records=len(county_rows),
        accepted_records=len(county_rows),
        rejections=[],
        store=store,
    )
