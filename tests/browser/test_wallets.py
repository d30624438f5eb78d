"""The card page's digital wallets (docs/network.md#wallet-tokens) in a real browser: the demo's
card in Apple Pay is listed with its device and last four digits; suspending and resuming it changes
its status in place. Screenshotted at 1280 and 375 px, clean and accessible."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from playwright.async_api import BrowserContext

from tests.browser.watch import api, screenshot, sign_in
from tests.live_server import LiveServer

WIDTHS = (1280, 375)


async def _card_in_a_wallet(live: LiveServer) -> tuple[dict[str, Any], dict[str, Any]]:
    cards = (await api(live, "/card", per_page=100))["data"]["cards"]
    for card in cards:
        tokens = (await api(live, f"/card/{card['uuid']}/tokens"))["data"]
        if tokens:
            return card, tokens[0]
    raise AssertionError("the demo has a card in a wallet")


async def test_suspend_and_resume_a_wallet_token(
    context: BrowserContext, live: LiveServer, shots: Path
) -> None:
    card, token = await _card_in_a_wallet(live)
    assert (token["wallet"], token["status"]) == ("apple_pay", "active")
    watched = await sign_in(context, live)
    page = watched.page
    await page.goto(f"{live.base}/app/cards/{card['uuid']}")
    row = page.locator(f"tr[data-token='{token['uuid']}']")
    assert "Apple Pay" in await row.inner_text() and token["device_name"] in await row.inner_text()
    assert f"•••• {token['last4']}" in await row.inner_text()
    await row.get_by_role("button", name="Suspend").click()
    await page.wait_for_url(f"**/app/cards/{card['uuid']}?done=token_suspend*")
    assert await page.get_by_role("status").inner_text() == (
        "The wallet token is suspended: its payments are declined until resumed."
    )
    assert await row.get_by_test_id("token-status").inner_text() == "suspended"
    listed = (await api(live, f"/card/{card['uuid']}/tokens"))["data"][0]
    assert listed["status"] == "suspended"
    await row.get_by_role("button", name="Resume").click()  # the demo as it was
    await page.wait_for_url(f"**/app/cards/{card['uuid']}?done=token_resume*")
    assert await row.get_by_test_id("token-status").inner_text() == "active"
    assert (await api(live, f"/card/{card['uuid']}/tokens"))["data"][0]["status"] == "active"
    assert watched.problems == []


async def test_the_wallets_of_a_card_are_drawn_clean_and_accessible(
    context: BrowserContext, live: LiveServer, shots: Path
) -> None:
    card, _token = await _card_in_a_wallet(live)
    watched = await sign_in(context, live)
    page = watched.page
    for width in WIDTHS:
        await page.set_viewport_size({"width": width, "height": 900})
        await page.goto(f"{live.base}/app/cards/{card['uuid']}")
        await page.get_by_test_id("tokens").wait_for()
        await screenshot(page, shots, f"card-wallets-{width}.png")
    assert watched.problems == []
