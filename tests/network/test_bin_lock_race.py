"""The BIN lock under concurrency (docs/network.md, "BIN lock"): a real `cardservice serve
--workers 2`, 42 unknown numbers of one BIN pipelined on 6 connections from 42 merchant ids
(the kernel spreads the connections over both workers) — exactly 21 are told `14`, the other
21 `N7`, and the BIN is locked once, having counted all 42, with one `card_testing.locked`
event (docs/events.md#the-operators-own-events)."""

from __future__ import annotations

import asyncio

import httpx
from fastapi import FastAPI

from cardservice.acquirer import messages
from cardservice.acquirer.client import NetworkClient, stans, transmitted_now
from tests.network.conftest import issue_card, unknown_numbers
from tests.network.test_card_testing_race import iso_port  # noqa: F401 - the served workers

CONNECTIONS = 6


async def test_pipelined_unknown_numbers_on_two_workers_lock_the_bin_once(
    app: FastAPI,
    client: httpx.AsyncClient,
    iso_port: int,  # noqa: F811
) -> None:
    _user, card = await issue_card(app, client)
    numbers = stans()
    connections = [await NetworkClient.connect("127.0.0.1", iso_port) for _ in range(CONNECTIONS)]
    burst = []
    for index, pan in enumerate(unknown_numbers(card, 42)):
        fields = messages.authorization(pan, "3012", 100, next(numbers), transmitted_now())
        fields[42] = f"ROTATE{index:09d}"
        burst.append((connections[index % CONNECTIONS], fields))
    answers = await asyncio.gather(
        *(network.request("0100", fields, wait=60) for network, fields in burst)
    )
    codes = sorted(answer.fields[39] for answer in answers)
    assert codes == ["14"] * 21 + ["N7"] * 21  # never a 22nd number told apart
    for network in connections:
        await network.close()
    rows = await app.state.db.reader.rows(
        "SELECT bin, unknown_numbers, locked_until FROM card_testing_bins"
    )
    assert [(row["bin"], row["unknown_numbers"]) for row in rows] == [(card.pan[:6], 42)]
    assert rows[0]["locked_until"] is not None
    told = await app.state.db.reader.rows(  # one lock, one event (whichever worker locked it)
        "SELECT user_uuid, data FROM events WHERE type = 'card_testing.locked'"
    )
    assert len(told) == 1 and told[0]["user_uuid"] is None and card.pan[:6] in told[0]["data"]
