"""The simulator's seeded run with every fault against a real listener finds its own
bookkeeping intact: 0 cents lost, 0 applied twice (API.md §14); `network send` sends a
stand-in advice and its reversal."""

from __future__ import annotations

import argparse

import httpx
from fastapi import FastAPI
from sqlalchemy import select

from cardservice.models import Transaction
from cardservice.network import commands, simulator
from tests.factories import around, assert_ledger_consistent
from tests.network.conftest import Network, issue_card


async def test_a_short_run_with_every_fault_loses_nothing(app: FastAPI, network: Network) -> None:
    found = await simulator.run(
        app.state.db, app.state.cipher, "127.0.0.1", network.port,
        seed=1, seconds=3, faults=set(simulator.FAULTS), connections=3, cards=4,
    )  # fmt: skip
    assert found["ok"], found
    assert found["requests"] > 20 and found["answers"].get("00", 0) > 10
    assert found["dropped_connections"] >= 0 and found["cents_lost"] == 0
    assert found["stand_in_advices"] > 0 and found["owed_off_by"] == 0
    await assert_ledger_consistent(app)


def _send_args(port: int, **chosen: object) -> argparse.Namespace:
    """What `cardservice network send` hands its logic (the options' defaults, then ours)."""
    defaults: dict[str, object] = {
        "type": "authorization", "card_uuid": None, "pan": None, "expiry": None,
        "currency": "USD", "merchant": "Netflix", "cvv2": None, "original": None,
        "original_mti": "0100", "more": False, "stays": None, "host": "127.0.0.1", "port": port,
    }  # fmt: skip
    return argparse.Namespace(**(defaults | chosen))


async def test_send_a_stand_in_advice_then_its_reversal(
    app: FastAPI, client: httpx.AsyncClient, network: Network
) -> None:
    _user, card = await issue_card(app, client)
    settings = app.state.settings
    advice = _send_args(network.port, type="stand-in", pan=card.pan, expiry=card.expiry,
                        amount=15_000)  # fmt: skip
    line = await commands._send(advice, settings)
    assert line.startswith("0130 00 ") and "available 0.00 USD" in line
    stan, sent = line.rsplit("key ", 1)[1].split("/")
    reversal = _send_args(
        network.port, type="reversal", pan=card.pan, expiry=card.expiry, amount=15_000,
        original=(stan, sent), original_mti="0120",
    )  # fmt: skip
    assert (await commands._send(reversal, settings)).startswith("0430 00 ")
    async with around(app) as session:
        found = await session.scalars(
            select(Transaction).where(Transaction.type == "card_purchase")
        )
        purchase = found.one()
    assert purchase.stand_in and purchase.status == "reversed" and purchase.shortfall == 5_010
    await assert_ledger_consistent(app)
