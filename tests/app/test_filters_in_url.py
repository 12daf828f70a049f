"""A filter left at its "no restriction" choice stays out of the address: a shared link names
only the filters that are set, and a link that names one opens with it set."""

from __future__ import annotations

import pytest
from conftest import page_path
from streamlit.testing.v1 import AppTest

# (page, the filter's widget key, its URL parameter, the choice that restricts nothing)
FILTERS = [
    ("generation", "filter:generation:state", "state", "any"),
    ("generation", "filter:generation:technology", "technology", "any"),
    ("transmission", "filter:transmission:county", "county", "All counties"),
    ("transmission", "filter:transmission:status", "status", "All statuses"),
    ("market_facts", "filter:facts:market", "market", "any"),
    ("evidence_search", "filter:evidence:authority", "authority", "any"),
]


def params(at: AppTest) -> dict[str, list[str]]:
    """The address's parameters after the run, each as its list of values."""
    return {
        name: list(value) if isinstance(value, list | tuple) else [value]
        for name, value in dict(at.query_params).items()
    }


@pytest.mark.parametrize(("page", "key", "param", "everything"), FILTERS)
def test_a_filter_that_restricts_nothing_is_not_in_the_address(
    service_env, page, key, param, everything
):
    at = AppTest.from_file(page_path(page), default_timeout=90).run()
    assert not at.exception and not at.error
    box = at.selectbox(key=key)
    assert box.value == everything
    assert param not in params(at), "a new tab's address holds no filter left unset"

    box.select_index(1).run()
    assert not at.exception and not at.error
    chosen = at.selectbox(key=key).value  # the code the address keeps, not its label
    assert chosen != everything
    assert params(at)[param] == [chosen]

    at.selectbox(key=key).select(everything).run()
    assert not at.exception and not at.error
    assert param not in params(at), "choosing no restriction again takes it out"

    # the link with the filter set opens with it set
    shared = AppTest.from_file(page_path(page), default_timeout=90)
    shared.query_params[param] = chosen
    shared.run()
    assert not shared.exception and not shared.error
    assert shared.selectbox(key=key).value == chosen
    assert params(shared)[param] == [chosen]
