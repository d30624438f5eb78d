"""Ledger activity for the chain, books and statement tests: purchases captured, refunded,
reversed, in a foreign currency, and a dispute won, all through the API."""

from __future__ import annotations

import uuid

import httpx
from fastapi import FastAPI

from tests.factories import Caller, authorize, make_card, make_user


async def purchase(
    client: httpx.AsyncClient, user: Caller, card: str, amount: str, **extra: object
) -> str:
    response = await authorize(client, user, card, amount, **extra)
    assert response.status_code == 201, response.text
    assert response.json()["data"]["status"] == "pending", response.text
    return str(response.json()["data"]["uuid"])


async def step(
    client: httpx.AsyncClient, user: Caller, purchase: str, action: str, **body: object
) -> None:
    response = await client.post(
        f"/sandbox/transactions/{purchase}/{action}", headers=user.headers, json=body or None
    )
    assert response.status_code in (200, 201), response.text


async def win_dispute(client: httpx.AsyncClient, user: Caller, purchase: str, amount: str) -> None:
    opened = await client.post(
        "/disputes",
        headers=user.headers,
        json={"transaction_uuid": purchase, "reason": "not_received", "amount": float(amount)},
    )
    assert opened.status_code == 201, opened.text
    resolved = await client.post(
        f"/sandbox/disputes/{opened.json()['data']['uuid']}/resolve",
        headers=user.headers,
        json={"outcome": "won"},
    )
    assert resolved.status_code in (200, 201), resolved.text


async def activity(
    app: FastAPI, client: httpx.AsyncClient, user: Caller | None = None
) -> tuple[Caller, uuid.UUID, str]:
    """A user with an account and a card: captures, a partial refund, a reversal, a foreign
    purchase captured, and a dispute won. Returns (user, account, card)."""
    user = user or await make_user(app)
    account, card = await make_card(app, client, user, funds="1000", start_balance="300")
    first = await purchase(client, user, card, "40.25")
    await step(client, user, first, "settle")
    await step(client, user, first, "refund", amount=10.05)
    second = await purchase(client, user, card, "12.00")
    await step(client, user, second, "reverse")
    foreign = await purchase(client, user, card, "20.00", currency="EUR")
    await step(client, user, foreign, "settle")
    third = await purchase(client, user, card, "15.50")
    await step(client, user, third, "settle")
    await win_dispute(client, user, third, "15.50")
    return user, account, card
