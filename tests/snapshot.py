"""Every row of every table, as text: what a test compares to say "nothing was written"."""

from __future__ import annotations

from fastapi import FastAPI


async def database_rows(app: FastAPI) -> dict[str, list[str]]:
    """Each table's rows (sorted text), but `api_tokens`: a token's last use is written by
    every request it makes."""
    reader = app.state.db.reader
    if app.state.db.is_sqlite:
        names = "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name"
    else:
        names = "SELECT tablename AS name FROM pg_tables WHERE schemaname = 'public' ORDER BY 1"
    tables = [row["name"] for row in await reader.rows(names)]
    return {
        table: sorted(repr(tuple(row)) for row in await reader.rows(f"SELECT * FROM {table}"))
        for table in tables
        if table != "api_tokens"
    }
