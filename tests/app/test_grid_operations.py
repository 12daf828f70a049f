"""The grid operations page: a BA's hourly demand, forecast and fuel mix over a window."""

from __future__ import annotations

import datetime as dt
import json
import re
from pathlib import Path

import pandas as pd
import pytest
from ops_store import hourly, point_the_app_at, serve_store
from streamlit.testing.v1 import AppTest

from components import glossary

REPO_ROOT = Path(__file__).resolve().parents[2]
PAGE = str(REPO_ROOT / "app_pages" / "grid_operations.py")


def test_window_and_authority_drive_the_charts(service_env, alpha_client):
    at = AppTest.from_file(PAGE, default_timeout=60).run()
    assert not at.exception and not at.error
    # each authority is offered by its name, its EIA code beside it: "ERCOT (ERCO)"
    shown = at.selectbox(key="filter:operations:ba").options[-1]
    code = re.search(r"\((\w+)\)$", shown).group(1)
    at.selectbox(key="filter:operations:ba").select(code)
    at.date_input(key="filter:operations:start").set_value(dt.date(2025, 8, 3))
    at.date_input(key="filter:operations:end").set_value(dt.date(2025, 8, 4)).run()
    assert not at.exception and not at.error
    expected = alpha_client.balancing_authority_operations.list(
        ba_code=code, start="2025-08-03T00:00:00Z", end="2025-08-05T00:00:00Z"
    ).to_list()
    assert len(expected) == 48
    assert at.metric[0].value == "48"
    peak = max(op.demand_mw for op in expected)
    assert at.metric[1].value == f"{peak:,.0f} MW"
    titles = [json.loads(c.proto.spec)["title"] for c in at.get("vega_lite_chart")]
    assert titles == [
        f"{glossary.label('market', code)}: demand against its forecast, net generation and interchange",
        f"{glossary.label('market', code)}: generation by fuel",
    ]
    assert len(at.dataframe[0].value) == 48
    # each hourly figure is headed in words, with its unit, not by its wire name
    labels = {name: c.get("label") for name, c in json.loads(at.dataframe[0].proto.columns).items()}
    assert labels["demandMw"] == "Demand (MW)"
    assert labels["totalInterchangeAdjustedMw"] == "Total interchange, adjusted (MW)"


# A store shaped like a harvested one: the plants file names no balancing authority, the
# generators name two (one without any hourly data), and the hourly series of one authority
# runs for years, with weather-zone subregions over its last days.
LAST_HOUR = dt.datetime(2025, 3, 10, 23, tzinfo=dt.UTC)


def _harvested_operations() -> list[dict]:
    early = [
        hourly("ERCO", None, dt.datetime(2016, 5, 1, tzinfo=dt.UTC) + dt.timedelta(hours=h), 1.0)
        for h in range(48)
    ]
    last_days = [LAST_HOUR - dt.timedelta(hours=h) for h in range(24 * 20)]
    whole = [hourly("ERCO", None, hour, 40_000.0 + hour.day) for hour in last_days]
    west = [hourly("ERCO", "WEST", hour, 3_000.0) for hour in last_days[: 24 * 3]]
    return early + whole + west


@pytest.fixture(scope="module")
def harvested_env(tmp_path_factory):
    server = serve_store(
        tmp_path_factory.mktemp("harvested-ops") / "harvested.db", _harvested_operations()
    )
    yield server.base_url
    server.stop()


@pytest.fixture
def on_harvested_store(harvested_env, monkeypatch):
    point_the_app_at(harvested_env, monkeypatch)


# As on the real files: hourly demand ends with 2024, the fuel mix alone runs from late 2025.
DEMAND_ENDS = dt.datetime(2024, 12, 31, 23, tzinfo=dt.UTC)
FUEL_STARTS = dt.datetime(2025, 11, 12, tzinfo=dt.UTC)


def _fuel_only(hour: dt.datetime) -> dict:
    operation = hourly("ERCO", None, hour, 0.0)
    return operation | {"demandMw": None, "generationByFuelMw": {"solar": 9_000.0, "wind": 1.0}}


@pytest.fixture
def on_store_with_a_fuel_mix_after_demand(tmp_path, monkeypatch):
    demand = [
        hourly("ERCO", None, DEMAND_ENDS - dt.timedelta(hours=h), 50_000.0 + h)
        for h in range(24 * 30)
    ]
    demand[-1]["demandMw"] = None  # the real demand file starts with a missing hour too
    fuel = [_fuel_only(FUEL_STARTS + dt.timedelta(hours=h)) for h in range(24 * 10)]
    server = serve_store(tmp_path / "fuel-after-demand.db", demand + fuel)
    point_the_app_at(server.base_url, monkeypatch)
    yield
    server.stop()


def test_the_page_opens_on_the_latest_week_with_demand_and_says_where_later_hours_are(
    on_store_with_a_fuel_mix_after_demand,
):
    at = AppTest.from_file(PAGE, default_timeout=60).run()
    assert not at.exception and not at.error
    captions = " ".join(c.value for c in at.caption)
    assert "The latest week with hourly demand, 2024-12-25 to 2024-12-31 (UTC)" in captions
    assert "to 2025-11-21, carry no demand" in captions
    # the reader sees demand, not "n/a": the week's peak is its earliest hour here
    assert at.metric[1].value == f"{50_000 + 24 * 7 - 1:,} MW"


def test_authorities_come_from_data_that_names_them_when_plants_name_none(on_harvested_store):
    at = AppTest.from_file(PAGE, default_timeout=60).run()
    assert not at.exception and not at.error
    assert at.selectbox(key="filter:operations:ba").options == ["ERCOT (ERCO)"]
    assert [c.value for c in at.caption if "SPP" in c.value] == [
        "Named by plants or generators but without hourly operations here: SPP."
    ]
    assert not [i.value for i in at.info if "No hourly operations" in i.value]


def test_the_default_window_is_the_latest_week_of_data_without_subregions_mixed_in(
    on_harvested_store,
):
    at = AppTest.from_file(PAGE, default_timeout=60).run()
    assert not at.exception and not at.error
    assert "The latest week of data, 2025-03-04 to 2025-03-10 (UTC)" in " ".join(
        c.value for c in at.caption
    )
    assert at.radio(key="operations.region").options == ["Whole balancing authority", "WEST"]
    assert at.metric[0].value == f"{7 * 24:,}"
    assert at.metric[1].value == "40,010 MW"
    frame = at.dataframe[0].value
    assert frame["utcTime"].min() == pd.Timestamp("2025-03-04T00:00:00Z")
    assert frame["utcTime"].max() == pd.Timestamp(LAST_HOUR)
    assert frame["region"].isna().all()

    at.radio(key="operations.region").set_value("WEST").run()
    assert at.metric[0].value == f"{3 * 24:,}"
    assert set(at.dataframe[0].value["region"]) == {"WEST"}


def test_a_chosen_window_in_early_data_is_shown(on_harvested_store):
    at = AppTest.from_file(PAGE, default_timeout=60).run()
    at.date_input(key="filter:operations:start").set_value(dt.date(2016, 5, 1))
    at.date_input(key="filter:operations:end").set_value(dt.date(2016, 5, 2)).run()
    assert not at.exception and not at.error
    assert at.metric[0].value == "48"
    assert "radio" not in [element.type for element in at.main]


def _asked(last: dt.date | None) -> tuple[list[dt.date], object]:
    asked: list[dt.date] = []

    def has_data_from(day: dt.date) -> bool:
        asked.append(day)
        return last is not None and day <= last

    return asked, has_data_from


@pytest.mark.parametrize(
    "last",
    [dt.date(2026, 8, 22), dt.date(2015, 7, 1), dt.date(2027, 1, 3), dt.date(2026, 11, 21)],
)
def test_latest_day_is_found_with_few_questions_either_side_of_today(last):
    from components.data import latest_day

    asked, has_data_from = _asked(last)
    assert latest_day(has_data_from, dt.date(2026, 11, 21)) == last
    assert len(asked) <= 30


def test_the_last_day_of_a_run_is_found_by_bisection():
    from components.data import last_day_where

    first, last, end = dt.date(2015, 7, 1), dt.date(2026, 8, 22), dt.date(2024, 12, 31)
    asked = []

    def holds(day):
        asked.append(day)
        return day <= end

    assert last_day_where(holds, first, last) == end
    assert len(asked) <= 16  # about log2 of the 4,000 days, not a walk over them
    assert last_day_where(lambda day: True, first, last) == last
    assert last_day_where(lambda day: False, first, last) is None


def test_latest_day_is_none_without_data():
    from components.data import latest_day

    asked, has_data_from = _asked(None)
    assert latest_day(has_data_from, dt.date(2026, 11, 21)) is None


def test_a_window_without_demand_says_so_instead_of_nan():
    from components.operations_view import operations_frame, summary
    from gridclient import BalancingAuthorityOperation

    hours = [dt.datetime(2026, 8, 16, h, tzinfo=dt.UTC) for h in range(3)]
    generation_only = [
        BalancingAuthorityOperation.model_validate(
            {**hourly("ERCO", None, h, 0.0), "demandMw": None}
        )
        for h in hours
    ]
    assert summary(operations_frame(generation_only)) == {
        "hours": 3,
        "peakDemandMw": None,
        "meanForecastErrorMw": None,
    }


# A long run of hours with two subregions beside the whole authority, as EIA-930 lists
# ERCOT's weather zones: the demand of the whole authority rises by 1 MW a day.
LONG_RUN_STARTS = dt.datetime(2024, 1, 1, tzinfo=dt.UTC)
LONG_RUN_DAYS = 130


def _long_run() -> list[dict]:
    hours = [LONG_RUN_STARTS + dt.timedelta(hours=h) for h in range(24 * LONG_RUN_DAYS)]
    whole = [hourly("ERCO", None, h, 40_000.0 + (h - LONG_RUN_STARTS).days) for h in hours]
    zones = [hourly("ERCO", zone, h, 3_000.0) for zone in ("COAS", "WEST") for h in hours]
    return whole + zones


@pytest.fixture(scope="module")
def long_run_env(tmp_path_factory):
    server = serve_store(tmp_path_factory.mktemp("long-run-ops") / "long.db", _long_run())
    yield server.base_url
    server.stop()


@pytest.fixture
def on_long_run_store(long_run_env, monkeypatch):
    point_the_app_at(long_run_env, monkeypatch)


def _window(start: dt.date, end: dt.date) -> AppTest:
    at = AppTest.from_file(PAGE, default_timeout=60).run()
    at.date_input(key="filter:operations:start").set_value(start)
    at.date_input(key="filter:operations:end").set_value(end).run()
    assert not at.exception and not at.error
    return at


def test_every_subregion_of_a_month_is_offered_with_every_hour(on_long_run_store):
    # 40 days of the authority and two zones are 2,880 records: each is read, none cut off
    at = _window(dt.date(2024, 2, 1), dt.date(2024, 3, 11))
    assert at.radio(key="operations.region").options == [
        "Whole balancing authority",
        "COAS",
        "WEST",
    ]
    assert at.metric[0].value == f"{40 * 24:,}"
    assert not at.warning
    # these hours carry no fuel mix: said in words, not drawn as an empty chart
    assert [json.loads(c.proto.spec)["title"] for c in at.get("vega_lite_chart")] == [
        "ERCOT: demand against its forecast, net generation and interchange"
    ]
    assert [i.value for i in at.info] == [
        "ERCOT reports no generation by fuel for these hours: pick a window where the fuel "
        "mix is published."
    ]
    at.radio(key="operations.region").set_value("WEST").run()
    assert at.metric[0].value == f"{40 * 24:,}"
    frame = at.dataframe[0].value
    assert frame["utcTime"].max() == pd.Timestamp("2024-03-11T23:00:00Z")


def test_a_window_past_its_longest_shows_its_first_days_and_says_so(on_long_run_store):
    from components.operations_view import MAX_WINDOW_DAYS

    at = _window(dt.date(2024, 1, 1), dt.date(2024, 4, 29))  # 120 days
    last = dt.date(2024, 1, 1) + dt.timedelta(days=MAX_WINDOW_DAYS - 1)
    [warning] = [w.value for w in at.warning]
    assert f"at most {MAX_WINDOW_DAYS} days" in warning
    assert f"shows 2024-01-01 to {last}" in warning
    assert at.metric[0].value == f"{MAX_WINDOW_DAYS * 24:,}"
    # the peak is the last shown day's demand, not a day past the window
    assert at.metric[1].value == f"{40_000 + MAX_WINDOW_DAYS - 1:,} MW"
    frame = at.dataframe[0].value
    assert frame["utcTime"].max() == pd.Timestamp(f"{last}T23:00:00Z")


@pytest.mark.parametrize(
    ("start", "end", "shown", "cut"),
    [
        ("2024-01-01", "2024-04-02", ("2024-01-01", "2024-04-02"), False),  # 93 days
        ("2024-01-01", "2024-04-03", ("2024-01-01", "2024-04-02"), True),
        ("2024-04-03", "2024-01-01", ("2024-01-01", "2024-04-02"), True),  # picked backwards
        ("2024-05-02", "2024-05-01", ("2024-05-01", "2024-05-02"), False),
    ],
)
def test_a_window_is_put_in_order_and_cut_to_its_longest(start, end, shown, cut):
    from components.operations_view import MAX_WINDOW_DAYS, bounded_window

    day = dt.date.fromisoformat
    assert (day("2024-04-02") - day("2024-01-01")).days + 1 == MAX_WINDOW_DAYS
    assert bounded_window(day(start), day(end)) == (day(shown[0]), day(shown[1]), cut)


def test_a_window_past_the_data_says_which_part_of_it_the_hours_cover(on_long_run_store):
    # the long run ends with its 130th day, 2024-05-09: "Hours 216" alone reads as a
    # gap-free window
    last = LONG_RUN_STARTS + dt.timedelta(days=LONG_RUN_DAYS) - dt.timedelta(hours=1)
    at = _window(dt.date(2024, 5, 1), dt.date(2024, 6, 30))
    assert at.metric[0].value == f"{9 * 24:,}"
    assert (
        f"Hourly data in this window runs from 2024-05-01 00:00 to {last:%Y-%m-%d %H:%M} UTC; "
        "the window is 2024-05-01 to 2024-06-30." in [c.value for c in at.caption]
    )
    inside = _window(dt.date(2024, 2, 1), dt.date(2024, 2, 7))
    assert not [c.value for c in inside.caption if c.value.startswith("Hourly data in")]
