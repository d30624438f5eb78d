"""Fixtures of the event and webhook tests: the outbox tables emptied around each test
(the suite's `empty_tables` does not know them), a loopback receiver, a running worker."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest
from fastapi import FastAPI

from cardservice.webhooks.worker import DeliveryWorker, running_worker
from tests.webhooks.receiver import Receiver

OUTBOX_TABLES = ("webhook_attempts", "webhook_deliveries", "webhook_endpoints", "events")


async def empty_outbox(app: FastAPI) -> None:
    db = app.state.db
    if db.is_sqlite:
        for table in OUTBOX_TABLES:
            await db.transact(lambda tx, t=table: tx.execute(f"DELETE FROM {t}"))
    else:
        tables = ", ".join(OUTBOX_TABLES)
        await db.transact(lambda tx: tx.execute(f"TRUNCATE {tables} RESTART IDENTITY CASCADE"))


@pytest.fixture
async def app(app: FastAPI) -> AsyncIterator[FastAPI]:
    """The suite's app, its outbox tables emptied before and after the test."""
    await empty_outbox(app)
    yield app
    await empty_outbox(app)


@pytest.fixture
async def receiver() -> AsyncIterator[Receiver]:
    found = Receiver()
    await found.start()
    yield found
    await found.close()


@pytest.fixture
async def worker(app: FastAPI) -> AsyncIterator[DeliveryWorker]:
    state = app.state
    async with running_worker(state.db, state.settings, state.cipher) as running:
        yield running
