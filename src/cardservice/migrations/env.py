"""Alembic environment: runs on a shared connection (the service) or its own (alembic CLI)."""

from __future__ import annotations

import asyncio

from alembic import context
from sqlalchemy import Connection
from sqlalchemy.ext.asyncio import create_async_engine
from sqlalchemy.pool import NullPool

from cardservice.models import Base

config = context.config
target_metadata = Base.metadata


def run_on(connection: Connection) -> None:
    context.configure(
        connection=connection,
        target_metadata=target_metadata,
        render_as_batch=connection.dialect.name == "sqlite",
        compare_type=True,
    )
    with context.begin_transaction():
        context.run_migrations()


async def run_own_connection() -> None:
    engine = create_async_engine(config.get_main_option("sqlalchemy.url") or "", poolclass=NullPool)
    async with engine.connect() as connection:
        await connection.run_sync(run_on)
    await engine.dispose()


shared = config.attributes.get("connection")
if shared is not None:
    run_on(shared)
else:
    asyncio.run(run_own_connection())
