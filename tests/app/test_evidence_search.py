"""The evidence search page: filters, ranked results, safe highlighting, more on demand."""

from __future__ import annotations

from pathlib import Path

from streamlit.testing.v1 import AppTest

PAGE = str(Path(__file__).resolve().parents[2] / "app_pages" / "evidence_search.py")


def opened(**query: str) -> AppTest:
    """Return the page run once from an address holding `query`, without a failure."""
    at = AppTest.from_file(PAGE, default_timeout=60)
    for name, value in query.items():
        at.query_params[name] = value
    at.run()
    assert not at.exception and not at.error
    return at


def results(at: AppTest) -> list[str]:
    return [m.value for m in at.markdown if ":orange-background[" in m.value]


def test_search_highlights_and_pages_on_demand(service_env, alpha_client):
    at = AppTest.from_file(PAGE, default_timeout=60).run()
    assert at.info[0].value.startswith("Type a few words")
    at.text_input(key="filter:evidence:q").input("transmission").run()
    assert not at.exception and not at.error
    first = alpha_client.evidence.search("transmission", limit=10).pages()
    page_one = next(first)
    assert len(results(at)) == len(page_one.data)
    assert all(":orange-background[**" in text for text in results(at))
    assert page_one.has_more
    at.button[0].click().run()
    page_two = next(first)
    assert len(results(at)) == len(page_one.data) + len(page_two.data)


def test_filters_reach_the_service(service_env, alpha_client):
    at = opened(q="forecast", kind="table")
    expected = alpha_client.evidence.search("forecast", kind="table", limit=10).pages()
    page = next(expected)
    captions = [c for c in at.caption if " · rank " in c.value]
    assert len(captions) == len(page.data) > 0
    assert all(" · table · " in caption.value for caption in captions)
    # Each result names its source as the service's publisher field does, the source id only
    # in the tooltip.
    for caption, chunk in zip(captions, page.data, strict=True):
        shown = caption.value.replace("\\", "")
        assert chunk.publisher and shown.startswith(chunk.publisher.removesuffix(" (demo)"))
        assert chunk.source_id not in shown
        assert f"Source id: {chunk.source_id}" in caption.proto.help


def test_hostile_text_in_a_query_never_becomes_markup(service_env):
    at = AppTest.from_file(PAGE, default_timeout=60)
    at.query_params["q"] = "<b>transmission</b> [x](http://bad.test)"
    at.run()
    assert not at.exception
    for block in at.markdown:
        assert "<b>" not in block.value and "](" not in block.value


def test_authority_and_policy_are_offered_in_words_and_kept_as_codes(service_env, alpha_client):
    at = opened(q="interconnection", authority="official_filing")
    authority = at.selectbox(key="filter:evidence:authority")
    policy = at.selectbox(key="filter:evidence:redistribution_policy")
    assert authority.value == "official_filing"  # what the service and the address get
    assert "Official filing" in authority.options and "Any" in authority.options
    kind = at.selectbox(key="filter:evidence:kind")
    assert "Links only" in policy.options and kind.options == ["Any", "Prose", "Table", "Figure"]
    assert not [o for o in [*authority.options, *policy.options] if "_" in o]
    expected = alpha_client.evidence.search(
        "interconnection", authority="official_filing", limit=10
    ).pages()
    captions = [c for c in at.caption if " · rank " in c.value]
    assert len(captions) == len(next(expected).data) > 0
