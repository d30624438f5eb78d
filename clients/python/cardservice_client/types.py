"""Contains some shared types for properties"""

import json
from collections.abc import Mapping, MutableMapping
from decimal import Decimal
from http import HTTPStatus
from typing import IO, Any, BinaryIO, Generic, Literal, TypeVar

from attrs import define


class Unset:
    def __bool__(self) -> Literal[False]:
        return False


UNSET: Unset = Unset()

# The types that `httpx.Client(files=)` can accept, copied from that library.
FileContent = IO[bytes] | bytes | str
FileTypes = (
    # (filename, file (or bytes), content_type)
    tuple[str | None, FileContent, str | None]
    # (filename, file (or bytes), content_type, headers)
    | tuple[str | None, FileContent, str | None, Mapping[str, str]]
)
RequestFiles = list[tuple[str, FileTypes]]


@define
class File:
    """Contains information for file uploads"""

    payload: BinaryIO
    file_name: str | None = None
    mime_type: str | None = None

    def to_tuple(self) -> FileTypes:
        """Return a tuple representation that httpx will accept for multipart/form-data"""
        return self.file_name, self.payload, self.mime_type


T = TypeVar("T")


@define
class Response(Generic[T]):
    """A response from an endpoint"""

    status_code: HTTPStatus
    content: bytes
    headers: MutableMapping[str, str]
    parsed: T | None


__all__ = ["UNSET", "File", "FileTypes", "RequestFiles", "Response", "Unset"]


def loads_exact(content: bytes) -> Any:
    """Parse JSON with every fractional number as a `Decimal`: money is never a float."""
    return json.loads(content, parse_float=Decimal) if content else None


def _number(value: object) -> float:
    if not isinstance(value, Decimal):
        raise TypeError(f"not JSON serialisable: {type(value).__name__}")
    if len(value.as_tuple().digits) > 15:  # a float's shortest text keeps 15 digits exactly
        raise ValueError(f"{value} has more digits than JSON can carry exactly here")
    return float(value)


def dumps_exact(value: object) -> bytes:
    """JSON with `Decimal`s written as numbers, digit for digit (amounts have ≤ 15 digits)."""
    return json.dumps(value, default=_number, separators=(",", ":")).encode()
