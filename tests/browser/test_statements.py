"""The statements page in a real browser: reached from the navigation, drawn at both widths
(not blank, no serious axe violation, nothing wider than the window), and its first PDF link
downloads a PDF."""

from __future__ import annotations

from pathlib import Path

from playwright.async_api import BrowserContext

from tests.browser.watch import screenshot, sign_in
from tests.live_server import LiveServer

WIDTHS = (1280, 375)


async def test_the_statements_page_is_accessible_and_its_pdf_downloads(
    context: BrowserContext, live: LiveServer, shots: Path
) -> None:
    watched = await sign_in(context, live)
    page = watched.page
    await page.get_by_role("link", name="Statements").click()
    await page.wait_for_url("**/app/statements")
    for width in WIDTHS:
        await page.set_viewport_size({"width": width, "height": 900})
        await page.goto(f"{live.base}/app/statements")
        await screenshot(page, shots, f"statements-{width}.png")
    async with page.expect_download() as info:
        await page.get_by_role("link", name="PDF").first.click()
    download = await info.value
    assert (await download.path()).read_bytes()[:4] == b"%PDF"
    assert download.suggested_filename.startswith("statement-")
    assert watched.problems == []
