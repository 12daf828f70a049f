"""Whole records for the stores tests write: every field of the interface's record, in the
order of the typed client's model, `None` unless the test gives a value, not preliminary
and with no quality flags. One shape for every suite (`tests/app/ops_store.py`,
`tests/service/service_records.py`): a field added to the interface reaches every test
store at once, and a field a test names that the record does not have is an error."""

from __future__ import annotations

from typing import Any

from gridclient._base import GridModel

# what a record is unless a test says otherwise, for the records that carry these fields
DEFAULTS: dict[str, Any] = {"preliminary": False, "qualityFlags": []}


def whole(model: type[GridModel], **fields: Any) -> dict[str, Any]:
    """Return the record of `model` (wire names) with `fields` set and the rest at their
    defaults (`DEFAULTS`, else None)."""
    names = [field.alias or name for name, field in model.model_fields.items()]
    unknown = sorted(set(fields) - set(names))
    if unknown:
        raise TypeError(f"{model.__name__} has no field {', '.join(unknown)}")
    record: dict[str, Any] = dict.fromkeys(names)
    for name, value in DEFAULTS.items():
        if name in record:
            record[name] = list(value) if isinstance(value, list) else value
    record.update(fields)
    return record
