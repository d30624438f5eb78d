"""A person changes things in a real browser: freezes a card from the keyboard and sees its
status change, sets a daily limit (and sees a refusal by its field), adds a webhook endpoint
and reads its secret once. The card and webhook pages are screenshotted at both widths (not
blank), log no console error, and have no serious axe violation. Each test puts the demo's
data back as it found it (the server is shared by the browser tests)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from playwright.async_api import BrowserContext, Page

from tests.browser.watch import Watched, api, call, screenshot, sign_in
from tests.live_server import LiveServer

WIDTHS = (1280, 375)


async def _first_active_card(live: LiveServer) -> dict[str, Any]:
    cards = (await api(live, "/card", per_page=20, **{"filters[status]": "active"}))["data"]
    plain = [c for c in cards["cards"] if c["spending_controls"] is None]
    return dict(plain[0])


async def _card(live: LiveServer, card_uuid: str) -> dict[str, Any]:
    return dict((await api(live, f"/card/{card_uuid}"))["data"])


async def _press(page: Page, name: str) -> None:
    """Focus a button as the keyboard does, check its focus is visible, press Enter."""
    button = page.get_by_role("button", name=name)
    await button.focus()
    outline = await button.evaluate("b => getComputedStyle(b).outlineStyle")
    assert outline == "solid", name
    async with page.expect_navigation():
        await page.keyboard.press("Enter")


async def test_freeze_a_card_and_see_its_status_change(
    context: BrowserContext, live: LiveServer
) -> None:
    watched = await sign_in(context, live)
    page = watched.page
    card = await _first_active_card(live)
    await page.goto(f"{live.base}/app/cards")
    row = page.locator(f'tr[data-card="{card["uuid"]}"]')
    assert await row.get_by_test_id("card-status").inner_text() == "active"
    await _press(page, f"Freeze card {card['mask']}")
    assert await row.get_by_test_id("card-status").inner_text() == "frozen"
    assert (await _card(live, card["uuid"]))["status"] == "frozen"
    await _press(page, f"Unfreeze card {card['mask']}")
    assert await row.get_by_test_id("card-status").inner_text() == "active"
    assert (await _card(live, card["uuid"]))["status"] == "active"
    assert watched.problems == []


async def test_set_a_daily_limit(context: BrowserContext, live: LiveServer) -> None:
    watched = await sign_in(context, live)
    page = watched.page
    card = await _first_active_card(live)
    await page.goto(f"{live.base}/app/cards")
    await page.get_by_role("link", name=card["mask"]).click()
    await page.wait_for_url(f"**/app/cards/{card['uuid']}")

    await page.get_by_label("Per payment").fill("1.234")
    await page.get_by_role("button", name="Save controls").click()
    error = page.locator("#f-per_authorization-error")
    await error.wait_for()
    assert "decimal" in (await error.inner_text()).lower()
    assert await page.get_by_label("Per payment").get_attribute("aria-invalid") == "true"
    # The refusal is answered 422, which Chromium also logs: the only two problems allowed.
    assert watched.problems == [
        f"422 {live.base}/app/cards/{card['uuid']}/controls",
        "Failed to load resource: the server responded with a status of 422 (Unprocessable Entity)",
    ]
    watched.problems.clear()
    assert (await _card(live, card["uuid"]))["spending_controls"] is None

    await page.get_by_label("Per payment").fill("")
    await page.get_by_label("Per UTC day").fill("75")
    await page.get_by_role("button", name="Save controls").click()
    await page.wait_for_url("**done=controls#notice")
    assert "spending controls are saved" in await page.get_by_role("status").inner_text()
    assert await page.get_by_label("Per UTC day").input_value() == "75.00"
    assert (await _card(live, card["uuid"]))["spending_controls"]["daily"] == 75

    await page.get_by_role("button", name="Remove every control").click()
    await page.wait_for_url("**done=removed#notice")
    assert (await _card(live, card["uuid"]))["spending_controls"] is None
    assert watched.problems == []


async def test_create_a_webhook_endpoint(context: BrowserContext, live: LiveServer) -> None:
    watched = await sign_in(context, live)
    page = watched.page
    await page.get_by_role("link", name="Webhooks").click()
    await page.wait_for_url("**/app/webhooks")
    await page.get_by_label("URL").fill("http://127.0.0.1:9/browser-hook")
    await page.get_by_label("Description").fill("from the browser")
    await page.get_by_label("card.updated").check()
    await page.get_by_role("button", name="Add endpoint").click()
    secret = await page.get_by_test_id("secret").inner_text()
    assert secret.startswith("whsec_")
    [made] = [
        e
        for e in (await api(live, "/webhook-endpoints"))["data"]
        if e["url"] == "http://127.0.0.1:9/browser-hook"
    ]
    assert made["event_types"] == ["card.updated"] and made["description"] == "from the browser"
    await page.goto(f"{live.base}/app/webhooks")
    assert secret not in await page.inner_text("main")  # shown once

    await page.get_by_role(
        "link", name="Deliveries and actions of http://127.0.0.1:9/browser-hook"
    ).click()
    await page.get_by_role("button", name="Delete endpoint").click()
    await page.wait_for_url("**done=deleted#notice")
    assert (await call(live, "GET", f"/webhook-endpoints/{made['uuid']}")).status_code == 404
    assert watched.problems == []


async def test_card_and_webhook_pages_are_drawn_clean_and_accessible(
    context: BrowserContext, live: LiveServer, shots: Path
) -> None:
    card = await _first_active_card(live)
    made = await call(live, "POST", "/webhook-endpoints", json={"url": "http://127.0.0.1:9/shots"})
    assert made.status_code == 201, made.text
    endpoint = made.json()["data"]["uuid"]
    pages = {
        "card": f"/app/cards/{card['uuid']}",
        "card-close": f"/app/cards/{card['uuid']}/close",
        "webhooks": "/app/webhooks",
        "webhook": f"/app/webhooks/{endpoint}",
    }
    watched: Watched = await sign_in(context, live)
    try:
        for width in WIDTHS:
            await watched.page.set_viewport_size({"width": width, "height": 900})
            for name, path in pages.items():
                await watched.page.goto(f"{live.base}{path}")
                await screenshot(watched.page, shots, f"{name}-{width}.png")
    finally:
        await call(live, "DELETE", f"/webhook-endpoints/{endpoint}")
    assert watched.problems == []
