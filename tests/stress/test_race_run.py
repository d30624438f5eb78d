"""The 20-second race run of `make test` (PostgreSQL only: row locks and two workers)."""

from __future__ import annotations

import os

import pytest

from tests.stress.bank_run import verify
from tests.stress.race_run import race_run

pytestmark = pytest.mark.skipif(
    "postgresql" not in os.environ.get("CARDSERVICE_TEST_DATABASES", "sqlite,postgresql"),
    reason="the race run drives PostgreSQL",
)


async def test_racing_money_operations_never_answer_5xx() -> None:
    race, books, wrong, chain = await race_run(seconds=20)
    assert race.statuses[201] > 200, race.statuses  # the race really ran
    assert race.figures.ok > 0 and race.figures.purchases
    assert not [status for status in race.statuses if status >= 500], race.statuses
    assert verify(race.figures, books) == 0
    assert wrong == []
    assert chain.ok and chain.entries > 200, chain  # one linear chain, balances match
