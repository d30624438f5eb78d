"""The errors the API functions raise."""

from __future__ import annotations

from .models.error_body import ErrorBody
from .types import Unset


class UnexpectedStatus(Exception):
    """An answer with a status the OpenAPI document does not list (with `raise_on_error`, or
    `raise_on_unexpected_status`)."""

    def __init__(self, status_code: int, content: bytes):
        self.status_code = status_code
        self.content = content
        super().__init__(
            f"Unexpected status code: {status_code}\n\nResponse content:\n{content.decode(errors='ignore')}"
        )


class ApiError(Exception):
    """An error answer (docs/api.md#errors): `status_code`, and the body's `message`, `code` and
    `errors` (field → messages, on validation failures). Raised with `raise_on_error` (the default)."""

    def __init__(self, status_code: int, body: ErrorBody, request_id: str | None = None):
        self.status_code = status_code
        self.body = body
        self.request_id = request_id
        super().__init__(f"{status_code} {body.code}: {body.message}")

    @property
    def code(self) -> str:
        return self.body.code

    @property
    def message(self) -> str:
        return self.body.message

    @property
    def errors(self) -> dict[str, list[str]]:
        found = self.body.errors
        if found is None or isinstance(found, Unset):
            return {}
        return {field: list(messages) for field, messages in found.additional_properties.items()}


__all__ = ["ApiError", "UnexpectedStatus"]
