"""A person uploads a receipt picture in a real browser: picks a PNG made here, sends the form
from the keyboard, sees it listed first and downloads it back; a file of another type is
refused next to the field. The attachments page is screenshotted at both widths (not blank),
logs no console error, and has no serious axe violation.

Uploads cannot be deleted (the API has no such route), so this test leaves its files in the
demo user's list; no other browser test reads attachments, and the demo's numbers (balances,
cards, spend) do not count them."""

from __future__ import annotations

import hashlib
from io import BytesIO
from pathlib import Path

from PIL import Image
from playwright.async_api import BrowserContext, Page

from tests.browser.watch import api, screenshot, sign_in
from tests.live_server import LiveServer

WIDTHS = (1280, 375)


def _receipt_png() -> bytes:
    """A small receipt-like picture: a white slip with grey lines of text on it."""
    image = Image.new("RGB", (120, 160), (250, 250, 245))
    for row in range(12, 150, 12):
        for column in range(10, 100 if row % 36 else 60):
            image.putpixel((column, row), (90, 90, 90))
    buffer = BytesIO()
    image.save(buffer, format="PNG")
    return buffer.getvalue()


async def _send(page: Page) -> None:
    """Send the form as the keyboard does: focus Upload (its focus visible), press Enter."""
    button = page.get_by_role("button", name="Upload")
    await button.focus()
    assert await button.evaluate("b => getComputedStyle(b).outlineStyle") == "solid"
    async with page.expect_navigation():
        await page.keyboard.press("Enter")


async def test_upload_a_receipt_picture_and_see_it_listed(
    context: BrowserContext, live: LiveServer, tmp_path: Path
) -> None:
    watched = await sign_in(context, live)
    page = watched.page
    await page.get_by_role("link", name="Attachments").click()
    await page.wait_for_url("**/app/attachments")
    png = _receipt_png()
    picture = tmp_path / "receipt.png"
    picture.write_bytes(png)
    await page.get_by_label("Kind of file").select_option("receipt")
    await page.get_by_label("File", exact=True).set_input_files(picture)
    await _send(page)
    assert page.url.endswith("/app/attachments?done=uploaded#notice")
    assert "The file is uploaded" in await page.get_by_role("status").inner_text()

    newest = (await api(live, "/attachments", per_page=1))["data"][0]
    assert newest["sha256"] == hashlib.sha256(png).hexdigest()
    assert newest["mime_type"] == "image/png" and newest["type"] == "receipt"
    first_row = page.locator("tbody tr").first
    assert await first_row.get_attribute("data-attachment") == newest["uuid"]
    async with page.expect_download() as info:
        await first_row.get_by_role("link", name="Download").click()
    download = await info.value
    assert (await download.path()).read_bytes() == png
    assert download.suggested_filename == f"{newest['uuid']}.png"
    assert watched.problems == []


async def test_a_file_of_another_type_is_refused_by_its_field(
    context: BrowserContext, live: LiveServer, tmp_path: Path
) -> None:
    watched = await sign_in(context, live)
    page = watched.page
    before = (await api(live, "/attachments"))["meta"]["total"]
    await page.goto(f"{live.base}/app/attachments")
    text = tmp_path / "receipt.png"
    text.write_bytes(b"not a picture at all\n")  # the name claims PNG, the content says no
    await page.get_by_label("File", exact=True).set_input_files(text)
    await _send(page)
    error = page.locator("#f-file-error")
    assert await error.inner_text() == "Only JPEG, PNG, WebP and PDF files are accepted."
    field = page.get_by_label("File", exact=True)
    assert await field.get_attribute("aria-invalid") == "true"
    # The refusal is answered 422, which Chromium also logs: the only two problems allowed.
    assert watched.problems == [
        f"422 {live.base}/app/attachments",
        "Failed to load resource: the server responded with a status of 422 (Unprocessable Entity)",
    ]
    assert (await api(live, "/attachments"))["meta"]["total"] == before


async def test_the_attachments_page_is_drawn_clean_and_accessible(
    context: BrowserContext, live: LiveServer, shots: Path
) -> None:
    watched = await sign_in(context, live)
    for width in WIDTHS:
        await watched.page.set_viewport_size({"width": width, "height": 900})
        await watched.page.goto(f"{live.base}/app/attachments")
        await screenshot(watched.page, shots, f"attachments-{width}.png")
    assert watched.problems == []
