"""Migration 20261124_28 chains the history that was there before it, on both databases, and
the later ones (20261127_40: sealing after commit) keep it chained."""

from __future__ import annotations

from pathlib import Path

import pytest
from sqlalchemy import text
from sqlalchemy.ext.asyncio import create_async_engine
from sqlalchemy.pool import NullPool

from cardservice import runtime
from cardservice.config import Settings
from cardservice.ledger.verify import verify
from cardservice.migrations import upgrade_database
from tests.conftest import DATABASES, PG_ADMIN_DSN
from tests.fresh_database import create_database, drop_database

_POSTING = (
    "INSERT INTO postings (entry_id, system_book, currency, amount) VALUES (:e, :book, :c, :a)"
)
_ENTRY = (
    "INSERT INTO journal_entries (id, kind, created_at)"
    " VALUES (:e, 'old', '2026-10-0{day} 12:00:00')"
)


@pytest.mark.parametrize("kind", DATABASES)
async def test_the_history_before_the_chain_is_chained(kind: str, tmp_path: Path) -> None:
    if kind == "sqlite":
        url = f"sqlite:///{tmp_path / 'old.db'}"
    else:
        url = await create_database(PG_ADMIN_DSN, "cs_test")
    settings = Settings(database_url=url, var_dir=tmp_path / "var")
    try:
        await upgrade_database(settings.resolved_database_url, "20261124_25")
        # the history at revision 25, on a bare connection: the service's unit of work runs
        # today's commit hooks, whose statements need the columns of the latest revision
        engine = create_async_engine(settings.resolved_database_url, poolclass=NullPool)
        async with engine.begin() as connection:
            if kind == "sqlite":
                await connection.execute(text("PRAGMA defer_foreign_keys = ON"))
            for entry in range(1, 8):
                amount = 100 * entry
                await connection.execute(
                    text(_POSTING), {"e": entry, "book": "funding", "c": "USD", "a": -amount}
                )
                await connection.execute(
                    text(_POSTING), {"e": entry, "book": "fees", "c": "USD", "a": amount}
                )
                await connection.execute(text(_ENTRY.format(day=entry)), {"e": entry})
        await engine.dispose()
        await upgrade_database(settings.resolved_database_url)
        db = runtime.database(settings)
        try:
            verdict = await verify(db)
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
            await drop_database(PG_ADMIN_DSN, url)
