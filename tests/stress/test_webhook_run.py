"""The short webhook crash run of `make test` (PostgreSQL only: it needs a shared server)."""

from __future__ import annotations

import os

import pytest

from tests.stress.webhook_run import webhook_run

pytestmark = pytest.mark.skipif(
    "postgresql" not in os.environ.get("CARDSERVICE_TEST_DATABASES", "sqlite,postgresql"),
    reason="the crash run drives PostgreSQL with two server processes",
)


async def test_killed_workers_lose_no_event_and_deliver_none_for_a_rollback() -> None:
    figures = await webhook_run(seconds=10)
    print(figures.line())
    assert figures.kills >= 3 and figures.events > 30
    assert figures.problems == []
