"""Property-based conformance: schemathesis drives every operation of the served OpenAPI.

Runs in-process against a demo store with schemathesis' default checks. Two generated values
are replaced before sending, because the interface forbids clients from making them up:
`cursor` (opaque, only ever the server's `nextCursor`) and `Idempotency-Key` (one per
intended creation; generated minimal keys such as "00000000" would collide across bodies).
A site's `averageLoadMw` and `curtailableMw` may not exceed its `requestedPeakLoadMw`, a rule
the field descriptions state but JSON Schema cannot express, so generated sites are brought
within it; so are completion requests, which name a county or a point (a radius is around
a point). Likewise no text the service is sent may hold NUL: parameters and bodies, keys of free-form
objects included (SECURITY.md section 5; JSON Schema cannot say it of every key at every
depth), so NUL is taken out of generated requests that are meant to be valid.
"""

from __future__ import annotations

import uuid

import pytest
import schemathesis
from hypothesis import HealthCheck, settings
from service_calls import without_nul

from gridservice.app import create_app
from gridservice.settings import Settings

try:
    from gridservice.demo import build_demo_database  # noqa: F401

    HAVE_DEMO = True
except ImportError:  # the small store still exercises every operation
    HAVE_DEMO = False


@pytest.fixture(scope="module")
def served_schema(tmp_path_factory):
    """The served OpenAPI, read when the test runs (not when the module is collected: the
    coverage cases schemathesis derives from it cost 40 processor-seconds, and every worker
    collects every module). Unlimited: it sends thousands of requests, refused credentials
    among them, from one address (the limits are proved in
    tests/security/test_resource_caps.py)."""
    db_path = tmp_path_factory.mktemp("schemathesis") / "store.db"
    unlimited = {"rate_limit_burst": 10**9, "refused_rate_per_second": None}
    if HAVE_DEMO:
        from demo_store import demo_store_copy

        app = create_app(Settings(db_path=demo_store_copy(db_path), demo=True, **unlimited))
    else:
        from service_support import seed_small_store

        seed_small_store(db_path)
        app = create_app(Settings(db_path=db_path, **unlimited))
    return schemathesis.openapi.from_asgi("/v1/openapi.json", app)


schema = schemathesis.pytest.from_fixture("served_schema")


@pytest.fixture(autouse=True)
def node_id_as_schemathesis_reads_it(request):
    """schemathesis' lazy schema reads and rewrites the test's `_nodeid`, which pytest 9's
    nodes no longer have (the id lives elsewhere); give it one to read."""
    request.node._nodeid = request.node.nodeid


TOKEN = "gds_demo_alpha" if HAVE_DEMO else "tok_alpha_test"
DEMO_COUNTY = "48209"  # Hays County, TX: the demo's queue is there
POINT = ("latitude", "longitude", "radius_km")


@schema.auth()
class BearerToken:
    """The demo token, except where schemathesis deliberately omits credentials."""

    def get(self, case, context):
        return TOKEN

    def set(self, case, data, context):
        case.headers = case.headers or {}
        case.headers["Authorization"] = f"Bearer {data}"


# settings outside: the lazy schema reads them from the test it wraps
@settings(
    max_examples=12,
    derandomize=True,
    database=None,
    deadline=None,
    suppress_health_check=list(HealthCheck),
)
@schema.parametrize()
def test_every_operation_conforms(case):
    if case.query:
        case.query.pop("cursor", None)
    if case.headers and "Idempotency-Key" in case.headers:
        key = case.headers["Idempotency-Key"]
        if isinstance(key, str) and 8 <= len(key) <= 255:
            case.headers["Idempotency-Key"] = ("st-" + uuid.uuid4().hex + key)[: max(8, len(key))]
    positive = case.meta is not None and case.meta.generation.mode.is_positive
    if positive:
        if isinstance(case.body, dict | list):
            case.body = without_nul(case.body)
        for parameters in ("query", "path_parameters"):
            if getattr(case, parameters, None):
                setattr(case, parameters, without_nul(getattr(case, parameters)))
    if positive and case.operation.path == "/v1/queue-history/completion":
        # a completion is of a county or around a point (a radius is around a point), one of
        # the two: the description says so, JSON Schema cannot
        query = dict(case.query or {})
        if query.get("county") or not {"latitude", "longitude"} <= set(query):
            query = {k: v for k, v in query.items() if k not in POINT}
            query["county"] = query.get("county") or DEMO_COUNTY
        case.query = query
    body = case.body if positive and isinstance(case.body, dict) else None
    peak = body.get("requestedPeakLoadMw") if body else None
    if isinstance(peak, int | float) and not isinstance(peak, bool):
        for name in ("averageLoadMw", "curtailableMw"):
            value = body.get(name)
            if isinstance(value, int | float) and not isinstance(value, bool) and value > peak:
                body[name] = peak
    case.call_and_validate()
