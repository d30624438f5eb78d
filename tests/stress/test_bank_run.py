"""The 20-second bank run of `make test` (PostgreSQL only: it needs a shared server)."""

from __future__ import annotations

import os

import pytest

from tests.stress.bank_run import bank_run, verify, verify_sealed

pytestmark = pytest.mark.skipif(
    "postgresql" not in os.environ.get("CARDSERVICE_TEST_DATABASES", "sqlite,postgresql"),
    reason="the bank run drives PostgreSQL",
)


async def test_bank_run_with_crashes_loses_no_cent() -> None:
    figures, books = await bank_run(seconds=20, min_kills=3)
    assert figures.kills >= 3 and figures.ok > 100
    assert verify(figures, books) == 0
    verify_sealed(books)  # every entry sealed once through the kills of the servers' sealers
    print(figures.line())
