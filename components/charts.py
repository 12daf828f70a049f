"""Altair charts drawn from the frames the view modules shape; each returns an `alt.Chart`.

Altair is imported at the first chart made (`altair_module`), not with this module: the first page
(Screen a site) imports this module through the queue's view and draws no chart, and importing
Altair there was about half a second of the app's first start (docs/BENCHMARKS.md).
"""

from __future__ import annotations

import json
from types import ModuleType
from typing import TYPE_CHECKING

import pandas as pd

if TYPE_CHECKING:
    import altair as alt


def altair_module() -> ModuleType:
    """Return the altair module, imported the first time a chart is made."""
    import altair  # deferred: a heavy library, off the first page's start (module docstring)

    return altair


def bar(frame: pd.DataFrame, *, category: str, value: str, title: str, unit: str) -> alt.Chart:
    """A horizontal bar per category, longest first, the value axis labelled with its unit."""
    alt = altair_module()
    return (
        alt.Chart(frame, title=title)
        .mark_bar()
        .encode(
            y=alt.Y(f"{category}:N", sort="-x", title=None),
            x=alt.X(f"{value}:Q", title=unit),
            tooltip=[alt.Tooltip(c) for c in frame.columns],
        )
    )


def yearly(frame: pd.DataFrame, *, value: str, title: str, unit: str) -> alt.Chart:
    """Bars per year."""
    alt = altair_module()
    return (
        alt.Chart(frame, title=title)
        .mark_bar()
        .encode(
            x=alt.X("year:O", title="Year"),
            y=alt.Y(f"{value}:Q", title=unit),
            tooltip=[alt.Tooltip(c) for c in frame.columns],
        )
    )


def timeline(frame: pd.DataFrame, *, title: str, monthly: bool = False) -> alt.Chart:
    """One bar per row from `start` to `end`, labelled by `label`, coloured by `status`;
    `monthly` rows (a month each) are read on an axis of months."""
    alt = altair_module()
    axis = alt.Axis(format="%b %Y", tickCount="month") if monthly else alt.Axis()
    return (
        alt.Chart(frame, title=title)
        .mark_bar(height=10)
        .encode(
            x=alt.X("start:T", title="Month" if monthly else "Date", axis=axis),
            x2="end:T",
            y=alt.Y("label:N", sort=alt.EncodingSortField("start"), title=None),
            color=alt.Color("status:N", title="Status"),
            tooltip=[alt.Tooltip(c) for c in frame.columns if c not in ("start", "end")]
            + [alt.Tooltip("start:T"), alt.Tooltip("end:T")],
        )
    )


def lines(frame: pd.DataFrame, *, x: str, title: str, unit: str) -> alt.Chart:
    """Lines from a long frame with `series` and `value` columns over a time column `x`."""
    alt = altair_module()
    return (
        alt.Chart(frame, title=title)
        .mark_line()
        .encode(
            x=alt.X(f"{x}:T", title="Time (UTC)"),
            y=alt.Y("value:Q", title=unit),
            color=alt.Color("series:N", title=None),
            tooltip=[alt.Tooltip(f"{x}:T"), "series:N", "value:Q"],
        )
    )


def stacked_area(frame: pd.DataFrame, *, x: str, title: str, unit: str) -> alt.Chart:
    """Stacked areas from a long frame with `series` and `value` columns over a time column."""
    alt = altair_module()
    return (
        alt.Chart(frame, title=title)
        .mark_area()
        .encode(
            x=alt.X(f"{x}:T", title="Time (UTC)"),
            y=alt.Y("value:Q", stack="zero", title=unit),
            color=alt.Color("series:N", title="Fuel"),
            tooltip=[alt.Tooltip(f"{x}:T"), "series:N", "value:Q"],
        )
    )


def monthly(frame: pd.DataFrame, *, value: str, color: str, title: str, unit: str) -> alt.Chart:
    """Stacked bars per month (`month` as a date), split by a colour column."""
    alt = altair_module()
    return (
        alt.Chart(frame, title=title)
        .mark_bar()
        .encode(
            x=alt.X("yearmonth(month):T", title="Month"),
            y=alt.Y(f"sum({value}):Q", title=unit),
            color=alt.Color(f"{color}:N"),
            tooltip=[alt.Tooltip("yearmonth(month):T"), f"{color}:N", f"{value}:Q"],
        )
    )


def steps(frame: pd.DataFrame, *, title: str, unit: str) -> alt.Chart:
    """A value as it was known over time: `knownFrom` on x, `value` on y, one line per `series`."""
    alt = altair_module()
    return (
        alt.Chart(frame, title=title)
        .mark_line(interpolate="step-after", point=True)
        .encode(
            x=alt.X("knownFrom:T", title="Known from"),
            y=alt.Y("value:Q", title=unit),
            color=alt.Color("series:N", title=None),
            tooltip=[c for c in frame.columns],
        )
    )


def stacked_counts(
    frame: pd.DataFrame,
    *,
    category: str,
    series: dict[str, str],
    title: str,
    unit: str,
) -> alt.LayerChart:
    """Horizontal bars per `category` stacked by `outcome` (`series`: each outcome's colour, in
    stacking order), each part's `count` written on it and each bar's `totalText` beside it: a
    reader sees the counts behind the shares, not only the lengths."""
    alt = altair_module()
    order = list(series)
    base = alt.Chart(frame).encode(
        y=alt.Y(f"{category}:N", title=None, sort=None, axis=alt.Axis(labelLimit=300))
    )
    stacked = base.transform_calculate(rank=f"indexof({json.dumps(order)}, datum.outcome)")
    bars = stacked.mark_bar().encode(
        x=alt.X("count:Q", stack="zero", title=unit),
        color=alt.Color(
            "outcome:N",
            scale=alt.Scale(domain=order, range=list(series.values())),
            legend=alt.Legend(orient="bottom", title=None, columns=2, labelLimit=400),
        ),
        order=alt.Order("rank:Q"),
        tooltip=[alt.Tooltip(f"{category}:N"), "outcome:N", "count:Q", "share:N"],
    )
    # each part's count in its middle, written only where the part has projects
    labels = (
        stacked.transform_filter("datum.count > 0")
        .transform_stack(
            stack="count", groupby=[category], sort=[{"field": "rank"}], as_=["start", "end"]
        )
        .transform_calculate(middle="(datum.start + datum.end) / 2")
        .mark_text(color="white", fontWeight="bold")
        .encode(x="middle:Q", text=alt.Text("count:Q", format=","))
    )
    totals = base.mark_text(align="left", dx=4).encode(x="total:Q", text="totalText:N")
    return alt.layer(bars, labels, totals, title=title).properties(height=alt.Step(34))


def survival(frame: pd.DataFrame, *, order: list[str], title: str) -> alt.LayerChart:
    """Step lines of the share `notYetOperating` over `months`, one per `curve` (in `order`),
    a point at each step with the projects followed, reaching operation and censored in its
    tooltip."""
    alt = altair_module()
    steps = (
        alt.Chart(frame)
        .mark_line(interpolate="step-after", point=alt.OverlayMarkDef(size=24))
        .encode(
            x=alt.X("months:Q", title="Months since the start"),
            y=alt.Y(
                "notYetOperating:Q",
                title="Not yet in commercial operation",
                scale=alt.Scale(domain=[0, 1]),
                axis=alt.Axis(format="%"),
            ),
            color=alt.Color(
                "curve:N",
                scale=alt.Scale(domain=order),
                legend=alt.Legend(
                    orient="bottom", title=None, direction="horizontal", labelLimit=0
                ),
            ),
            tooltip=[
                alt.Tooltip("curve:N", title="Measured"),
                alt.Tooltip("months:Q", title="Months"),
                alt.Tooltip("notYetOperating:Q", title="Not yet operating", format=".0%"),
                alt.Tooltip("atRisk:Q", title="Still followed", format=","),
                alt.Tooltip("events:Q", title="Reached operation", format=","),
                alt.Tooltip("censored:Q", title="Censored", format=","),
            ],
        )
    )
    # titled as a layer: a single chart's title was clipped at its top once Streamlit fitted
    # the chart to its height
    return alt.layer(steps, title=title)
