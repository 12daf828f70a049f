"""The client's overhead over bare httpx: one traversal of up to 50,000 records, both ways.

Against the real service process: generator operations (the largest collection) in pages of
500. `bare httpx` is the loop a caller writes by hand (follow `nextCursor`, keep dicts);
`gridclient` is `client.generator_operations.list(limit=500, max_items=N)` iterated to the
end (typed models). The two alternate, `repeats` times each.
"""

from __future__ import annotations

import statistics
import time

import httpx

from bench.peers.scenarios import AUTH, PAGE, TOKEN
from gridclient import GridDataClient

PATH = "/v1/generator-operations"


def bare_httpx(base_url: str, max_items: int) -> int:
    count, cursor = 0, None
    with httpx.Client(base_url=base_url, headers=AUTH, timeout=60) as client:
        while count < max_items:
            params = {"limit": PAGE} | ({"cursor": cursor} if cursor else {})
            body = client.get(PATH, params=params).raise_for_status().json()
            count += len(body["data"][: max_items - count])
            if not body["meta"]["hasMore"]:
                break
            cursor = body["meta"]["nextCursor"]
    return count


def with_gridclient(base_url: str, max_items: int) -> int:
    with GridDataClient(base_url=base_url, token=TOKEN) as client:
        return sum(1 for _ in client.generator_operations.list(limit=PAGE, max_items=max_items))


def measure(base_url: str, *, max_items: int = 50_000, repeats: int = 3) -> dict:
    """Median seconds of each way, the records traversed, and the ratio client / bare."""
    times: dict[str, list[float]] = {"bare_httpx": [], "gridclient": []}
    counts: dict[str, int] = {}
    ways = {"bare_httpx": bare_httpx, "gridclient": with_gridclient}
    for round_no in range(repeats):
        order = list(ways) if round_no % 2 == 0 else list(reversed(ways))
        for name in order:
            start = time.perf_counter()
            counts[name] = ways[name](base_url, max_items)
            times[name].append(time.perf_counter() - start)
    if counts["bare_httpx"] != counts["gridclient"]:
        raise RuntimeError(f"the traversals disagree: {counts}")
    medians = {name: round(statistics.median(ts), 3) for name, ts in times.items()}
    return {
        "records": counts["bare_httpx"],
        "seconds": medians,
        "ratio": round(medians["gridclient"] / medians["bare_httpx"], 2),
    }
