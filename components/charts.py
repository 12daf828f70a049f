"""Altair charts drawn from the frames the view modules shape; each returns an `alt.Chart`.

Altair is imported at the first chart made (`altair_module`), not with this module: the first page
(Screen a site) imports this module through the queue's view and draws no chart, and importing
Altair there was about half a second of the app's first start (docs/BENCHMARKS.md).
"""

from __future__ import annotations

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


def timeline(frame: pd.DataFrame, *, title: str) -> alt.Chart:
    """One bar per row from `start` to `end`, labelled by `label`, coloured by `status`."""
    alt = altair_module()
    return (
        alt.Chart(frame, title=title)
        .mark_bar(height=10)
        .encode(
            x=alt.X("start:T", title="Date"),
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
