"""The requests compared: the same rows asked of our service and of Datasette.

Each `Scenario` names one question and the URL each side answers it with. Before any load,
`discover` walks both sides to the end of every paged scenario, checks that they return the
same ids in the same order, and keeps the position of the last page for the deep-page rows.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from urllib.parse import quote, urlencode

import httpx

from gridservice.store.collections import exact_phrase_query as _exact_phrase_query
from gridservice.store.collections import fts_query

TOKEN = "gds_demo_alpha"
AUTH = {"Authorization": f"Bearer {TOKEN}"}
PAGE = 500
SEARCH_LIMIT = 20
# What Datasette is asked for on every table page: only the stored record (`body`, plus the
# primary key it always adds), no count(*) and no facets, rows as objects.
_DATASETTE_PAGE = {"_size": PAGE, "_col": "body", "_nocount": 1, "_nofacet": 1, "_shape": "objects"}
FILTER = {"state": "TX", "min_capacity_mw": 100}
SEARCHES = {
    "search_selective": "wichita",
    "search_two_terms": "battery storage",
    "search_common_term": "interconnection",
}


@dataclass
class Scenario:
    name: str
    title: str
    ours: str  # path and query on our service
    datasette: str  # path and query on Datasette
    notes: list[str] = field(default_factory=list)


def fts_expression(text: str) -> str:
    """The MATCH expression the service builds: each term quoted, the last one a prefix."""
    return fts_query(text) or ""


def exact_phrase_query(text: str) -> str:
    """The phrase the service matches against its unstemmed index for the exact bonus."""
    return _exact_phrase_query(text) or ""


def _ours_generators(extra: dict | None = None) -> str:
    return "/v1/generators?" + urlencode({**(extra or {}), "limit": PAGE})


def _datasette_generators(db: str, extra: dict | None = None) -> str:
    query = {"is_current": 1, **(extra or {}), **_DATASETTE_PAGE}
    return f"/{db}/generators.json?" + urlencode(query)


def base_scenarios(db: str) -> list[Scenario]:
    """The scenarios before discovery (the deep page is added by `discover`)."""
    ds_filter = {"state": FILTER["state"], "capacity_mw__gte": FILTER["min_capacity_mw"]}
    out = [
        Scenario(
            "generators_first",
            "generators, first 500-row page",
            _ours_generators(),
            _datasette_generators(db),
        ),
        Scenario(
            "generators_filtered",
            "generators, state=TX and min_capacity_mw=100, first page",
            _ours_generators(FILTER),
            _datasette_generators(db, ds_filter),
        ),
    ]
    for name, text in SEARCHES.items():
        ours = "/v1/evidence-search?" + urlencode(
            {"q": text, "limit": SEARCH_LIMIT}, quote_via=quote
        )
        ranked = urlencode(
            {
                "q": fts_expression(text),
                "phrase": exact_phrase_query(text),
                "n": SEARCH_LIMIT,
                "_shape": "objects",
            },
            quote_via=quote,
        )
        out.append(
            Scenario(
                name,
                f"evidence search `{text}`, top {SEARCH_LIMIT} by rank",
                ours,
                f"/{db}/evidence_ranked.json?{ranked}",
            )
        )
    return out


def _walk_ours(client: httpx.Client, base: str, path: str) -> tuple[list[str], str | None]:
    """Return every id in order and the cursor that fetches the last page."""
    ids: list[str] = []
    cursor = last_cursor = None
    while True:
        url = base + path + (f"&cursor={cursor}" if cursor else "")
        body = client.get(url, headers=AUTH).raise_for_status().json()
        ids += [r["id"] for r in body["data"]]
        if not body["meta"]["hasMore"]:
            return ids, last_cursor
        last_cursor = cursor = body["meta"]["nextCursor"]


def _walk_datasette(client: httpx.Client, base: str, path: str) -> tuple[list[str], str | None]:
    """Return every id in order and the `_next` token that fetches the last page."""
    ids: list[str] = []
    token = last_token = None
    while True:
        url = base + path + (f"&_next={quote(token)}" if token else "")
        body = client.get(url).raise_for_status().json()
        ids += [r["id"] for r in body["rows"]]
        if not body.get("next"):
            return ids, last_token
        last_token = token = body["next"]


def discover(db: str, ours_base: str, datasette_base: str) -> tuple[list[Scenario], dict]:
    """Check both sides page to the same rows; add the last-page scenario; return checks."""
    scenarios = base_scenarios(db)
    checks: dict = {}
    with httpx.Client(timeout=120) as client:
        for scenario in scenarios[:2]:
            ours_ids, ours_cursor = _walk_ours(client, ours_base, scenario.ours)
            ds_ids, ds_token = _walk_datasette(client, datasette_base, scenario.datasette)
            if ours_ids != ds_ids:
                raise RuntimeError(f"{scenario.name}: the two sides page to different rows")
            checks[scenario.name] = {"rows": len(ours_ids), "pages": -(-len(ours_ids) // PAGE)}
            if scenario.name == "generators_first" and ours_cursor and ds_token:
                scenarios.insert(
                    1,
                    Scenario(
                        "generators_last",
                        f"generators, last page (page {checks[scenario.name]['pages']})",
                        scenario.ours + f"&cursor={ours_cursor}",
                        scenario.datasette + f"&_next={quote(ds_token)}",
                    ),
                )
        for scenario in scenarios:
            if not scenario.name.startswith("search"):
                continue
            ours = client.get(ours_base + scenario.ours, headers=AUTH).raise_for_status().json()
            ds = client.get(datasette_base + scenario.datasette).raise_for_status().json()
            ours_ids = [r["chunkId"] for r in ours["data"]]
            ds_ids = [r["id"] for r in ds["rows"]]
            checks[scenario.name] = {
                "rows": len(ours_ids),
                "same_ids": len(set(ours_ids) & set(ds_ids)),
                "same_order": ours_ids == ds_ids,
            }
    return scenarios, checks
