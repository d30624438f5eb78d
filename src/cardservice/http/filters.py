"""List filters (docs/api.md#filters): `filters[key]=value` in deepObject form.

A filter is defined once, as a `Filter` — how its value is parsed and how the OpenAPI
document shows it — and both the parser (`read_filters`) and the document
(`filters_parameter`) come from that one definition.
"""

from __future__ import annotations

import re
import uuid
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import date
from typing import Any

from fastapi import Request

from cardservice.errors import ValidationFailed
from cardservice.http.router import refuse_nul

FILTER_KEY = re.compile(r"^filters\[([a-z_]{1,32})\]$")
DATE_TEXT = re.compile(r"\d{4}-\d{2}-\d{2}")


@dataclass(frozen=True, slots=True)
class Filter:
    """One filter: `parse` turns the query text into the value (ValueError → 422)."""

    parse: Callable[[str], Any]
    schema: dict[str, Any]

    def describe(self, text: str) -> Filter:
        """The same filter, documented with `text` (what it matches) in the OpenAPI document."""
        return Filter(self.parse, {**self.schema, "description": text})


Filters = Mapping[str, Filter]


def one_of(*allowed: str) -> Filter:
    def parse(value: str) -> str:
        if value not in allowed:
            raise ValueError(f"must be one of {', '.join(allowed)}")
        return value

    return Filter(parse, {"type": "string", "enum": list(allowed)})


def text(max_length: int) -> Filter:
    def parse(value: str) -> str:
        if not 1 <= len(value) <= max_length:
            raise ValueError(f"must be 1..{max_length} characters")
        if "\x00" in value:  # PostgreSQL text cannot hold it: unchecked, a 500
            raise ValueError("must not contain a NUL character")
        return value

    return Filter(parse, {"type": "string", "minLength": 1, "maxLength": max_length})


def matching(pattern: str, message: str) -> Filter:
    compiled = re.compile(pattern)

    def parse(value: str) -> str:
        if not compiled.fullmatch(value):
            raise ValueError(message)
        return value

    return Filter(parse, {"type": "string", "pattern": f"^{pattern}$"})


def _uuid(value: str) -> uuid.UUID:
    try:
        return uuid.UUID(value)
    except ValueError:
        raise ValueError("must be a UUID") from None


def _boolean(value: str) -> bool:
    if value not in ("true", "false", "1", "0"):
        raise ValueError("must be true or false")
    return value in ("true", "1")


def _date(value: str) -> date:
    try:
        if not DATE_TEXT.fullmatch(value):
            raise ValueError
        return date.fromisoformat(value)
    except ValueError:
        raise ValueError("must be a date YYYY-MM-DD") from None


UUID = Filter(_uuid, {"type": "string", "format": "uuid"})
BOOLEAN = Filter(_boolean, {"type": "boolean"})
DATE = Filter(_date, {"type": "string", "format": "date"})


def read_filters(request: Request, spec: Filters, *, skip_empty: bool = False) -> dict[str, Any]:
    """`filters[key]=value` → `{key: parsed}`; unknown keys or bad values → 422. A browser's
    form sends a field left at "any" as an empty value: `skip_empty` reads it as not given."""
    filters: dict[str, Any] = {}
    errors: dict[str, list[str]] = {}
    for key, value in request.query_params.multi_items():
        if not key.startswith("filters"):
            continue
        match = FILTER_KEY.match(key)
        if match is None or match.group(1) not in spec:
            errors.setdefault(key, []).append(f"unknown filter; allowed: {', '.join(sorted(spec))}")
            continue
        name = match.group(1)
        if skip_empty and value == "":
            continue
        try:
            filters[name] = spec[name].parse(refuse_nul(value))
        except ValueError as exc:
            errors.setdefault(f"filters[{name}]", []).append(str(exc))
    if errors:
        raise ValidationFailed(errors=errors)
    return filters


def filters_parameter(spec: Filters) -> dict[str, Any]:
    """`openapi_extra` documenting the deepObject `filters` query parameter of `spec`."""
    return {
        "parameters": [
            {
                "name": "filters",
                "in": "query",
                "description": (
                    "Narrow the list: `filters[<key>]=<value>` (deepObject; with curl, `-g` "
                    f"keeps the brackets), keys {', '.join(f'`{name}`' for name in spec)}; "
                    "several filters all apply. An unknown key or a bad value → 422."
                ),
                "style": "deepObject",
                "explode": True,
                "required": False,
                "schema": {
                    "type": "object",
                    "additionalProperties": False,
                    "properties": {name: spec[name].schema for name in spec},
                },
            }
        ]
    }
