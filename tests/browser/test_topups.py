"""The "Top up" page in a real browser: reached from the navigation, a top-up asked by bank
transfer in EUR into the demo's first account shows its reference, fee and conversion, and
where to pay — the program's payment details, each with a copy button that copies it and says
so in a live region; the list shows it, then cancelled by the operator; both pages drawn at
both widths (not blank, no serious axe violation, nothing wider than the window). No money
moves: the demo's data stays as it was for the other browser tests."""

from __future__ import annotations

import re
from pathlib import Path

from playwright.async_api import BrowserContext, expect

from tests.browser.watch import call, screenshot, sign_in
from tests.live_server import PAY_TO, LiveServer

WIDTHS = (1280, 375)


async def test_a_top_up_is_asked_and_listed_accessibly(
    context: BrowserContext, live: LiveServer, shots: Path
) -> None:
    watched = await sign_in(context, live)
    page = watched.page
    await page.get_by_role("link", name="Top up").click()
    await page.wait_for_url("**/app/topups")
    await page.get_by_label("Pay by, in").select_option("bank-transfer:EUR")
    await page.get_by_label("Amount to pay").fill("100")
    await screenshot(page, shots, "topups-form.png")
    await page.get_by_role("button", name="Get the payment reference").click()
    await page.wait_for_url(re.compile(r".*/app/topups/[0-9a-f-]{36}\?done=asked#notice$"))
    reference = await page.get_by_test_id("reference").inner_text()
    assert re.fullmatch(r"TU-[A-Z0-9]{10}", reference)
    instructions = await page.get_by_test_id("instructions").inner_text()
    assert "Pay 100.00 EUR by Bank transfer" in instructions and reference in instructions
    assert await page.get_by_test_id("topup-fee").inner_text() == "0.50 EUR"
    topup = page.url.split("/")[-1].split("?")[0]
    pay_to = page.get_by_test_id("pay-to")
    iban = PAY_TO["bank-transfer:EUR"]["IBAN"]
    assert iban in await pay_to.inner_text()
    await context.grant_permissions(["clipboard-read", "clipboard-write"], origin=live.base)
    await pay_to.get_by_role("button", name="Copy IBAN").click()
    await expect(page.get_by_test_id("copied")).to_have_text("Copied: IBAN.")
    assert await page.evaluate("navigator.clipboard.readText()") == iban
    await pay_to.get_by_role("button", name="Copy reference").click()
    assert await page.evaluate("navigator.clipboard.readText()") == reference
    for width in WIDTHS:
        await page.set_viewport_size({"width": width, "height": 900})
        await page.goto(f"{live.base}/app/topups/{topup}")
        await screenshot(page, shots, f"topup-{width}.png")
    key = live.cli("operator-keys", "create", "--name", "browser", "--scopes", "funding")
    cancelled = await call(live, "POST", f"/operator/topups/{topup}/cancel", token=key)
    assert cancelled.status_code == 200, cancelled.text
    await page.get_by_role("link", name="All top-ups").click()
    await page.wait_for_url("**/app/topups")
    row = page.locator(f'tr[data-topup="{topup}"]')
    assert reference in await row.inner_text() and "Cancelled" in await row.inner_text()
    for width in WIDTHS:
        await page.set_viewport_size({"width": width, "height": 900})
        await page.goto(f"{live.base}/app/topups")
        await screenshot(page, shots, f"topups-{width}.png")
    assert watched.problems == []
