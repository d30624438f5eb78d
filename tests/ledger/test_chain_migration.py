"""Migration 20261124_28 chains the history that was there before it, on both databases."""

from __future__ import annotations

import uuid
from datetime import UTC, datetime
from pathlib import Path

import pytest

from cardservice.config import Settings
from cardservice.db.database import Database
from cardservice.db.sql import Tx
from cardservice.ledger.verify import verify
from cardservice.migrations import upgrade_database
from tests.conftest import DATABASES, PG_ADMIN_DSN, _pg_admin, _pg_url

_POSTING = "INSERT INTO postings (entry_id, system_book, currency, amount) VALUES ($1, $2, $3, $4)"
_ENTRY = "INSERT INTO journal_entries (id, kind, created_at) VALUES ($1, 'old', $2)"


async def _history(tx: Tx, *, sqlite: bool) -> None:
    """Seven balanced entries as a database before the chain holds them: written in one unit
    of work, since no service writes an entry without chaining it."""
    if sqlite:
        await tx.execute("PRAGMA defer_foreign_keys = ON")
    for entry in range(1, 8):
        amount = 100 * entry
        await tx.execute(_POSTING, entry, "funding", "USD", -amount)
        await tx.execute(_POSTING, entry, "fees", "USD", amount)
        await tx.execute(_ENTRY, entry, datetime(2026, 10, entry, 12, tzinfo=UTC))


@pytest.mark.parametrize("kind", DATABASES)
async def test_the_history_before_the_chain_is_chained(kind: str, tmp_path: Path) -> None:
    name = f"cs_test_{uuid.uuid4().hex[:12]}"
    if kind == "sqlite":
        url = f"sqlite:///{tmp_path / 'old.db'}"
    else:
        await _pg_admin(f'CREATE DATABASE "{name}"')
        url = _pg_url(PG_ADMIN_DSN, name)
    settings = Settings(database_url=url, var_dir=tmp_path / "var")
    try:
        await upgrade_database(settings.resolved_database_url, "20261124_25")
        old = Database(settings)
        try:
            await old.transact(lambda tx: _history(tx, sqlite=old.is_sqlite))
        finally:
            await old.dispose()
        await upgrade_database(settings.resolved_database_url)
        db = Database(settings)
        try:
            verdict = await verify(db.reader)
            assert verdict.ok, verdict.problem
            assert verdict.entries == 7
            fees = await db.reader.value(
                "SELECT sum(amount) FROM ledger_day_totals WHERE holder_class = 'fees'"
            )
            assert int(fees) == 2800
        finally:
            await db.dispose()
    finally:
        if kind != "sqlite":
            await _pg_admin(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
