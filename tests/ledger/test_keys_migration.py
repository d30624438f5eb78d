"""Migration 20261128_04 on PostgreSQL: up, the foreign keys of an approval's rows are
checked by the statement triggers; down, the keys are back and check the same rows; up
again. (SQLite keeps its keys: the migration does nothing there.)"""

from __future__ import annotations

import uuid
from pathlib import Path

import asyncpg
import pytest
from alembic import command
from sqlalchemy import Connection
from sqlalchemy.ext.asyncio import create_async_engine
from sqlalchemy.pool import NullPool

from cardservice.config import Settings
from cardservice.migrations import alembic_config, upgrade_database
from tests.conftest import DATABASES, PG_ADMIN_DSN
from tests.fresh_database import create_database, drop_database

_KEYS = {
    "fk_transactions_user_uuid_users", "fk_transactions_account_uuid_accounts",
    "fk_transactions_card_uuid_cards", "fk_postings_entry_id_journal_entries",
}  # fmt: skip
_KEYS_THERE = "SELECT conname FROM pg_constraint WHERE conname = ANY($1::text[])"
_NOBODYS = (
    "INSERT INTO transactions (uuid, user_uuid, account_uuid, card_uuid, type, status,"
    " direction, amount, currency, fee, refunded_amount, flagged, created_at, updated_at)"
    " VALUES ($1, $2, $3, $4, 'card_purchase', 'pending', 'debit', 100, 'USD', 0, 0, false,"
    " now(), now())"
)
_ORPHAN = (
    "INSERT INTO postings (entry_id, system_book, currency, amount)"
    " VALUES (nextval(pg_get_serial_sequence('journal_entries', 'id')), 'fees', 'USD', 1)"
)


async def _downgrade(url: str, revision: str) -> None:
    engine = create_async_engine(url, poolclass=NullPool)
    config = alembic_config(url)

    def run(connection: Connection) -> None:
        config.attributes["connection"] = connection
        command.downgrade(config, revision)

    try:
        async with engine.begin() as connection:
            await connection.run_sync(run)
    finally:
        await engine.dispose()


async def _refusals(dsn: str) -> tuple[set[str], list[str]]:
    """The keys there, and what refuses a transaction of nobody's and a posting of no entry
    (the constraint's name when a key does, else the message)."""
    connection = await asyncpg.connect(dsn)
    try:
        keys = {r["conname"] for r in await connection.fetch(_KEYS_THERE, list(_KEYS))}
        refused = []
        for statement, args in ((_NOBODYS, [uuid.uuid4() for _ in range(4)]), (_ORPHAN, [])):
            with pytest.raises(asyncpg.IntegrityConstraintViolationError) as caught:
                async with connection.transaction():  # a deferred key fails at COMMIT
                    await connection.execute(statement, *args)
            refused.append(caught.value.constraint_name or caught.value.args[0])
        return keys, refused
    finally:
        await connection.close()


async def test_the_keys_go_and_come_back(tmp_path: Path) -> None:
    if "postgresql" not in DATABASES:
        pytest.skip("PostgreSQL only: SQLite keeps its keys")
    url = await create_database(PG_ADMIN_DSN, "cs_test")
    resolved = Settings(database_url=url, var_dir=tmp_path / "var").resolved_database_url
    try:
        await upgrade_database(resolved, "20261128_04")
        keys, refused = await _refusals(url)
        assert keys == set()
        assert refused[0].startswith("no user ")
        assert refused[1].startswith("no journal entry ")

        await _downgrade(resolved, "20261128_01")
        keys, refused = await _refusals(url)
        assert keys == _KEYS
        assert refused == [
            "fk_transactions_user_uuid_users", "fk_postings_entry_id_journal_entries"
        ]  # fmt: skip

        await upgrade_database(resolved, "20261128_04")
        keys, refused = await _refusals(url)
        assert keys == set()
        assert refused[0].startswith("no user ")
    finally:
        await drop_database(PG_ADMIN_DSN, url)
