"""Fixtures of the webhook tests: a loopback receiver, a running delivery loop."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest
from fastapi import FastAPI

from cardservice.webhooks.worker import DeliveryWorker, running_worker
from tests.webhooks.receiver import Receiver


@pytest.fixture
async def receiver() -> AsyncIterator[Receiver]:
    found = Receiver()
    await found.start()
    yield found
    await found.close()


@pytest.fixture
async def worker(app: FastAPI) -> AsyncIterator[DeliveryWorker]:
    state = app.state
    async with running_worker(
        state.db, state.settings, state.cipher, state.outbound, state.runtime.jobs
    ) as running:
        yield running
