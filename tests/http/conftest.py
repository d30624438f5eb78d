"""The served OpenAPI document, made once per test process for the tests that only read it.

The document is made from the routes and the settings, never from the database: the tests of
its shape (tests/http/test_openapi*.py) read this one copy rather than having each test build
an app on each database and generate the document again. That the app on either database
serves exactly these bytes is test_openapi_snapshot.py's test, which runs on both."""

from __future__ import annotations

import asyncio
from typing import Any

import orjson
import pytest

from tests.http.test_openapi_snapshot import tests_document


@pytest.fixture(scope="session")
def openapi() -> dict[str, Any]:
    document: dict[str, Any] = orjson.loads(asyncio.run(tests_document()))
    return document
