"""Sending requests: headers, the one retry loop, and turning bodies into models or errors."""

from __future__ import annotations

import contextlib
import gc
import json
import os
import ssl
import uuid
from collections.abc import Callable, Iterator
from functools import lru_cache
from importlib import metadata
from typing import Any, Generic, TypeVar

import httpx
from pydantic import BaseModel, TypeAdapter, ValidationError

from gridclient._args import check_idempotency_key, check_service_version
from gridclient._errors import (
    APIConnectionError,
    APITimeoutError,
    GridAPIError,
    InvalidArgumentError,
    ResponseValidationError,
    status_error_from_response,
)
from gridclient._response import RawResponse
from gridclient._retry import RetryPolicy, parse_retry_after, should_retry_response
from gridclient.models import GridModel, PageMeta, UnreadableRecord, with_raw_response

ModelT = TypeVar("ModelT", bound=GridModel)

DEFAULT_TIMEOUT = httpx.Timeout(30.0, connect=5.0)
BASE_URL_ENV = "GRID_API_BASE_URL"
TOKEN_ENV = "GRID_API_TOKEN"


@lru_cache(maxsize=1)
def default_tls_context() -> ssl.SSLContext:
    """Return the TLS context every client of this process verifies servers with: httpx's
    default (certifi's bundle, or `SSL_CERT_FILE` / `SSL_CERT_DIR` as read at the first
    client). Building one loads the whole certificate bundle (about 80 ms); a context is
    safe to share, so a process builds it once rather than once per client."""
    return httpx.create_ssl_context()


def package_version() -> str:
    """This package's version, from the installed distribution when there is one."""
    try:
        return metadata.version("grid-site-screener")
    except metadata.PackageNotFoundError:
        return "0.0.0+unknown"


class Envelope(BaseModel, Generic[ModelT]):
    """A collection page as sent: ``data`` records and ``meta``."""

    data: list[ModelT]
    meta: PageMeta = PageMeta()
    unreadable: list[UnreadableRecord] = []


@lru_cache(maxsize=64)
def _envelope_adapter(model: type[GridModel]) -> TypeAdapter[Any]:
    return TypeAdapter(Envelope[model])  # type: ignore[valid-type]


@contextlib.contextmanager
def _collector_paused() -> Iterator[None]:
    """Hold off Python's cyclic garbage collector while a page becomes models.

    A 500-record page allocates thousands of objects at once (records, their field
    dicts, nested evidence and flags) and none of them form cycles, yet each batch of
    allocations triggers collections that walk the young objects again and again: about
    40% of the time spent validating a page. The collector is switched back on, if it was
    on, as soon as the page is built; it then collects as usual on later allocations.
    Another thread that allocates meanwhile is only spared collections for that moment.
    """
    was_enabled = gc.isenabled()
    if was_enabled:
        gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()


def _field_path(error: ValidationError) -> tuple[str, str]:
    first = error.errors(include_url=False)[0]
    return ".".join(str(part) for part in first["loc"]) or "<body>", first["msg"]


def _page_by_record(content: bytes, model: type[ModelT]) -> Envelope[ModelT] | None:
    """Return the page with each record read on its own and those that fail left out (named
    in ``unreadable``); None when the page itself, not some of its records, is at fault."""
    try:
        body = json.loads(content)
        meta = PageMeta.model_validate(body.get("meta") or {})
    except (ValueError, RecursionError, AttributeError, ValidationError):
        return None
    if not isinstance(body.get("data"), list):
        return None
    records, unreadable = [], []
    for index, item in enumerate(body["data"]):
        try:
            records.append(model.model_validate(item))
        except (ValidationError, RecursionError) as exc:
            field, message = (
                _field_path(exc) if isinstance(exc, ValidationError) else ("<record>", str(exc))
            )
            known = item.get("id") if isinstance(item, dict) else None
            unreadable.append(
                UnreadableRecord(
                    index=index,
                    id=known if isinstance(known, str) else None,
                    field=field,
                    message=message,
                )
            )
    if not unreadable:
        return None
    return Envelope[model](data=records, meta=meta, unreadable=unreadable)


def _request_of(exc: httpx.TransportError) -> httpx.Request | None:
    try:
        return exc.request
    except RuntimeError:  # raised by hand, outside a request
        return None


def _normalise_base_url(base_url: str) -> str:
    base = base_url.strip().rstrip("/")
    if not base.startswith(("http://", "https://")):
        raise InvalidArgumentError("base_url", f"must be an http(s) URL, got {base_url!r}")
    # Paths all begin with /v1; accept a base URL given with or without it.
    return base[: -len("/v1")] if base.endswith("/v1") else base


class Transport:
    """One connection pool, the request headers and the retry loop."""

    def __init__(
        self,
        *,
        base_url: str | None,
        token: str | None,
        service_version: Any,
        timeout: float | httpx.Timeout | None,
        max_retries: int,
        http_client: httpx.Client | None,
        sleep: Callable[[float], None],
    ) -> None:
        base_url = base_url or os.environ.get(BASE_URL_ENV) or None
        if base_url is None and http_client is not None and str(http_client.base_url):
            base_url = str(http_client.base_url)
        if not base_url:
            raise InvalidArgumentError(
                "base_url",
                f"no service address: pass base_url= or set the {BASE_URL_ENV} environment "
                "variable (for example http://127.0.0.1:8000)",
            )
        if not isinstance(max_retries, int) or isinstance(max_retries, bool) or max_retries < 0:
            raise InvalidArgumentError(
                "max_retries", f"must be an integer >= 0, got {max_retries!r}"
            )
        self.base_url = _normalise_base_url(base_url)
        self.token = token if token is not None else os.environ.get(TOKEN_ENV) or None
        self.service_version = check_service_version(service_version)
        self.policy = RetryPolicy(max_retries=max_retries)
        self.sleep = sleep
        self._owns_http = http_client is None
        self.http = http_client or httpx.Client(timeout=timeout, verify=default_tls_context())
        self.headers = self._default_headers()

    def _default_headers(self) -> dict[str, str]:
        headers = {
            "Accept": "application/json",
            "User-Agent": f"gridclient/{package_version()}",
        }
        if self.token:
            headers["Authorization"] = f"Bearer {self.token}"
        if self.service_version:
            headers["Service-Version"] = self.service_version
        return headers

    def close(self) -> None:
        if self._owns_http:
            self.http.close()

    def request(
        self,
        method: str,
        path: str,
        *,
        params: dict[str, Any] | None = None,
        json_body: Any = None,
        idempotency_key: str | None = None,
        stream: bool = False,
        extra_headers: dict[str, str] | None = None,
    ) -> httpx.Response:
        """Send one operation, retrying what may be retried; raise a typed error otherwise.

        With ``stream``, a successful response comes back once its headers have; its body is
        left to be read (``response.read()``) by the caller, who closes it if unread.
        """
        headers = {**self.headers, **(extra_headers or {})}
        content: bytes | None = None
        if method in ("POST", "PATCH"):
            # One key per call, reused on every attempt, so a retry never acts twice.
            key = idempotency_key if idempotency_key is not None else str(uuid.uuid4())
            headers["Idempotency-Key"] = check_idempotency_key(key)
            headers["Content-Type"] = "application/json"
            content = json.dumps(json_body, separators=(",", ":")).encode("utf-8")
        url = self.base_url + path
        retries = 0
        while True:
            retry_after: float | None = None
            try:
                request = self.http.build_request(
                    method, url, params=params, content=content, headers=headers
                )
                response = self.http.send(request, stream=stream)
                if stream and not response.is_success:
                    response.read()  # a problem's body, read here as any other
            except httpx.TimeoutException as exc:
                failure: GridAPIError = APITimeoutError(
                    f"{method} {path} timed out after waiting on {self.base_url}: {exc}",
                    request=_request_of(exc),
                    base_url=self.base_url,
                )
            except httpx.TransportError as exc:
                failure = APIConnectionError(
                    f"{method} {path} could not reach {self.base_url}: {exc}",
                    request=_request_of(exc),
                    base_url=self.base_url,
                )
            else:
                if response.is_success:
                    return response
                if not should_retry_response(response):
                    raise status_error_from_response(response)
                failure = status_error_from_response(response)
                retry_after = parse_retry_after(response.headers.get("retry-after"))
            if retries >= self.policy.max_retries:
                raise failure
            retries += 1
            self.sleep(self.policy.delay(retries, retry_after))

    def get_json_body(self, response: httpx.Response) -> Any:
        try:
            return json.loads(response.content)
        except ValueError as exc:
            media_type = response.headers.get("content-type", "no content type")
            raise ResponseValidationError(
                "<body>",
                f"expected JSON, got {media_type}: {exc}",
                status=response.status_code,
                request_id=response.headers.get("x-request-id"),
            ) from exc

    def parse_record(
        self, response: httpx.Response, model: type[ModelT], *, member: str | None = "data"
    ) -> ModelT:
        """The record in ``data`` (or the whole body), with its raw response attached."""
        body = self.get_json_body(response)
        request_id = response.headers.get("x-request-id")
        if member is not None:
            if not isinstance(body, dict) or not isinstance(body.get(member), dict):
                raise ResponseValidationError(
                    member,
                    "missing or not an object",
                    status=response.status_code,
                    request_id=request_id,
                )
            body = body[member]
        try:
            record = with_raw_response(model).model_validate(body)
        except ValidationError as exc:
            field, message = _field_path(exc)
            prefix = f"{member}." if member else ""
            raise ResponseValidationError(
                prefix + field, message, status=response.status_code, request_id=request_id
            ) from exc
        record._raw = RawResponse(response)
        return record

    def parse_page(self, response: httpx.Response, model: type[ModelT]) -> Envelope[ModelT]:
        """A collection page validated straight from the JSON bytes."""
        try:
            with _collector_paused():
                return _envelope_adapter(model).validate_json(response.content)
        except ValidationError as exc:
            # One record the model cannot read must not cost the caller the whole page
            # (a tenant's list would fail for every user until that record went away).
            envelope = _page_by_record(response.content, model)
            if envelope is not None:
                return envelope
            field, message = _field_path(exc)
            raise ResponseValidationError(
                field,
                message,
                status=response.status_code,
                request_id=response.headers.get("x-request-id"),
            ) from exc
