"""Property-based conformance: schemathesis drives every operation of the served OpenAPI.

Runs in-process against a demo store with schemathesis' default checks. Two generated values
are replaced before sending, because the interface forbids clients from making them up:
`cursor` (opaque, only ever the server's `nextCursor`) and `Idempotency-Key` (one per
intended creation; generated minimal keys such as "00000000" would collide across bodies).
A site's `averageLoadMw` and `curtailableMw` may not exceed its `requestedPeakLoadMw`, a rule
the field descriptions state but JSON Schema cannot express, so generated sites are brought
within it. Likewise no text the service is sent may hold NUL: parameters and bodies, keys of free-form
objects included (SECURITY.md section 5; JSON Schema cannot say it of every key at every
depth), so NUL is taken out of generated requests that are meant to be valid.
"""

from __future__ import annotations

import atexit
import shutil
import tempfile
import uuid
from pathlib import Path

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


def _app():
    # Built when the module is collected: schemathesis reads the schema to parametrize.
    # Unlimited: it sends thousands of requests, refused credentials among them, from one
    # address (the limits are proved in tests/security/test_resource_caps.py).
    # Removed when pytest exits (collection builds it in every worker, even when no test of
    # this module is selected; it was left behind, 26 MB a run).
    folder = tempfile.mkdtemp(prefix="gds-schemathesis-")
    atexit.register(shutil.rmtree, folder, ignore_errors=True)
    db_path = Path(folder) / "store.db"
    unlimited = {"rate_limit_burst": 10**9, "refused_rate_per_second": None}
    if HAVE_DEMO:
        from demo_store import demo_store_copy

        return create_app(Settings(db_path=demo_store_copy(db_path), demo=True, **unlimited))
    from service_support import seed_small_store

    seed_small_store(db_path)
    return create_app(Settings(db_path=db_path, **unlimited))


schema = schemathesis.openapi.from_asgi("/v1/openapi.json", _app())

TOKEN = "gds_demo_alpha" if HAVE_DEMO else "tok_alpha_test"


@schema.auth()
class BearerToken:
    """The demo token, except where schemathesis deliberately omits credentials."""

    def get(self, case, context):
        return TOKEN

    def set(self, case, data, context):
        case.headers = case.headers or {}
        case.headers["Authorization"] = f"Bearer {data}"


@schema.parametrize()
@settings(
    max_examples=12,
    derandomize=True,
    database=None,
    deadline=None,
    suppress_health_check=list(HealthCheck),
)
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
    body = case.body if positive and isinstance(case.body, dict) else None
    peak = body.get("requestedPeakLoadMw") if body else None
    if isinstance(peak, int | float) and not isinstance(peak, bool):
        for name in ("averageLoadMw", "curtailableMw"):
            value = body.get(name)
            if isinstance(value, int | float) and not isinstance(value, bool) and value > peak:
                body[name] = peak
    case.call_and_validate()
