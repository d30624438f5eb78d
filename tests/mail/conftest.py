"""Fixtures of the mail tests: a real SMTP server on 127.0.0.1, the service configured to
mail through it, and its background loop running."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator

import pytest
from fastapi import FastAPI

from cardservice.config import Settings
from cardservice.webhooks.worker import DeliveryWorker, running_worker
from tests.mail.inbox import Inbox

MAIL_FROM = "cards@cards.example.com"
PUBLIC_URL = "http://127.0.0.1:8000"


@pytest.fixture
def inbox() -> Iterator[Inbox]:
    found = Inbox()
    found.start()
    yield found
    found.stop()


@pytest.fixture
def settings(settings: Settings, inbox: Inbox) -> Settings:
    """The suite's settings, mailing through the test's SMTP server."""
    return settings.model_copy(
        update={"smtp_url": inbox.url, "mail_from": MAIL_FROM, "public_url": PUBLIC_URL}
    )


@pytest.fixture
async def worker(app: FastAPI) -> AsyncIterator[DeliveryWorker]:
    state = app.state
    async with running_worker(
        state.db, state.settings, state.cipher, state.outbound, state.runtime.jobs
    ) as running:
        yield running
