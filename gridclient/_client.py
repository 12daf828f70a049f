"""GridDataClient: the one object a caller builds."""

from __future__ import annotations

import time
from collections.abc import Callable
from datetime import date
from types import TracebackType
from typing import Any

import httpx

from gridclient._capabilities import OPENAPI_PATH, Capabilities, capabilities_from_openapi
from gridclient._errors import NotFoundError
from gridclient._queue_completion import QueueHistory
from gridclient._resources import (
    Assessments,
    BalancingAuthorityOperations,
    Dockets,
    Evidence,
    Exports,
    GenerationPlants,
    GeneratorOperations,
    Generators,
    LoadForecasts,
    QueueRecords,
    ResourceAdequacy,
    ServiceTerritories,
    Sites,
    TransmissionProjects,
)
from gridclient._reviews import Reviews
from gridclient._transport import DEFAULT_TIMEOUT, Transport
from gridclient.models import QualityReport, Release


class GridDataClient:
    """A client for a Grid Data Service v1 deployment.

    ``base_url`` and ``token`` fall back to ``GRID_API_BASE_URL`` and ``GRID_API_TOKEN``.
    ``service_version`` (``YYYY-MM-DD``) is sent as ``Service-Version`` when given.
    ``max_retries`` bounds the retries of connection errors, 429, 502, 503, 504 and an
    in-flight idempotency conflict. ``http_client`` replaces the client's own
    ``httpx.Client`` (it is then not closed by this client). ``sleep`` is how the client
    waits between retries (tests pass a recorder).
    """

    def __init__(
        self,
        *,
        base_url: str | None = None,
        token: str | None = None,
        service_version: str | date | None = None,
        timeout: float | httpx.Timeout | None = DEFAULT_TIMEOUT,
        max_retries: int = 2,
        http_client: httpx.Client | None = None,
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        self._transport = Transport(
            base_url=base_url,
            token=token,
            service_version=service_version,
            timeout=timeout,
            max_retries=max_retries,
            http_client=http_client,
            sleep=sleep,
        )
        self._capabilities: Capabilities | None = None
        self.load_forecasts = LoadForecasts(self._transport)
        self.resource_adequacy = ResourceAdequacy(self._transport)
        self.generators = Generators(self._transport)
        self.generation_plants = GenerationPlants(self._transport)
        self.generator_operations = GeneratorOperations(self._transport)
        self.balancing_authority_operations = BalancingAuthorityOperations(self._transport)
        self.transmission_projects = TransmissionProjects(self._transport)
        self.dockets = Dockets(self._transport)
        self.queue_records = QueueRecords(self._transport)
        self.queue_history = QueueHistory(self._transport)
        self.evidence = Evidence(self._transport)
        self.sites = Sites(self._transport)
        self.assessments = Assessments(self._transport)
        self.exports = Exports(self._transport)
        self.service_territories = ServiceTerritories(self._transport)
        self.reviews = Reviews(self._transport)

    @property
    def base_url(self) -> str:
        """The service address requests go to (without the ``/v1`` prefix)."""
        return self._transport.base_url

    @property
    def service_version(self) -> str | None:
        return self._transport.service_version

    @property
    def max_retries(self) -> int:
        return self._transport.policy.max_retries

    def release(self) -> Release:
        """The immutable identity of the running build, schema and data release."""
        response = self._transport.request("GET", "/v1/release")
        return self._transport.parse_record(response, Release)

    def quality(self) -> QualityReport:
        """The harvest-quality report (not independent field-accuracy validation)."""
        response = self._transport.request("GET", "/v1/quality")
        return self._transport.parse_record(response, QualityReport, member=None)

    def capabilities(self, *, refresh: bool = False) -> Capabilities:
        """Which extension operations the deployment serves, from its OpenAPI document.

        Read once per client and cached. A deployment that serves no document (404) gets
        ``Capabilities()`` with every extension False; other failures raise.
        """
        if self._capabilities is None or refresh:
            try:
                response = self._transport.request("GET", OPENAPI_PATH)
            except NotFoundError:
                self._capabilities = Capabilities()
            else:
                document: Any = self._transport.get_json_body(response)
                self._capabilities = capabilities_from_openapi(document)
        return self._capabilities

    def close(self) -> None:
        """Close the connection pool (unless it was handed in as ``http_client``)."""
        self._transport.close()

    def __enter__(self) -> GridDataClient:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"<GridDataClient {self.base_url}>"
