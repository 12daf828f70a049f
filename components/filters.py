"""Filter widgets whose values live in the URL (`st.query_params`), so a filtered view is shareable.

Each widget reads its first value from the query string, keeps it in session state under
`filter:<param>`, and writes it back to the query string on every run; an empty value
removes the parameter so URLs stay short.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from typing import Any

import streamlit as st


def parse_float(text: str | None) -> float | None:
    """Return the number in `text`, or None when it is missing or not a number."""
    if text is None or str(text).strip() == "":
        return None
    try:
        value = float(text)
    except ValueError:
        return None
    return value if value == value and value not in (float("inf"), float("-inf")) else None


def parse_date(text: str | None) -> dt.date | None:
    """Return the ISO date in `text`, or None when it is missing or malformed."""
    if not text:
        return None
    try:
        return dt.date.fromisoformat(str(text)[:10])
    except ValueError:
        return None


def kept_choices(values: Sequence[str], options: Sequence[str]) -> list[str]:
    """Return the values that are still valid options, compared case-insensitively."""
    by_folded = {str(option).casefold(): option for option in options}
    kept = []
    for value in values:
        option = by_folded.get(str(value).casefold())
        if option is not None and option not in kept:
            kept.append(option)
    return kept


def _key(param: str, scope: str) -> str:
    # Pages share one session state: the scope keeps the queue's `county` apart from
    # transmission's `county`.
    return f"filter:{scope}:{param}"


def _is_empty(value: Any) -> bool:
    return value is None or value == "" or value == [] or value is False


def set_count(params: Sequence[str], *, scope: str) -> int:
    """Return how many of the filters `params` hold a value now: their widget's value once
    drawn, else the URL's."""
    count = 0
    for param in params:
        key = _key(param, scope)
        value = st.session_state[key] if key in st.session_state else st.query_params.get(param)
        count += not _is_empty(value)
    return count


def more_filters(params: Sequence[str], *, scope: str) -> Any:
    """Return a "More filters" popover for the filters `params`, its label counting those set.

    A page's less used filters go in it: the browser draws a popover's widgets only once it
    is opened, and each input drawn in a new tab costs it tens of milliseconds.
    The filters work as before, closed or open: they are kept in the URL and read each run.
    """
    count = set_count(params, scope=scope)
    label = f"More filters · {count} set" if count else "More filters"
    # keyed: its label changes as filters are set, and without a key a freshly started app
    # drew a new, closed popover after a change (the reader had to open it again for the next)
    return st.popover(label, icon=":material/tune:", key=f"more_filters:{scope}")


def _write(param: str, value: Any) -> None:
    if _is_empty(value):
        if param in st.query_params:
            del st.query_params[param]
        return
    if isinstance(value, list):
        st.query_params[param] = [str(v) for v in value]
    elif isinstance(value, dt.date):
        st.query_params[param] = value.isoformat()
    elif value is True:
        st.query_params[param] = "1"
    elif isinstance(value, float):
        st.query_params[param] = f"{value:g}"
    else:
        st.query_params[param] = str(value)


def multiselect(
    label: str, options: Sequence[str], param: str, *, scope: str, **kwargs: Any
) -> list[str]:
    """A multiselect kept in the URL as repeated `param=` values."""
    key = _key(param, scope)
    if key not in st.session_state:
        st.session_state[key] = kept_choices(st.query_params.get_all(param), options)
    else:
        st.session_state[key] = kept_choices(st.session_state[key], options)
    chosen = st.multiselect(label, list(options), key=key, **kwargs)
    _write(param, chosen)
    return chosen


def selectbox(
    label: str,
    options: Sequence[str],
    param: str,
    *,
    scope: str,
    no_filter: str | None = None,
    **kwargs: Any,
) -> str | None:
    """A selectbox kept in the URL; the first option when the URL names none that exists.

    `no_filter` is the option that restricts nothing ("any", "All counties"): chosen, it
    leaves the URL without `param`, as an empty text filter does, so a shared link names only
    the filters that are set, and None is returned, as for an empty text filter.
    """
    key = _key(param, scope)
    if key not in st.session_state or st.session_state[key] not in options:
        kept = kept_choices([st.query_params.get(param, "")], options)
        st.session_state[key] = kept[0] if kept else (options[0] if options else None)
    chosen = st.selectbox(label, list(options), key=key, **kwargs)
    if no_filter is not None and chosen == no_filter:
        chosen = None
    _write(param, chosen)
    return chosen


def text_input(label: str, param: str, *, scope: str, **kwargs: Any) -> str:
    """A text input kept in the URL."""
    key = _key(param, scope)
    if key not in st.session_state:
        st.session_state[key] = st.query_params.get(param, "")
    value = st.text_input(label, key=key, **kwargs).strip()
    _write(param, value)
    return value


def number_input(label: str, param: str, *, scope: str, **kwargs: Any) -> float | None:
    """An optional number input kept in the URL (empty means no bound)."""
    key = _key(param, scope)
    if key not in st.session_state:
        st.session_state[key] = parse_float(st.query_params.get(param))
    value = st.number_input(label, key=key, value=None, **kwargs)
    _write(param, value)
    return value


def date_input(label: str, param: str, *, scope: str, **kwargs: Any) -> dt.date | None:
    """An optional date input kept in the URL as YYYY-MM-DD."""
    key = _key(param, scope)
    if key not in st.session_state:
        st.session_state[key] = parse_date(st.query_params.get(param))
    value = st.date_input(label, key=key, value=None, **kwargs)
    _write(param, value)
    return value


def toggle(label: str, param: str, *, scope: str, **kwargs: Any) -> bool:
    """A toggle kept in the URL as `param=1`."""
    key = _key(param, scope)
    if key not in st.session_state:
        st.session_state[key] = st.query_params.get(param) == "1"
    value = bool(st.toggle(label, key=key, **kwargs))
    _write(param, value)
    return value
