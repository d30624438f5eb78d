"""Alembic migrations, shipped inside the package so `cardservice db upgrade` works anywhere."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import Connection
from sqlalchemy.ext.asyncio import create_async_engine
from sqlalchemy.pool import NullPool

from cardservice.db.sql import sqlite_path

MIGRATIONS_DIR = Path(__file__).parent


def alembic_config(url: str) -> Config:
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS_DIR))
    config.set_main_option("sqlalchemy.url", url)
    return config


async def upgrade_database(url: str, revision: str = "head") -> None:
    """Apply pending migrations to the database at `url` (an async SQLAlchemy URL); an
    SQLite file's directory is made first."""
    if url.startswith("sqlite") and sqlite_path(url) not in ("", ":memory:"):
        Path(sqlite_path(url)).parent.mkdir(parents=True, exist_ok=True)
    await _migrate(url, command.upgrade, revision)


async def downgrade_database(url: str, revision: str) -> None:
    """Undo the migrations of the database at `url` after `revision` (a migration's way
    down, as its tests run it)."""
    await _migrate(url, command.downgrade, revision)


async def _migrate(url: str, step: Callable[[Config, str], None], revision: str) -> None:
    engine = create_async_engine(url, poolclass=NullPool)
    config = alembic_config(url)

    def run(connection: Connection) -> None:
        config.attributes["connection"] = connection
        step(config, revision)

    try:
        async with engine.begin() as connection:
            await connection.run_sync(run)
    finally:
        await engine.dispose()


async def revisions(url: str) -> tuple[set[str], set[str]]:
    """(the database's revisions, the package's heads): equal when it is migrated."""
    engine = create_async_engine(url, poolclass=NullPool)
    heads = set(ScriptDirectory.from_config(alembic_config(url)).get_heads())

    def current(connection: Connection) -> set[str]:
        return set(MigrationContext.configure(connection).get_current_heads())

    try:
        async with engine.connect() as connection:
            return await connection.run_sync(current), heads
    finally:
        await engine.dispose()
