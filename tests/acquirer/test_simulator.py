"""The simulator's seeded run with every fault against a real listener finds its own
bookkeeping intact: 0 cents lost, 0 applied twice
(docs/network.md#the-network-interface-iso-8583)."""

from __future__ import annotations

from fastapi import FastAPI

from cardservice.acquirer import simulator
from tests.factories import assert_ledger_consistent
from tests.network.conftest import Network


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
