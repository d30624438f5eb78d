"""Operator keys and calls for the tests: keys made through the service, as the CLI makes them."""

from __future__ import annotations

from typing import Any

import httpx
from fastapi import FastAPI

from cardservice.db.sql import Tx
from cardservice.encoding import dumps
from cardservice.operator.acting import CLI
from cardservice.operator.api_keys import SCOPES, create_key
from tests.factories import ISSUED_SECRETS


async def operator_key(app: FastAPI, *scopes: str, name: str = "test") -> str:
    """A live operator key with `scopes` (default: all of them)."""

    async def unit(tx: Tx) -> str:
        _uuid, plaintext = await create_key(tx, CLI, name, sorted(scopes or SCOPES))
        return plaintext

    key: str = await app.state.db.transact(unit)
    ISSUED_SECRETS.append(key)
    return key


def as_operator(key: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {key}", "Content-Type": "application/json"}


async def send(
    client: httpx.AsyncClient, method: str, path: str, key: str, body: Any = None
) -> httpx.Response:
    content = None if body is None else dumps(body)
    return await client.request(method, path, content=content, headers=as_operator(key))
