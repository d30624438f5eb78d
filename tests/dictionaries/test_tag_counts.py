"""A tag's count kept after commit (docs/ledger.md#counters-kept-after-commit): a tagged
transaction's unit writes a waiting row and never the tag's row, the read adds what waits,
and the tag counter adds each waiting row to its tag once."""

from __future__ import annotations

import asyncio

import asyncpg
import httpx
from fastapi import FastAPI

from cardservice.dictionaries.tag_counts import fold_waiting
from tests.factories import authorize, make_card, make_user

COUNT = "SELECT transactions_count FROM transaction_tags WHERE slug = 'netflix'"
WAITING = "SELECT count(*) FROM tag_counts_waiting WHERE tag_slug = 'netflix'"


async def _shown(client: httpx.AsyncClient) -> int:
    tags = (await client.get("/dictionary/transaction-tags")).json()["data"]
    return int({tag["slug"]: tag["transactions_count"] for tag in tags}["netflix"])


async def test_a_tagged_unit_leaves_the_tag_row_alone_and_the_counter_adds_it_once(
    app: FastAPI, client: httpx.AsyncClient
) -> None:
    user = await make_user(app)
    _account, card = await make_card(app, client, user)
    reader = app.state.db.reader
    if app.state.db.is_sqlite:
        assert (await authorize(client, user, card, "1", tag="netflix")).status_code == 201
    else:
        # another session holds the tag's row as an UPDATE of its count would: a unit that
        # wrote the count (at its COMMIT, as before) would wait for it until it let go
        holder = await asyncpg.connect(app.state.settings.database_url)
        try:
            async with holder.transaction():
                await holder.execute(
                    "SELECT 1 FROM transaction_tags WHERE slug = 'netflix' FOR NO KEY UPDATE"
                )
                done = await asyncio.wait_for(  # a safety net, not a measurement
                    authorize(client, user, card, "1", tag="netflix"), timeout=120
                )
                assert done.status_code == 201
        finally:
            await holder.close()
    assert await _shown(client) == 1  # exact: the folded count and what waits
    await fold_waiting(app.state.db)
    assert (await reader.value(COUNT), await reader.value(WAITING)) == (1, 0)
    await fold_waiting(app.state.db)  # nothing waits: nothing added again
    assert (await reader.value(COUNT), await _shown(client)) == (1, 1)
