"""`bench.iso`'s bare peer sends the service's own statement texts (its write, prepared, and
its key's row, prepared too, by `EXECUTE` with the COMMIT): when a text of the service changes
shape (parameters instead of literals), the peer must follow, or every request it gets goes
unanswered and the bench fails at its 30 s wait. On PostgreSQL (the peer is asyncpg's)."""

from __future__ import annotations

import asyncpg
import pytest
from fastapi import FastAPI

from bench import iso
from cardservice.acquirer import messages
from cardservice.acquirer.client import stans, transmitted_now
from cardservice.acquirer.simulator import make_cards
from cardservice.config import Settings
from cardservice.db.sql import _nothing_to_reset
from cardservice.network.codec import RESPONSES, decode, encode
from cardservice.security import CardCipher
from tests.factories import assert_ledger_consistent


async def test_the_bare_peer_approves_and_writes_the_key_with_the_commit(
    app: FastAPI, settings: Settings
) -> None:
    if settings.is_sqlite:
        pytest.skip("the bare peer is PostgreSQL's (asyncpg)")
    cipher = CardCipher.from_settings(settings)
    _account, (card,) = await make_cards(app.state.db, cipher, 1, 10_000)
    pool = await asyncpg.create_pool(
        settings.database_url, min_size=1, max_size=1,
        reset=_nothing_to_reset, init=iso._prepare,
    )  # fmt: skip
    try:
        fee = await pool.fetchval(iso.DEFAULT_FEE)  # as `run_peer` reads it
        peer = iso._Peer(pool, cipher, int(fee), {})
        numbers = stans(1)
        fields = messages.authorization(
            card.pan, card.expiry, 100, next(numbers), transmitted_now()
        )
        first = await peer.answer(encode("0100", fields))  # framed: a 2-byte length first
        again = await peer.answer(encode("0100", {**fields, 11: next(numbers)}))
    finally:
        await pool.close()
    assert decode(first[2:], RESPONSES).fields[39] == "00"
    assert decode(again[2:], RESPONSES).fields[39] == "00"
    keys = await app.state.db.reader.value(
        "SELECT count(*) FROM network_messages WHERE response_code = '00'"
    )
    assert keys == 2  # each request's key, written with its COMMIT
    await assert_ledger_consistent(app)
