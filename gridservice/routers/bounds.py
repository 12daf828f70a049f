"""Bounds on what a client may store (nesting, size, NUL, finite numbers), checked at the
door, and the degraded form a record stored before those bounds is served in.

A body member that breaks them is refused 422 naming it. A site stored earlier that breaks
them is served with that member null and named in `degradedFields`, so the rest of the
tenant's list still answers and the site can be archived or corrected.
"""

from __future__ import annotations

import json
import math
import re
from typing import Annotated, Any

from pydantic import AfterValidator, StringConstraints

MAX_FREE_FORM_DEPTH = 32
MAX_FREE_FORM_BYTES = 16 * 1024
NUL = "\x00"
DEGRADED_FIELDS = "degradedFields"
# The JSON escape of NUL as stored text holds it (records are stored ASCII-escaped).
_STORED_NUL = "\\u0000"
_JSON_STRING = re.compile(r'"(?:[^"\\]|\\.)*"')
_BRACKETS = re.compile(r"[\[\]{}]")


def json_refusal(
    value: Any, *, max_depth: int = MAX_FREE_FORM_DEPTH, max_bytes: int | None = MAX_FREE_FORM_BYTES
) -> str | None:
    """Return why a JSON value may not be stored (where inside it, and what), or None.

    Refused: nesting past `max_depth` containers, NUL in a string or key, a number that is
    not finite (JSON has no NaN or infinity; Python's parser reads `1e999` as infinity), and
    more than `max_bytes` once serialised (None: any size). Walked without recursion, so no depth a
    parser accepted can overflow the stack here.
    """
    pending: list[tuple[Any, int, str]] = [(value, 1, "")]
    while pending:
        item, depth, where = pending.pop()
        if isinstance(item, dict | list):
            if depth > max_depth:
                return f"nested deeper than {max_depth} levels at {where or 'the top'}"
            pairs = item.items() if isinstance(item, dict) else enumerate(item)
            for name, member in pairs:
                if isinstance(name, str) and NUL in name:
                    return f"a key at {where or 'the top'} contains NUL (U+0000)"
                pending.append((member, depth + 1, f"{where}[{name!r}]"))
        elif isinstance(item, str) and NUL in item:
            return f"text at {where or 'the top'} contains NUL (U+0000)"
        elif isinstance(item, float) and not math.isfinite(item):
            return f"the number at {where or 'the top'} is not finite"
    if max_bytes is None:
        return None
    size = len(json.dumps(value, ensure_ascii=True, separators=(",", ":")))
    if size > max_bytes:
        return f"{size} bytes as JSON; at most {max_bytes}"
    return None


def _storable(value: Any) -> Any:
    reason = json_refusal(value)
    if reason is not None:
        raise ValueError(reason)
    return value


def _no_nul(text: str) -> str:
    if NUL in text:
        raise ValueError("must not contain NUL (U+0000)")
    return text


# Annotations for request models: a free-form member, and text without NUL.
FreeForm = AfterValidator(_storable)
NulFree = AfterValidator(_no_nul)
# Names and references are trimmed before they are stored: a padded copy ("\tREF-7") would
# otherwise be a different value from the one the packet scrubber searches for.
Text200 = Annotated[str, StringConstraints(max_length=200, strip_whitespace=True), NulFree]


def _text_depth(body: str) -> int:
    """Return how deep the containers of a JSON text nest, from its brackets alone."""
    depth = deepest = 0
    for bracket in _BRACKETS.findall(_JSON_STRING.sub("", body)):
        depth += 1 if bracket in "[{" else -1
        deepest = max(deepest, depth)
    return deepest


def servable_record(body: str) -> dict[str, Any] | None:
    """Return a stored record with each member that breaks the bounds made null and named in
    `degradedFields`; None when it keeps them all (serve it as stored)."""
    if _STORED_NUL not in body and _text_depth(body) <= MAX_FREE_FORM_DEPTH + 1:
        return None
    record = json.loads(body)
    # Size is not served's concern: only what cannot be parsed or stored back is degraded.
    degraded = [n for n, v in record.items() if json_refusal(v, max_bytes=None) is not None]
    if not degraded:
        return None
    for name in degraded:
        record[name] = None
    record[DEGRADED_FIELDS] = degraded
    return record


def servable_body(body: str) -> str:
    """Return the stored JSON of a record as served: as stored, or its degraded form."""
    record = servable_record(body)
    if record is None:
        return body
    return json.dumps(record, ensure_ascii=True, separators=(",", ":"), allow_nan=False)
