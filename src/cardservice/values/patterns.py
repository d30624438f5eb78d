"""The patterns of path and body values, shared by the routes, the OpenAPI document and its
SDK touches (`openapi.py`, `openapi_sdk.py`): one definition each."""

from __future__ import annotations

UUID_PATTERN = r"^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$"
SLUG_PATTERN = r"^[a-z0-9]+(?:[-_][a-z0-9]+)*$"
SLUG_MAX_LENGTH = 64
