"""Migration 20261128_04 on PostgreSQL: up, the keys it drops are gone and what checks in
their place is there (a posting of no entry refused by `postings_checked`); down, the keys
are back and refuse it at COMMIT; up again. The rows each refuses: tests/ledger/
test_database_rules.py. (SQLite keeps its keys: the migration does nothing there.)"""

from __future__ import annotations

from pathlib import Path

import asyncpg
import pytest

from cardservice.config import Settings
from cardservice.migrations import downgrade_database, upgrade_database
from tests.conftest import DATABASES, PG_ADMIN_DSN
from tests.fresh_database import create_database, drop_database

_KEYS = {
    "fk_transactions_user_uuid_users", "fk_transactions_card_uuid_cards",
    "fk_postings_entry_id_journal_entries",
}  # fmt: skip
_KEYS_THERE = "SELECT conname FROM pg_constraint WHERE conname = ANY($1::text[])"
# what checks the rows in their place (migration 20261128_04)
_TRIGGERS = {"transactions_holders_known", "users_kept", "cards_kept"}
_TRIGGERS_THERE = "SELECT tgname FROM pg_trigger WHERE tgname = ANY($1::text[])"
_ORPHAN = (
    "INSERT INTO postings (entry_id, system_book, currency, amount)"
    " VALUES (nextval(pg_get_serial_sequence('journal_entries', 'id')), 'fees', 'USD', 1)"
)


async def _state(dsn: str) -> tuple[set[str], set[str], str]:
    """The keys there, the triggers there, and what refuses a posting of no entry (the
    constraint's name when a key does, at COMMIT, else the message)."""
    connection = await asyncpg.connect(dsn)
    try:
        keys = {r[0] for r in await connection.fetch(_KEYS_THERE, list(_KEYS))}
        triggers = {r[0] for r in await connection.fetch(_TRIGGERS_THERE, list(_TRIGGERS))}
        with pytest.raises(asyncpg.IntegrityConstraintViolationError) as caught:
            async with connection.transaction():
                await connection.execute(_ORPHAN)
        return keys, triggers, caught.value.constraint_name or caught.value.args[0]
    finally:
        await connection.close()


async def test_the_keys_go_and_come_back(tmp_path: Path) -> None:
    if "postgresql" not in DATABASES:
        pytest.skip("PostgreSQL only: SQLite keeps its keys")
    url = await create_database(PG_ADMIN_DSN, "cs_test")
    resolved = Settings(database_url=url, var_dir=tmp_path / "var").resolved_database_url
    try:
        await upgrade_database(resolved, "20261128_04")
        keys, triggers, refused = await _state(url)
        assert (keys, triggers) == (set(), _TRIGGERS)
        assert refused.startswith("no journal entry ")

        await downgrade_database(resolved, "20261128_01")
        assert await _state(url) == (_KEYS, set(), "fk_postings_entry_id_journal_entries")

        await upgrade_database(resolved, "20261128_04")
        keys, triggers, refused = await _state(url)
        assert (keys, triggers) == (set(), _TRIGGERS)
        assert refused.startswith("no journal entry ")
    finally:
        await drop_database(PG_ADMIN_DSN, url)
