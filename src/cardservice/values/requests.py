"""The base of every request body and the UUID-in-a-string type, shared by the domains'
schemas (`extra="forbid"`, strict: unknown fields and loose types are 422)."""

from __future__ import annotations

from typing import Annotated

from pydantic import BaseModel, ConfigDict, StringConstraints

UuidStr = Annotated[
    str,
    StringConstraints(
        pattern=r"^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$"
    ),
]


class StrictRequest(BaseModel):
    # a field's docstring (the string under it) is its description in the OpenAPI document
    model_config = ConfigDict(strict=True, extra="forbid", use_attribute_docstrings=True)
