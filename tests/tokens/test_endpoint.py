"""The decision endpoint asked about a provisioning request (docs/network.md#wallet-tokens):
`token_provisioning` with the card, the wallet, the device and the risk score; its answer may only
be stricter."""

from __future__ import annotations

import asyncio
from typing import Any

import httpx
from fastapi import FastAPI
from starlette.responses import JSONResponse, Response

from tests.decisions.conftest import Receiver, use_receiver
from tests.network.conftest import Network, issue_card
from tests.tokens.conftest import decide, first_payment, new_wallet


def answering(decision: str) -> Any:
    async def handler(_event: dict[str, Any]) -> Response:
        return JSONResponse({"decision": decision})

    return handler


async def _decided_by(app: FastAPI) -> list[tuple[str, str]]:
    rows = await app.state.db.reader.rows(
        "SELECT decision, decided_by FROM token_provisionings ORDER BY created_at"
    )
    return [(decision, by) for decision, by in rows]


async def test_the_endpoint_is_asked_and_may_step_up_or_decline(
    app: FastAPI, client: httpx.AsyncClient, network: Network, receiver: Receiver
) -> None:
    user, card = await issue_card(app, client)
    await first_payment(network, card)
    receiver.handler = answering("step_up")
    await use_receiver(client, user, receiver)
    assert (
        await decide(network, card, new_wallet(), wallet="SP", device_name="Galaxy", risk=2) == "85"
    )
    [event] = receiver.events
    assert event["type"] == "token_provisioning"
    assert event["card"]["uuid"] == card.uuid and event["card"]["last4"] == card.pan[-4:]
    assert (event["wallet"], event["device_name"], event["risk_score"]) == (
        "samsung_pay",
        "Galaxy",
        2,
    )
    assert card.pan not in str(event)
    receiver.handler = answering("decline")
    assert await decide(network, card, new_wallet()) == "05"
    assert await _decided_by(app) == [("step_up", "endpoint"), ("decline", "endpoint")]


async def test_the_endpoint_cannot_loosen_the_rules(
    app: FastAPI, client: httpx.AsyncClient, network: Network, receiver: Receiver
) -> None:
    user, card = await issue_card(app, client)
    receiver.handler = answering("approve")
    await use_receiver(client, user, receiver)
    assert await decide(network, card, new_wallet()) == "85"  # never approved yet
    await client.patch(f"/card/{card.uuid}", headers=user.headers, json={"status": "frozen"})
    assert await decide(network, card, new_wallet()) == "62"  # the card's state
    assert len(receiver.events) == 1  # a decline by the rules asks nobody


async def test_a_slow_endpoint_takes_on_timeout_within_the_deadline(
    app: FastAPI, client: httpx.AsyncClient, network: Network, receiver: Receiver
) -> None:
    user, card = await issue_card(app, client)
    await first_payment(network, card)

    async def slow(_event: dict[str, Any]) -> Response:
        await asyncio.sleep(5)
        return JSONResponse({"decision": "approve"})

    receiver.handler = slow
    await use_receiver(client, user, receiver, timeout_ms=3000, on_timeout="decline")
    started = asyncio.get_running_loop().time()
    assert await decide(network, card, new_wallet()) == "05"
    assert asyncio.get_running_loop().time() - started < 3
    assert await _decided_by(app) == [("decline", "timeout")]
