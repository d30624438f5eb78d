"""The dashboard's only door to data: the service's own JSON API, called in process with the
signed-in user's session token, so a page can never show what the API would not give them."""

from __future__ import annotations

import json
from collections.abc import Mapping
from decimal import Decimal
from typing import Any

import httpx
import orjson
from starlette.types import ASGIApp

from cardservice.encoding import dumps

INTERNAL_BASE = "http://cardservice.internal"
PAGE_SIZE = 100


class SignedOut(Exception):
    """The session token is no longer accepted (expired or revoked): sign in again."""


class ApiError(Exception):
    """The API refused a request the dashboard made; its message (and, for a validation
    failure, its messages per field) is shown to the person."""

    def __init__(
        self,
        status_code: int,
        message: str,
        code: str = "",
        errors: dict[str, list[str]] | None = None,
    ) -> None:
        super().__init__(message)
        self.status_code = status_code
        self.code = code
        self.errors = errors or {}


def _decode(raw: bytes) -> Any:
    """JSON with exact decimals (money stays Decimal, never float)."""
    return json.loads(raw, parse_float=Decimal) if raw else None


def _checked(response: httpx.Response) -> httpx.Response:
    """The response when it succeeded; 401 → `SignedOut`, other errors → `ApiError`."""
    if response.status_code == 401:
        raise SignedOut()
    if response.status_code >= 400:
        body = orjson.loads(response.content)
        raise ApiError(
            response.status_code,
            body.get("message", "The request failed."),
            body.get("code", ""),
            body.get("errors"),
        )
    return response


class Api:
    """Calls into the app as the user, from the browser's own client address (so a bad
    session cookie is counted against that browser, docs/api.md#hardening, not against 127.0.0.1);
    bodies are decoded with exact decimals."""

    def __init__(self, app: ASGIApp, token: str | None, client_address: str) -> None:
        """`token` None: a caller without credentials (the public endpoints only)."""
        self._client = httpx.AsyncClient(
            transport=httpx.ASGITransport(app=app, client=(client_address, 0)),
            base_url=INTERNAL_BASE,
            headers={} if token is None else {"Authorization": f"Bearer {token}"},
        )

    async def __aenter__(self) -> Api:
        return self

    async def __aexit__(self, *_exc: object) -> None:
        await self._client.aclose()

    async def response(
        self, path: str, params: Mapping[str, str | int] | None = None
    ) -> httpx.Response:
        """The raw response of a `GET` (receipts); 401 → `SignedOut`, errors → `ApiError`."""
        return _checked(await self._client.get(path, params=params))

    async def body(self, path: str, params: Mapping[str, str | int] | None = None) -> Any:
        """The decoded JSON envelope of a successful `GET`."""
        return _decode((await self.response(path, params)).content)

    async def send(self, method: str, path: str, body: Mapping[str, Any] | None = None) -> Any:
        """A write (`POST`, `PATCH`, `DELETE`) with a JSON body; the decoded envelope."""
        content = None if body is None else dumps(body)
        headers = {} if body is None else {"Content-Type": "application/json"}
        response = await self._client.request(method, path, content=content, headers=headers)
        return _decode(_checked(response).content)

    async def every_page(self, path: str, params: Mapping[str, str | int], limit: int) -> list[Any]:
        """The `data` of every page of a list endpoint, at most `limit` pages."""
        rows: list[Any] = []
        page, last = 1, 1
        while page <= min(last, limit):
            body = await self.body(path, {**params, "page": page, "per_page": PAGE_SIZE})
            rows.extend(body["data"])
            last = body["meta"]["last_page"]
            page += 1
        return rows
