"""`bench.dataset`'s bulk history is written as the ledger's rules require on each database
(docs/ledger.md: on PostgreSQL a posting's entry is checked at the end of the posting's
statement, and an entry's postings at the end of the entry's): a history larger than one
statement's chunk of entries loads, and the books it leaves balance."""

from __future__ import annotations

import uuid

import pytest
from fastapi import FastAPI

from bench import dataset
from cardservice.config import Settings
from cardservice.security import CardCipher
from tests.factories import assert_ledger_consistent


async def test_a_history_of_several_chunks_loads_and_balances(
    app: FastAPI, settings: Settings, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(dataset, "ROWS_PER_INSERT", 40)  # 130 entries: four statements
    data = await dataset.build(
        app.state.db, CardCipher.from_settings(settings), cards=3, transactions=130, users=1
    )
    purchases = await app.state.db.reader.value(
        "SELECT count(*) FROM transactions t JOIN journal_entries e ON e.reference = t.uuid"
        " WHERE t.type = 'card_purchase' AND t.user_uuid ="
        " (SELECT user_uuid FROM cards WHERE uuid = $1)",
        uuid.UUID(data.cards[0]),
    )
    assert purchases == 130  # each with its entry
    await assert_ledger_consistent(app)
