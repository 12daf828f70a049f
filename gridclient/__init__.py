"""gridclient: a typed, resilient client for the Grid Data Service v1.

::

    from gridclient import GridDataClient

    with GridDataClient(base_url="http://127.0.0.1:8000", token="...") as client:
        for generator in client.generators.list(state="TX", min_capacity_mw=100):
            print(generator.plant_name, generator.nameplate_capacity_mw)
"""

from gridclient._assessment_summary import (
    AssessmentSummary,
    SummaryMargin,
    SummaryPlant,
    SummaryQueue,
)
from gridclient._capabilities import Capabilities
from gridclient._client import GridDataClient
from gridclient._errors import (
    APIConnectionError,
    APIStatusError,
    APITimeoutError,
    AuthenticationError,
    BadRequestError,
    ConflictError,
    GridAPIError,
    InternalServerError,
    InvalidArgumentError,
    NotAcceptableError,
    NotFoundError,
    PermissionDeniedError,
    PreconditionFailedError,
    RateLimitError,
    ResponseValidationError,
    UnprocessableEntityError,
    UnsupportedMediaTypeError,
)
from gridclient._paging import Page, Pager, quality_flags_text
from gridclient._response import RawResponse
from gridclient._site_changes import FactChange, SiteChanges
from gridclient._surroundings import (
    InterconnectionPoint,
    ListPage,
    NearbyPlant,
    QueueChanges,
    QueueProject,
    SiteSurroundings,
    SourceCell,
    SurroundingCounty,
)
from gridclient._transport import package_version
from gridclient.models import (
    Assessment,
    AssessmentExport,
    BalancingAuthorityOperation,
    DocketFiling,
    EvidenceChunk,
    ExpertReviewPacket,
    Fact,
    GenerationPlant,
    Generator,
    GeneratorOperation,
    PageMeta,
    QualityFlag,
    QualityReport,
    QueueRecord,
    QueueRecordDetails,
    QueueRecordEvidence,
    QueueStatusNow,
    Release,
    ServiceTerritoryCandidate,
    Site,
    SiteDefinition,
    SiteLocation,
    SiteRevision,
    TerritoryResolution,
    TransmissionProject,
)

__version__ = package_version()

__all__ = [
    "APIConnectionError",
    "APIStatusError",
    "APITimeoutError",
    "Assessment",
    "AssessmentExport",
    "AssessmentSummary",
    "AuthenticationError",
    "BadRequestError",
    "BalancingAuthorityOperation",
    "Capabilities",
    "ConflictError",
    "PreconditionFailedError",
    "DocketFiling",
    "EvidenceChunk",
    "ExpertReviewPacket",
    "Fact",
    "GenerationPlant",
    "Generator",
    "GeneratorOperation",
    "GridAPIError",
    "GridDataClient",
    "InterconnectionPoint",
    "InternalServerError",
    "InvalidArgumentError",
    "NearbyPlant",
    "NotAcceptableError",
    "NotFoundError",
    "Page",
    "PageMeta",
    "Pager",
    "PermissionDeniedError",
    "QualityFlag",
    "QualityReport",
    "QueueChanges",
    "ListPage",
    "QueueProject",
    "QueueRecord",
    "QueueRecordDetails",
    "QueueRecordEvidence",
    "QueueStatusNow",
    "RateLimitError",
    "RawResponse",
    "Release",
    "ResponseValidationError",
    "ServiceTerritoryCandidate",
    "Site",
    "SiteDefinition",
    "SiteLocation",
    "SiteSurroundings",
    "SourceCell",
    "SummaryMargin",
    "SummaryPlant",
    "SummaryQueue",
    "SurroundingCounty",
    "SiteRevision",
    "SiteChanges",
    "FactChange",
    "TerritoryResolution",
    "TransmissionProject",
    "UnprocessableEntityError",
    "UnsupportedMediaTypeError",
    "__version__",
    "quality_flags_text",
]
