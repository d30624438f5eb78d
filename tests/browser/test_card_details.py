"""A holder reads a card's details in a real browser (issue 29): 'Show details' in the
card page's header (or the confirmation page a link to the details opens), then the number,
expiry and CVV2 in the page — not in its URL — with copy buttons that fill the clipboard,
masked again after 60 seconds (the page's clock is Playwright's, fast-forwarded).
Screenshotted at 1280 and 375 px, clean and accessible."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from playwright.async_api import BrowserContext

from tests.browser.watch import api, screenshot, sign_in
from tests.factories import ISSUED_SECRETS
from tests.live_server import LiveServer

WIDTHS = (1280, 375)


async def _active_card(live: LiveServer, index: int) -> dict[str, Any]:
    cards = (await api(live, "/card", per_page=20, **{"filters[status]": "active"}))["data"]
    return dict(cards["cards"][index])


async def test_show_copy_and_hide_the_card_details(
    context: BrowserContext, live: LiveServer, shots: Path
) -> None:
    await context.grant_permissions(["clipboard-read", "clipboard-write"], origin=live.base)
    watched = await sign_in(context, live)
    page = watched.page
    card = await _active_card(live, 0)
    await page.clock.install()
    await page.goto(f"{live.base}/app/cards/{card['uuid']}")
    await page.get_by_test_id("card-head").get_by_role("button", name="Show details").click()
    await page.wait_for_url(f"**/app/cards/{card['uuid']}/details")
    pan_box = page.get_by_test_id("pan")
    await pan_box.wait_for()
    pan = (await pan_box.inner_text()).replace(" ", "")
    ISSUED_SECRETS.append(pan)
    assert re.fullmatch(r"\d{16}", pan) and pan.startswith(card["bin"][:6])
    assert pan.endswith(card["last4"])
    assert pan not in page.url
    assert re.fullmatch(r"\d{3}", await page.get_by_test_id("cvv2").inner_text())
    expiry = f"{card['expiry_month']:02d}/{card['expiry_year'] % 100:02d}"
    assert await page.get_by_test_id("expiry").inner_text() == expiry
    await page.get_by_role("button", name="Copy card number").click()
    assert await page.evaluate("navigator.clipboard.readText()") == pan
    await page.get_by_role("button", name="Copy security code").click()
    assert re.fullmatch(r"\d{3}", await page.evaluate("navigator.clipboard.readText()"))
    await page.clock.fast_forward(61_000)
    await page.get_by_test_id("hidden-again").wait_for()
    assert pan not in await page.content()
    assert await pan_box.inner_text() == "••••"
    assert await page.get_by_role("button", name="Copy card number").is_disabled()
    assert watched.problems == []


async def test_card_details_pages_are_drawn_clean_and_accessible(
    context: BrowserContext, live: LiveServer, shots: Path
) -> None:
    card = await _active_card(live, 1)
    watched = await sign_in(context, live)
    page = watched.page
    for width in WIDTHS:
        await page.set_viewport_size({"width": width, "height": 900})
        await page.goto(f"{live.base}/app/cards/{card['uuid']}/details")
        await screenshot(page, shots, f"card-details-confirm-{width}.png")
        await page.get_by_role("button", name="Yes, show the card details").click()
        await page.get_by_test_id("pan").wait_for()
        ISSUED_SECRETS.append((await page.get_by_test_id("pan").inner_text()).replace(" ", ""))
        await screenshot(page, shots, f"card-details-{width}.png")
    assert watched.problems == []
