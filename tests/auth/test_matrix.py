"""The auth matrix of every operation in the served OpenAPI document: none, bad, expired,
revoked, MFA code and bearer token, each answered as the seed's authorization code says."""

from __future__ import annotations

import uuid
from datetime import timedelta

import httpx
from fastapi import FastAPI

from cardservice.auth.credentials import revoke_token
from tests.factories import Caller, make_mfa_code, make_user
from tests.operator.helpers import operator_key

SAMPLE = {"slug": "crypto"}


def _path(template: str) -> str:
    for name in (
        "cardUuid",
        "userAccountUuid",
        "transactionUuid",
        "attachmentUuid",
        "eventUuid",
        "endpointUuid",
        "disputeUuid",
        "userUuid",
        "accountUuid",
        "topupUuid",
        "programUuid",
        "requestUuid",
        "tokenUuid",
        "clearingFileUuid",
        "binUuid",
    ):
        template = template.replace("{" + name + "}", str(uuid.uuid4()))
    return template.replace("{slug}", SAMPLE["slug"])


async def _operations(
    client: httpx.AsyncClient,
) -> list[tuple[str, str, list[dict[str, list[str]]]]]:
    schema = (await client.get("/openapi.json")).json()
    return [
        (method.upper(), _path(path), op["security"])
        for path, item in schema["paths"].items()
        for method, op in item.items()
    ]


async def _call(client: httpx.AsyncClient, method: str, path: str, **kwargs: object) -> int:
    response = await client.request(method, path, json={} if method == "POST" else None, **kwargs)  # type: ignore[arg-type]
    return response.status_code


async def test_every_operation_answers_each_credential(
    app: FastAPI, client: httpx.AsyncClient
) -> None:
    user = await make_user(app)
    code = await make_mfa_code(app, user)
    expired = await make_user(app, expires_in=timedelta(seconds=-1))
    revoked: Caller = await make_user(app)
    await app.state.db.transact(lambda tx: revoke_token(tx, revoked.token[:11]))
    key = await operator_key(app)
    operations = await _operations(client)
    assert len(operations) >= 30
    for method, path, security in operations:
        schemes = {name for requirement in security for name in requirement}
        if not schemes:  # public: credentials are ignored
            assert await _call(client, method, path) not in (401, 403), path
            continue
        # docs/operations.md#running-a-program: a cardholder's credentials are refused
        if schemes == {"operatorKey"}:
            await _operator_route(client, method, path, user, code, key)
            continue
        for headers in ({}, {"Authorization": "Bearer cs_wrong"}, expired.headers, revoked.headers):
            assert await _call(client, method, path, headers=headers) == 401, (
                method,
                path,
                headers,
            )
        with_bearer = await _call(client, method, path, headers=user.headers)
        assert with_bearer not in (401, 403), (method, path)
        with_code = await _call(client, method, path, params={"_code": code})
        assert with_code == (403 if schemes == {"bearerAuth"} else with_bearer), (method, path)


async def _operator_route(
    client: httpx.AsyncClient, method: str, path: str, user: Caller, code: str, key: str
) -> None:
    """An operator route: 401 without valid credentials, 403 with a cardholder's token or
    code, neither with an operator key."""
    for headers in ({}, {"Authorization": "Bearer csk_wrong"}, {"Authorization": "Bearer cs_x"}):
        assert await _call(client, method, path, headers=headers) == 401, (method, path, headers)
    assert await _call(client, method, path, headers=user.headers) == 403, (method, path)
    assert await _call(client, method, path, params={"_code": code}) == 403, (method, path)
    with_key = await _call(client, method, path, headers={"Authorization": f"Bearer {key}"})
    assert with_key not in (401, 403), (method, path)
