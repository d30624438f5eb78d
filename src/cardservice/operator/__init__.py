"""The program operator's API (docs/operations.md#running-a-program): keys with scopes, users,
funding, top-ups, programs and the ACS's 3DS codes."""

from __future__ import annotations

from cardservice.operator.acting import CLI, Acting
from cardservice.operator.api_keys import Operator, create_key, list_keys, parse_scopes, revoke_key

__all__ = ["CLI", "Acting", "Operator", "create_key", "list_keys", "parse_scopes", "revoke_key"]
