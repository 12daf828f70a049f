"""Benchmark: traversing 50,000 records through gridclient vs a bare httpx loop.

All three traverse the same pages from the same local server in one run. The server runs
in its own process and answers with pre-built pages (500 generator records each, shaped as
the interface publishes them), so the measurement is the client side.

- ``bare httpx + models``: the loop a caller would write by hand with httpx, following
  ``nextCursor`` and building the same ``Generator`` models (``model_validate`` per record).
  This is the comparison the target is set against (models included on both sides).
- ``bare httpx (dicts)``: the same loop keeping plain dicts, to show what typing costs.
- ``gridclient``: ``client.generators.list()`` iterated to the end.

    uv run python bench/bench_client.py [--records 50000] [--repeats 7]

Prints the best and median seconds of each, as wall time and as CPU time of the client
process (steadier on a shared machine: it leaves out the server and time spent
descheduled), and the ratios (target: gridclient / bare httpx + models <= 1.3).
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import statistics
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlparse

import httpx

from gridclient import Generator, GridDataClient

PAGE_SIZE = 500


def generator_record(i: int) -> dict:
    return {
        "id": f"gen-{i:07d}",
        "generatorId": f"GT{i % 7}",
        "plantName": f"Example Energy Center {i % 311}",
        "utilityName": "Example Power Cooperative",
        "state": "TX",
        "county": "Travis",
        "balancingAuthorityCode": "ERCO",
        "status": "OP",
        "technology": "Natural Gas Fired Combined Cycle",
        "energySourceCode": "NG",
        "primeMoverCode": "CT",
        "agencyPlantId": 1000 + i % 5000,
        "utilityId": 5000 + i % 40,
        "nameplateCapacityMw": 180.5 + i % 17,
        "summerCapacityMw": 170.0,
        "winterCapacityMw": 185.2,
        "operatingDate": "2004-06",
        "plannedOperationDate": None,
        "retirementDate": None,
        "preliminary": i % 9 == 0,
        "evidence": {
            "sourceId": "eia860-2024",
            "assetHash": "sha256:" + "a" * 64,
            "sourceLocator": f"3_1_Generator_Y2024.xlsx#Operable!row={i + 2}",
            "observedAt": "2025-06-01T00:00:00Z",
        },
        "qualityFlags": [
            {
                "code": "preliminary_release",
                "severity": "info",
                "field": "status",
                "message": "Early-release data; values may change.",
            }
        ],
    }


def build_pages(records: int) -> list[bytes]:
    pages = []
    count = (records + PAGE_SIZE - 1) // PAGE_SIZE
    for number in range(count):
        first = number * PAGE_SIZE
        data = [generator_record(i) for i in range(first, min(first + PAGE_SIZE, records))]
        has_more = number + 1 < count
        meta = {
            "hasMore": has_more,
            "limit": PAGE_SIZE,
            "nextCursor": f"opaque.{number + 1}.c2ln" if has_more else None,
            "order": "id_asc",
        }
        pages.append(json.dumps({"data": data, "meta": meta}, separators=(",", ":")).encode())
    return pages


def serve(records: int, port_queue: multiprocessing.Queue) -> None:
    pages = build_pages(records)

    class CannedPages(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def do_GET(self) -> None:  # noqa: N802 (http.server's naming)
            query = parse_qs(urlparse(self.path).query)
            cursor = query.get("cursor", ["opaque.0.c2ln"])[0]
            body = pages[int(cursor.split(".")[1])]
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args: object) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), CannedPages)
    port_queue.put(server.server_address[1])
    server.serve_forever()


def _bare_loop(base_url: str, *, models: bool) -> int:
    """The hand-written loop a caller would write without the client."""
    count = 0
    with httpx.Client(headers={"Authorization": "Bearer t"}) as http:
        params: dict[str, object] = {"limit": PAGE_SIZE}
        while True:
            response = http.get(f"{base_url}/v1/generators", params=params)
            response.raise_for_status()
            body = response.json()
            if models:
                records = [Generator.model_validate(item) for item in body["data"]]
                count += sum(r.nameplate_capacity_mw is not None for r in records)
            else:
                count += sum(item["nameplateCapacityMw"] is not None for item in body["data"])
            if not body["meta"]["hasMore"]:
                return count
            params = {"limit": PAGE_SIZE, "cursor": body["meta"]["nextCursor"]}


def bare_httpx_models(base_url: str) -> int:
    return _bare_loop(base_url, models=True)


def bare_httpx_dicts(base_url: str) -> int:
    return _bare_loop(base_url, models=False)


def through_client(base_url: str) -> int:
    count = 0
    with GridDataClient(base_url=base_url, token="t") as client:
        for generator in client.generators.list(limit=PAGE_SIZE):
            count += generator.nameplate_capacity_mw is not None
    return count


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--records", type=int, default=50_000)
    parser.add_argument("--repeats", type=int, default=7)
    args = parser.parse_args()

    ports: multiprocessing.Queue = multiprocessing.Queue()
    server = multiprocessing.Process(target=serve, args=(args.records, ports), daemon=True)
    server.start()
    base_url = f"http://127.0.0.1:{ports.get(timeout=60)}"
    try:
        runs = {
            "bare httpx + models": bare_httpx_models,
            "bare httpx (dicts)": bare_httpx_dicts,
            "gridclient": through_client,
        }
        timings: dict[str, list[float]] = {name: [] for name in runs}
        cpu: dict[str, list[float]] = {name: [] for name in runs}
        for run in runs.values():  # warm every path once
            run(base_url)
        for _ in range(args.repeats):
            # Interleave so drift on the machine hits every side alike.
            for name, run in runs.items():
                started, started_cpu = time.perf_counter(), time.process_time()
                traversed = run(base_url)
                timings[name].append(time.perf_counter() - started)
                cpu[name].append(time.process_time() - started_cpu)
                assert traversed == args.records, (name, traversed)
    finally:
        server.terminate()
        server.join()

    print(f"records: {args.records}, page size {PAGE_SIZE}, repeats {args.repeats}")
    for label, table in (("wall", timings), ("client-process CPU", cpu)):
        print(f"-- {label} seconds")
        for name, values in table.items():
            print(f"{name:>20}: best {min(values):.3f}  median {statistics.median(values):.3f}")
        client = table["gridclient"]
        for baseline in ("bare httpx + models", "bare httpx (dicts)"):
            best = min(client) / min(table[baseline])
            median = statistics.median(client) / statistics.median(table[baseline])
            print(f"   gridclient / {baseline}: best {best:.2f}  median {median:.2f}")
    print("target: gridclient / bare httpx + models <= 1.3")


if __name__ == "__main__":
    main()
