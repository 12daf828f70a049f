"""Session state: every key the app keeps per browser session, initialised here, typed access.

Shareable state (the open assessment, filters) lives in `st.query_params`, not here.
"""

from __future__ import annotations

import uuid
from typing import Any

import streamlit as st

DEMO_TENANTS: tuple[str, ...] = ("demo-alpha", "demo-beta")

TENANT = "tenant"
SITE_SUBMISSION_KEY = "site_submission_idempotency_key"
LAST_SITE_RESULT = "last_site_result"
SITE_FORM_PROBLEM = "site_form_problem"

_DEFAULTS = {
    SITE_SUBMISSION_KEY: None,
    LAST_SITE_RESULT: None,
    SITE_FORM_PROBLEM: None,
}


def init_state() -> None:
    """Give every app-wide key its default once per session."""
    for key, default in _DEFAULTS.items():
        st.session_state.setdefault(key, default)


def demo_tenant(default: str = DEMO_TENANTS[0]) -> str:
    """Return the demo tenant chosen in the sidebar switcher, else `default`."""
    tenant = st.session_state.get(TENANT)
    return tenant if tenant in DEMO_TENANTS else default


def site_submission_key() -> str:
    """Return this form's Idempotency-Key, made when the form is first drawn.

    The key is kept until a create succeeds, so a double click or a retried submit sends the
    same key and the service makes one site.
    """
    init_state()
    if not st.session_state[SITE_SUBMISSION_KEY]:
        st.session_state[SITE_SUBMISSION_KEY] = f"site-{uuid.uuid4()}"
    return st.session_state[SITE_SUBMISSION_KEY]


def finish_site_submission() -> None:
    """Forget the submission key after a successful create, so the next site gets a new one."""
    st.session_state[SITE_SUBMISSION_KEY] = None


def site_form_problem() -> Any:
    """Return the last submission's refusal (a `components.problems.Problem`), or None."""
    init_state()
    return st.session_state[SITE_FORM_PROBLEM]


def set_site_form_problem(problem: Any) -> None:
    """Keep a refusal to draw under the form's fields until the next submission."""
    st.session_state[SITE_FORM_PROBLEM] = problem


# The point pickers (screening map, territory map): one set of keys per picker name.
def latitude_key(picker: str) -> str:
    return f"{picker}.latitude"


def longitude_key(picker: str) -> str:
    return f"{picker}.longitude"


def cell_key(picker: str) -> str:
    return f"{picker}.cell"


def followed_point_key(picker: str) -> str:
    """The point the picker's view last moved to (a typed point moves it once)."""
    return f"{picker}.followed_point"


def picked_point(picker: str) -> tuple[float, float] | None:
    """Return the picker's point (latitude, longitude), or None while one is not set."""
    latitude = st.session_state.get(latitude_key(picker))
    longitude = st.session_state.get(longitude_key(picker))
    if latitude is None or longitude is None:
        return None
    return float(latitude), float(longitude)


def set_picked_point(picker: str, latitude: float, longitude: float) -> None:
    """Set the picker's point (call before its number inputs are drawn in this run)."""
    st.session_state[latitude_key(picker)] = round(float(latitude), 5)
    st.session_state[longitude_key(picker)] = round(float(longitude), 5)


def picked_cell(picker: str) -> str | None:
    """Return the H3 cell the picker is zoomed into, or None for the whole region."""
    return st.session_state.get(cell_key(picker))


def set_picked_cell(picker: str, cell: str | None) -> None:
    st.session_state[cell_key(picker)] = cell


# The extra columns an analyst chose for a wide table (`components.column_chooser`), kept apart
# from the chooser's widget: Streamlit forgets a widget's value on a page it no longer draws,
# and the choice should outlive a visit to another page.
def extra_columns_key(table: str) -> str:
    return f"{table}.extra_columns"


def extra_columns(table: str) -> list[str]:
    """Return the extra columns chosen for `table` in this session (none at first)."""
    return list(st.session_state.get(extra_columns_key(table)) or [])


def set_extra_columns(table: str, columns: list[str]) -> None:
    st.session_state[extra_columns_key(table)] = list(columns)
