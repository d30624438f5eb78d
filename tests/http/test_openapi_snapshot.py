"""The served OpenAPI document, byte for byte, against the committed `tests/http/openapi.json`:
`clients/` and every consumer of the contract read these bytes, so a change to how routes
are declared or served must not move one of them unnoticed.

A deliberate change of the document: `python -m tests.http.test_openapi_snapshot` rewrites the
snapshot from the app as the tests build it (sandbox on); review the diff, commit both."""

from __future__ import annotations

import asyncio
import tempfile
from pathlib import Path

import httpx
from fastapi import FastAPI

from cardservice.app import create_app
from cardservice.config import Settings

SNAPSHOT = Path(__file__).with_name("openapi.json")


async def served_document(app: FastAPI) -> bytes:
    transport = httpx.ASGITransport(app=app)
    async with httpx.AsyncClient(transport=transport, base_url="http://testserver") as http:
        response = await http.get("/openapi.json")
    assert response.status_code == 200
    return response.content


async def test_the_served_document_is_the_committed_snapshot(app: FastAPI) -> None:
    served = await served_document(app)
    assert served == SNAPSHOT.read_bytes(), "python -m tests.http.test_openapi_snapshot to accept"


async def tests_document() -> bytes:
    """The document the app serves as the tests build it (sandbox on), on a database of
    its own that is never migrated: the document is made from the routes alone."""
    with tempfile.TemporaryDirectory() as directory:
        from tests.conftest import TEST_CVK, TEST_KEY

        settings = Settings(
            database_url=f"sqlite:///{directory}/snapshot.db",
            encryption_key=TEST_KEY,
            cvk=TEST_CVK,
            sandbox=True,
            log_level="WARNING",
        )
        app = create_app(settings)
        try:
            return await served_document(app)
        finally:
            await app.state.db.dispose()


async def _write_snapshot() -> None:
    SNAPSHOT.write_bytes(await tests_document())


if __name__ == "__main__":
    asyncio.run(_write_snapshot())
