"""The served OpenAPI document, adjusted for the generated Python client (`make client`).

An id the client sends (a path or query parameter, a body field) is typed `UUID | str`, so an
id read from a response (a `UUID`) chains into the next request as it is. The served document
is not changed: the server checks ids by pattern, and other generators read it as it is.

Usage: python clients/prepare.py < served.json > for-client.json
"""

from __future__ import annotations

import json
import sys
from typing import Any

UUID_PATTERN_START = "^[0-9a-fA-F]{8}-"


def _is_request_id(schema: dict[str, Any], in_parameter: bool) -> bool:
    if schema.get("type") != "string":
        return False
    if str(schema.get("pattern", "")).startswith(UUID_PATTERN_START):
        return True
    return in_parameter and schema.get("format") == "uuid"


def _either(schema: dict[str, Any]) -> dict[str, Any]:
    kept = {k: v for k, v in schema.items() if k not in {"type", "format", "pattern"}}
    return {**kept, "anyOf": [{"type": "string", "format": "uuid"}, {"type": "string"}]}


def adjust(node: Any, in_parameter: bool = False) -> Any:
    """`node` with every id a request carries written as `UUID` or `str`."""
    if isinstance(node, list):
        return [adjust(item, in_parameter) for item in node]
    if not isinstance(node, dict):
        return node
    if _is_request_id(node, in_parameter):
        return _either(node)
    return {key: adjust(value, in_parameter or key == "parameters") for key, value in node.items()}


def main() -> None:
    json.dump(adjust(json.load(sys.stdin)), sys.stdout, indent=1)


if __name__ == "__main__":
    main()
