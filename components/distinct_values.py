"""Column work that costs once per distinct value rather than once per row.

The whole queue at scale 100 is 150,000 rows whose text columns hold a few hundred
distinct values (statuses, sources, counties): relabelling it cell by cell took most of a
page's first visit. `map_distinct` calls its function once per distinct value.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pandas as pd


def distinct(column: pd.Series) -> list[Any] | None:
    """Return the column's distinct values, missing ones left out (None: not hashable)."""
    try:
        return pd.unique(column.dropna()).tolist()
    except TypeError:
        return None


def map_distinct(column: pd.Series, function: Callable[[Any], Any]) -> pd.Series:
    """Return `column.map(function)`, calling `function` once per distinct value.

    A missing cell (None or NaN) gets `function` of the column's first missing cell, so the
    function must treat every missing value alike. A column of unhashable values (lists) is
    mapped cell by cell.
    """
    try:
        codes, uniques = pd.factorize(column, use_na_sentinel=True)
    except TypeError:
        return column.map(function)
    mapped = [function(value) for value in uniques.tolist()]  # tolist: arrow iterates slowly
    missing = codes == -1
    mapped.append(function(column[missing].iloc[0]) if missing.any() else None)
    cells = np.empty(len(mapped), dtype=object)
    for position, value in enumerate(mapped):
        cells[position] = value  # one by one: a tuple or list stays one cell
    # code -1 (a missing cell) takes the last entry; the dtype is inferred as `map` does
    return pd.Series(cells[codes], index=column.index, name=column.name)


def map_distinct_pairs(
    first: pd.Series, second: pd.Series, function: Callable[[Any, Any], Any]
) -> pd.Series:
    """Return `function(a, b)` for each row's pair of cells, calling it once per distinct
    pair (a missing cell: None), with `first`'s index.

    The pairs are told apart by the two columns' codes (in C), never made into tuples, which
    would each be built and hashed in Python.
    """
    first_codes, first_values = pd.factorize(first, use_na_sentinel=True)
    second_codes, second_values = pd.factorize(second, use_na_sentinel=True)
    width = len(second_values) + 1  # code -1 (missing) is 0 here
    keys = (first_codes.astype(np.int64) + 1) * width + (second_codes + 1)
    distinct_keys, rows = np.unique(keys, return_inverse=True)
    firsts, seconds = list(first_values), list(second_values)
    mapped = np.empty(len(distinct_keys), dtype=object)
    for position, key in enumerate(distinct_keys.tolist()):
        a, b = divmod(key, width)
        mapped[position] = function(firsts[a - 1] if a else None, seconds[b - 1] if b else None)
    return pd.Series(mapped[rows.reshape(-1)], index=first.index, name=first.name)
