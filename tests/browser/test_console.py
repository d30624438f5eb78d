"""The operator console in Chromium (docs/operations.md#the-operator-console): signed in with
a link from `cardservice operator console-link`, the operator finds a card by its last four
digits and freezes it after a confirmation — the cardholder's API then shows it frozen by the
operator — and sees the action in the audit log; the same link again is refused. Each page
is clean at 1280 px and at 375 px, where none is wider than the window (screenshots for the
README), with no serious axe violation. The demo's
card is unfrozen again through the console before the test ends."""

from __future__ import annotations

from pathlib import Path

from playwright.async_api import BrowserContext, Page

from tests.browser.watch import Watched, api, screenshot
from tests.live_server import LiveServer


async def _confirm(page: Page, base: str, card: str, action: str, button: str) -> None:
    """From the card's row, through the confirmation page, back to the list."""
    await page.locator(f'tr[data-card="{card}"]').get_by_role("link", name=action).click()
    await page.wait_for_url(f"{base}/console/cards/{card}/*")
    await page.get_by_role("button", name=button).click()
    await page.wait_for_url(f"{base}/console/cards?*")


async def test_an_operator_finds_a_card_by_its_last_four_digits_and_freezes_it(
    context: BrowserContext, live: LiveServer, shots: Path
) -> None:
    link = live.cli("operator", "console-link", "--base-url", live.base)
    watched = Watched(await context.new_page())
    page = watched.page
    await page.set_viewport_size({"width": 1280, "height": 900})
    await page.goto(link)
    await page.get_by_role("button", name="Continue").click()
    await page.wait_for_url(f"{live.base}/console")
    await screenshot(page, shots, "console-1280.png")

    cards = (await api(live, "/card", **{"filters[status]": "active"}))["data"]["cards"]
    card = cards[0]
    nav = page.get_by_role("navigation", name="Console")
    await nav.get_by_role("link", name="Cards").click()
    await page.get_by_label("Last four digits, mask or description").fill(card["mask"][-4:])
    await page.get_by_role("button", name="Find").click()
    await page.wait_for_url("**search**")
    row = page.locator(f'tr[data-card="{card["uuid"]}"]')
    assert await row.get_by_test_id("card-status").inner_text() == "active"
    await screenshot(page, shots, "console-cards-1280.png")

    await row.get_by_role("link", name="Freeze").click()
    await page.wait_for_url(f"{live.base}/console/cards/{card['uuid']}/freeze")
    await screenshot(page, shots, "console-confirm-1280.png")
    await page.get_by_role("button", name="Freeze the card").click()
    await page.wait_for_url(f"{live.base}/console/cards?*")
    assert await row.get_by_test_id("card-status").inner_text() == "frozen"
    assert await row.get_by_test_id("frozen-reason").inner_text() == "operator"
    holders = (await api(live, f"/card/{card['uuid']}"))["data"]
    assert (holders["status"], holders["frozen_reason"]) == ("frozen", "operator")

    await nav.get_by_role("link", name="Audit log").click()
    await page.get_by_label("Action").fill("card.frozen")
    await page.get_by_label("Object's uuid").fill(card["uuid"])
    await page.get_by_role("button", name="Filter").click()
    await page.wait_for_url("**object_uuid**")
    assert await page.get_by_test_id("audit-action").all_inner_texts() == ["card.frozen"]
    assert "console" in await page.locator("tr[data-audit]").first.inner_text()
    await screenshot(page, shots, "console-audit-1280.png")

    await page.goto(f"{live.base}/console/cards?filters%5Bsearch%5D={card['mask'][-4:]}")
    await _confirm(page, live.base, card["uuid"], "Unfreeze", "Unfreeze the card")
    assert (await api(live, f"/card/{card['uuid']}"))["data"]["status"] == "active"
    assert watched.problems == []

    again = await context.browser.new_context() if context.browser else None
    assert again is not None
    try:
        other = await again.new_page()
        await other.goto(link)
        await other.get_by_role("button", name="Continue").click()
        await other.wait_for_load_state()
        assert other.url == f"{live.base}/console/login"
        alert = await other.get_by_role("alert").inner_text()
        assert "already used or has expired" in alert
        assert (await other.goto(f"{live.base}/console/cards")) is not None
        assert other.url == f"{live.base}/console/login"  # no session came of it
    finally:
        await again.close()


PAGES = (("Program", "console"), ("Users", "console-users"), ("Accounts", "console-accounts"),
         ("Cards", "console-cards"), ("Transactions", "console-transactions"),
         ("Disputes", "console-disputes"), ("Clearing files", "console-clearing-files"),
         ("Audit log", "console-audit"), ("Catalogue", "console-bins"))  # fmt: skip


async def test_every_console_page_fits_a_375_px_window(
    context: BrowserContext, live: LiveServer, shots: Path
) -> None:
    """At 375 px each page of the console's menu is reached by its link, fits the window
    (no horizontal scroll: `screenshot` checks it), is clean and accessible; a card's action
    is reached from its row and its confirmation fits too (left without confirming)."""
    link = live.cli("operator", "console-link", "--base-url", live.base)
    watched = Watched(await context.new_page())
    page = watched.page
    await page.set_viewport_size({"width": 375, "height": 812})
    await page.goto(link)
    await page.get_by_role("button", name="Continue").click()
    await page.wait_for_url(f"{live.base}/console")
    nav = page.get_by_role("navigation", name="Console")
    for label, name in PAGES:
        await nav.get_by_role("link", name=label, exact=True).click()
        await page.wait_for_load_state()
        assert await page.get_by_role("heading", level=1).count() == 1, label
        await screenshot(page, shots, f"{name}-375.png")
    await nav.get_by_role("link", name="Cards", exact=True).click()
    card = (await api(live, "/card", **{"filters[status]": "active"}))["data"]["cards"][0]
    row = page.locator(f'tr[data-card="{card["uuid"]}"]')
    await row.get_by_role("link", name="Freeze").click()
    await page.wait_for_url(f"{live.base}/console/cards/{card['uuid']}/freeze")
    await screenshot(page, shots, "console-confirm-375.png")
    assert (await api(live, f"/card/{card['uuid']}"))["data"]["status"] == "active"
    assert watched.problems == []
