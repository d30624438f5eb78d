"""3DS codes from the ACS (docs/operations.md#running-a-program): by the card's number, the
sandbox's record, the number never echoed."""

from __future__ import annotations

import uuid

import httpx
from fastapi import FastAPI

from tests.factories import authorize, make_card, make_user
from tests.operator.helpers import operator_key, send


async def _number(app: FastAPI, card: str) -> str:
    ciphertext = await app.state.db.reader.value(
        "SELECT pan_ciphertext FROM cards WHERE uuid = $1", uuid.UUID(card)
    )
    number: str = app.state.cipher.decrypt(bytes(ciphertext))
    return number


async def test_the_acs_sends_a_code_for_a_card_by_its_number(
    app: FastAPI, client: httpx.AsyncClient
) -> None:
    key = await operator_key(app, "network")
    user = await make_user(app)
    _account, card = await make_card(app, client, user)
    pan = await _number(app, card)
    body = {
        "pan": pan,
        "code": "493817",
        "merchant_name": "Booking.com",
        "amount": 42.5,
        "currency": "USD",
    }
    created = await send(client, "POST", "/network/3ds-codes", key, body)
    assert created.status_code == 201, created.text
    record = created.json()["data"]
    assert record["card_uuid"] == card and record["code"] == "493817" and record["amount"] == 42.5
    assert pan not in created.text and record["card_mask"].endswith(pan[-4:])
    waiting = await client.get("/user/3ds-unassigned", headers=user.headers)
    assert [c["uuid"] for c in waiting.json()["data"]] == [record["uuid"]]
    used = await authorize(client, user, card, "10", three_ds_code="493817")
    assert used.json()["data"]["status"] == "pending"


async def test_an_unknown_number_is_404_and_bad_input_422(
    app: FastAPI, client: httpx.AsyncClient
) -> None:
    key = await operator_key(app, "network")
    body = {
        "pan": "4111111111111111",
        "code": "123456",
        "merchant_name": "M",
        "amount": 1,
        "currency": "USD",
    }
    unknown = await send(client, "POST", "/network/3ds-codes", key, body)
    assert unknown.status_code == 404 and "4111111111111111" not in unknown.text
    for bad in (
        {**body, "code": "12345"},
        {**body, "pan": "41111111111x1111"},
        {**body, "expires_in": 5},
    ):
        response = await send(client, "POST", "/network/3ds-codes", key, bad)
        assert response.status_code == 422 and "4111111111111111" not in response.text
    other_scope = await operator_key(app, "users", "funding", "cards", "reports")
    assert (await send(client, "POST", "/network/3ds-codes", other_scope, body)).status_code == 403
