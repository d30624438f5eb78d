"""The database budget of an ISO 8583 message (`network/host.py` `DATABASE_BUDGET`): a
database that cannot answer is answered `91` within a second, and the acquirer's repeat
with the same key applies the authorization once (API.md §14, §21).

The card's row is locked by another session, as rows stay locked on a leader that cannot
commit (its synchronous standby gone). PostgreSQL only: on SQLite the lock would be the
whole database's, held by the test's own process."""

from __future__ import annotations

import time
import uuid

import asyncpg
import httpx
import pytest
from fastapi import FastAPI

from cardservice.network import messages
from tests.factories import assert_ledger_consistent, balances
from tests.network.conftest import Network, issue_card


async def test_a_locked_card_is_91_within_a_second_and_the_repeat_applies_once(
    app: FastAPI, client: httpx.AsyncClient, network: Network
) -> None:
    """The card's account is locked by another session (as a leader that cannot commit
    holds its rows): the 0100 is answered `91` within 1 s and nothing moves; once the lock
    goes, the acquirer's repeat (0101, same key) is approved, and a second repeat gets the
    same answer without a second purchase."""
    if app.state.db.is_sqlite:
        pytest.skip("an SQLite lock is the whole database's")
    _user, card = await issue_card(app, client)
    before = await balances(app, card.account)
    fields = messages.authorization(card.pan, card.expiry, 1_000, *network.key())
    locker = await asyncpg.connect(app.state.settings.database_url)
    try:
        lock = locker.transaction()
        await lock.start()
        await locker.execute("SELECT 1 FROM cards WHERE uuid = $1 FOR UPDATE", uuid.UUID(card.uuid))
        await locker.execute("SELECT 1 FROM accounts WHERE uuid = $1 FOR UPDATE", card.account)
        started = time.monotonic()
        answer = await network.client.request("0100", fields)
        took = time.monotonic() - started
        await lock.rollback()
    finally:
        await locker.close()
    assert answer.fields[39] == "91" and took < 1.0, (answer.fields[39], took)
    assert await balances(app, card.account) == before  # nothing moved
    repeat = await network.client.request("0101", fields)
    assert repeat.fields[39] == "00"
    again = await network.client.request("0101", fields)
    assert again.fields[39] == "00" and again.fields.get(38) == repeat.fields.get(38)
    purchases = await app.state.db.reader.rows(
        "SELECT amount, fee FROM transactions WHERE card_uuid = $1 AND type = 'card_purchase'",
        uuid.UUID(card.uuid),
    )
    assert [(p["amount"], p["fee"] > 0) for p in purchases] == [(1_000, True)]  # once
    held = purchases[0]["amount"] + purchases[0]["fee"]
    assert await balances(app, card.account) == (before[0], [before[1][0] - held])
    await assert_ledger_consistent(app)
