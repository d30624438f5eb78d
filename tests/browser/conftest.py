"""Debian's Chromium driven by Playwright against a live server holding the demo data."""

from __future__ import annotations

import shutil
from collections.abc import AsyncIterator, Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
import pytest_asyncio
from playwright.async_api import Browser, BrowserContext, async_playwright

from tests.conftest import Kept, migrated_postgres
from tests.live_server import LiveServer, demo_server

CHROMIUM = "/usr/bin/chromium"


@pytest.fixture(scope="session")
def live(database_url: str, kept: Kept, tmp_path_factory: pytest.TempPathFactory) -> LiveServer:
    """One demo server per database and test process for every browser module (the demo is
    created once; a test that changes the demo's data puts it back), on a database of its
    own: the other tests empty the run's PostgreSQL database between them (SQLite's server
    runs on a copy already). Kept to the run's end (`tests.conftest.Kept`): `--dist
    loadfile` runs each module's SQLite tests, then its PostgreSQL ones, and other packages'
    files between the browser modules, so a fixture's own scope would start it (5–8 s)
    again for nearly each of them."""
    kind = "sqlite" if database_url.startswith("sqlite") else "postgresql"
    return kept.get(("live", kind), lambda: _demo(database_url, tmp_path_factory))


@contextmanager
def _demo(database_url: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    var = tmp_path_factory.mktemp("browser-var")
    if database_url.startswith("sqlite"):
        with demo_server(database_url, var) as server:
            yield server
        return
    with migrated_postgres("cs_browser") as url, demo_server(url, var) as server:
        yield server


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The browser modules' tests run in their module's event loop, the one their module's
    Chromium (`browser`) was started in (as tests/browser/test_main_jobs.py marks itself)."""
    here = Path(__file__).parent
    for item in items:
        if item.path.is_relative_to(here) and item.get_closest_marker("asyncio"):
            item.add_marker(pytest.mark.asyncio(loop_scope="module"), append=False)


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def browser() -> AsyncIterator[Browser]:
    """One Chromium per module (a launch costs ~1.2 s of CPU, 10 s on a loaded machine), each
    test in a new context of it (`context`: its own cookies, storage and pages)."""
    if shutil.which(CHROMIUM) is None:
        pytest.fail("Chromium is missing: `make browser` installs Debian's package")
    async with async_playwright() as playwright:
        launched = await playwright.chromium.launch(executable_path=CHROMIUM)
        yield launched
        await launched.close()


@pytest.fixture
def shots(database_url: str) -> Path:
    """Where this run keeps its screenshots: var/screenshots/<database>/."""
    kind = "sqlite" if database_url.startswith("sqlite") else "postgresql"
    folder = Path("var/screenshots") / kind
    folder.mkdir(parents=True, exist_ok=True)
    return folder


@pytest_asyncio.fixture(loop_scope="module")
async def context(browser: Browser) -> AsyncIterator[BrowserContext]:
    # axe is injected as a script of the test's own: the pages' CSP would refuse it.
    made = await browser.new_context(bypass_csp=True, accept_downloads=True)
    yield made
    await made.close()
