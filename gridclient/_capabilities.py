"""Which extension operations a deployment serves, read from its OpenAPI document."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

OPENAPI_PATH = "/v1/openapi.json"

# Extension operation -> (method, path template with parameters blanked).
EXTENSIONS: dict[str, tuple[str, str]] = {
    "list_sites": ("get", "/v1/sites"),
    "create_assessment": ("post", "/v1/sites/{}/assessments"),
    "list_assessments": ("get", "/v1/sites/{}/assessments"),
    "create_export": ("post", "/v1/assessments/{}/exports"),
    "site_surroundings": ("get", "/v1/sites/{}/surroundings"),
    "update_site": ("patch", "/v1/sites/{}"),
    "site_changes": ("get", "/v1/sites/{}/changes"),
}
# Extension query parameter -> (method, path template, parameter name) of the operation.
EXTENSION_PARAMETERS: dict[str, tuple[str, ...]] = {
    "list_sites_latest_assessment": ("get", "/v1/sites", "include"),
    # A value the parameter's schema lists (`enum`): (method, path, parameter name, value).
    "list_sites_assessment_summary": ("get", "/v1/sites", "include", "latest_assessment_summary"),
}
_HTTP_METHODS = {"get", "post", "put", "patch", "delete", "head", "options"}


@dataclass(frozen=True)
class Capabilities:
    """What the deployment says it can do.

    ``openapi_available`` is False when the service serves no OpenAPI document (404);
    then every extension flag is False and the app falls back to typing ids.
    """

    list_sites: bool = False
    create_assessment: bool = False
    list_assessments: bool = False
    create_export: bool = False
    update_site: bool = False
    site_changes: bool = False
    list_sites_latest_assessment: bool = False
    list_sites_assessment_summary: bool = False
    site_surroundings: bool = False
    openapi_available: bool = False
    api_version: str | None = None
    operations: frozenset[tuple[str, str]] = field(default_factory=frozenset)

    def supports(self, method: str, path: str) -> bool:
        """Whether the document lists ``method`` on ``path`` (parameters written ``{}``)."""
        return (method.lower(), _blank_parameters(path)) in self.operations

    @property
    def extensions(self) -> dict[str, bool]:
        """Each extension operation's name and whether it exists."""
        return {name: getattr(self, name) for name in (*EXTENSIONS, *EXTENSION_PARAMETERS)}


def _blank_parameters(path: str) -> str:
    return re.sub(r"\{[^}]*\}", "{}", path.rstrip("/") or "/")


def _enum_values(schema: Any) -> set[str]:
    """Return every text value an `enum` lists anywhere in a parameter's schema."""
    if isinstance(schema, list):
        return {v for item in schema for v in _enum_values(item)}
    if not isinstance(schema, dict):
        return set()
    found = {v for v in schema.get("enum") or [] if isinstance(v, str)}
    return found | {v for key, item in schema.items() if key != "enum" for v in _enum_values(item)}


def _query_parameters(operation: Any) -> set[tuple[str, ...]]:
    """Return (name,) of each query parameter and (name, value) of each value its enum lists."""
    listed = operation.get("parameters") if isinstance(operation, dict) else None
    found: set[tuple[str, ...]] = set()
    for p in listed or []:
        if isinstance(p, dict) and p.get("in") == "query" and isinstance(p.get("name"), str):
            found.add((p["name"],))
            found.update((p["name"], value) for value in _enum_values(p.get("schema")))
    return found


def capabilities_from_openapi(document: Any) -> Capabilities:
    """Read the operations of an OpenAPI document (anything malformed counts as absent)."""
    paths = document.get("paths") if isinstance(document, dict) else None
    operations: set[tuple[str, str]] = set()
    parameters: set[tuple[str, ...]] = set()
    if isinstance(paths, dict):
        for path, item in paths.items():
            if not isinstance(path, str) or not isinstance(item, dict):
                continue
            for method, operation in item.items():
                if isinstance(method, str) and method.lower() in _HTTP_METHODS:
                    operation_key = (method.lower(), _blank_parameters(path))
                    operations.add(operation_key)
                    parameters.update((*operation_key, *p) for p in _query_parameters(operation))
    info = document.get("info") if isinstance(document, dict) else None
    version = info.get("version") if isinstance(info, dict) else None
    flags = {name: op in operations for name, op in EXTENSIONS.items()}
    flags |= {name: p in parameters for name, p in EXTENSION_PARAMETERS.items()}
    return Capabilities(
        **flags,
        openapi_available=True,
        api_version=version if isinstance(version, str) else None,
        operations=frozenset(operations),
    )
