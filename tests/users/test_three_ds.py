"""GET /user/3ds-unassigned: bearer only, newest first, without used or expired codes."""

from __future__ import annotations

import uuid
from datetime import timedelta

import httpx
from fastapi import FastAPI

from cardservice.models.base import utcnow
from tests.factories import Caller, authorize, make_card, make_mfa_code, make_user


async def _issue(
    client: httpx.AsyncClient, user: Caller, card: str, merchant: str
) -> dict[str, object]:
    response = await client.post(
        "/sandbox/3ds",
        headers=user.headers,
        json={"card_uuid": card, "merchant_name": merchant, "amount": 9.99, "currency": "USD"},
    )
    assert response.status_code == 201, response.text
    data: dict[str, object] = response.json()["data"]
    return data


async def test_lists_unassigned_codes_newest_first(app: FastAPI, client: httpx.AsyncClient) -> None:
    user = await make_user(app)
    _account, card = await make_card(app, client, user)
    first = await _issue(client, user, card, "Amazon")
    second = await _issue(client, user, card, "Apple")
    expired = await _issue(client, user, card, "Steam")
    used = await _issue(client, user, card, "Uber")
    # an expired code: no service issues a code whose time is already over
    await app.state.db.transact(
        lambda tx: tx.execute(
            "UPDATE three_ds_codes SET expires_at = $1 WHERE uuid = $2",
            utcnow() - timedelta(seconds=1),
            uuid.UUID(str(expired["uuid"])),
        )
    )
    await authorize(client, user, card, "9.99", three_ds_code=used["code"])
    listed = (await client.get("/user/3ds-unassigned", headers=user.headers)).json()["data"]
    assert [c["uuid"] for c in listed] == [second["uuid"], first["uuid"]]
    record = listed[0]
    assert set(record) == {
        "uuid",
        "code",
        "card_uuid",
        "card_mask",
        "merchant_name",
        "amount",
        "currency",
        "created_at",
        "expires_at",
    }
    assert record["card_uuid"] == card and record["amount"] == 9.99 and "*" in record["card_mask"]


async def test_bearer_only_and_private(app: FastAPI, client: httpx.AsyncClient) -> None:
    owner, stranger = await make_user(app), await make_user(app)
    _account, card = await make_card(app, client, owner)
    await _issue(client, owner, card, "Amazon")
    code = await make_mfa_code(app, owner)
    refused = await client.get("/user/3ds-unassigned", params={"_code": code})
    assert refused.status_code == 403 and refused.json()["code"] == "forbidden"
    assert (await client.get("/user/3ds-unassigned", headers=stranger.headers)).json()["data"] == []
    foreign = await client.post(
        "/sandbox/3ds",
        headers=stranger.headers,
        json={"card_uuid": card, "merchant_name": "X", "amount": 1, "currency": "USD"},
    )
    assert foreign.status_code == 404
