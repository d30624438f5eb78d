"""A person in a real browser: signs in with the demo token, sees the API's numbers on every
page, downloads a transaction's JPEG record, watches a 3DS code arrive, signs out. Every
page is screenshotted (not blank), logs no console error or failed request, and has no
serious axe violation."""

from __future__ import annotations

from pathlib import Path

from playwright.async_api import Browser, BrowserContext

# Shared with the other browser tests (`watch`), under the names these tests use.
from tests.browser.watch import Watched, screenshot
from tests.browser.watch import api as _api
from tests.browser.watch import call as _call
from tests.browser.watch import money as _money
from tests.browser.watch import sign_in as _sign_in
from tests.live_server import LiveServer

PAGES = {"overview": "/app", "accounts": "/app/accounts", "cards": "/app/cards"}
PAGES["transactions"] = "/app/transactions"
WIDTHS = (1280, 375)


async def test_every_page_is_drawn_clean_and_accessible_at_both_widths(
    context: BrowserContext, live: LiveServer, shots: Path
) -> None:
    watched = await _sign_in(context, live)
    for width in WIDTHS:
        await watched.page.set_viewport_size({"width": width, "height": 900})
        for name, path in PAGES.items():
            await watched.page.goto(f"{live.base}{path}")
            await screenshot(watched.page, shots, f"{name}-{width}.png")
    assert watched.problems == []


async def test_the_pages_show_the_apis_numbers(context: BrowserContext, live: LiveServer) -> None:
    watched = await _sign_in(context, live)
    page = watched.page
    summary = (await _api(live, "/user/summary"))["data"]
    for balance in summary["balances"]:
        shown = page.get_by_test_id(f"balance-{balance['currency']}")
        assert await shown.inner_text() == _money(balance["accounts_total"], balance["currency"])
    assert await page.get_by_test_id("cards-count").inner_text() == str(summary["cards"]["total"])

    cards = (await _api(live, "/card", per_page=20))["data"]["cards"]
    await page.goto(f"{live.base}/app/cards")
    shown_balances = await page.get_by_test_id("card-balance").all_inner_texts()
    assert shown_balances == [_money(c["balance"], c["currency"]) for c in cards]

    accounts = (await _api(live, "/accounts", per_page=20))["data"]
    await page.goto(f"{live.base}/app/accounts")
    expected = [_money(a["balance"], a["currency"]) for a in accounts["items"]]
    expected += [_money(a["balance"], a["currency"]) for a in accounts["related_team_accounts"]]
    assert await page.get_by_test_id("account-balance").all_inner_texts() == expected

    report = await _api(live, "/transaction/report", **{"filters[type]": "card_purchase"})
    await page.goto(f"{live.base}/app/transactions")
    await page.get_by_label("Type").select_option("card_purchase")
    await page.get_by_role("button", name="Filter").click()
    await page.wait_for_url("**type=card_purchase**")
    main = await page.inner_text("main")
    assert f"{report['meta']['total']} transactions:" in main
    for total in report["meta"]["totals"]:  # what the filtered list moved, in its words
        shown = await page.get_by_test_id(f"totals-{total['currency']}").inner_text()
        assert shown == (
            f"out −{_money(total['debits'], total['currency'])}, "
            f"in +{_money(total['credits'], total['currency'])}"
        ).replace("in +0.00", "in 0.00")
    amounts = await page.get_by_test_id("amount").all_inner_texts()
    # A declined payment's amount did not leave the card: shown struck, without a sign.
    expected = [
        ("" if t["status"] == "declined" else "−") + _money(t["amount"], t["currency"])
        for t in report["data"]
    ]
    assert amounts == expected
    assert watched.problems == []


async def test_a_receipt_downloads_as_a_jpeg(context: BrowserContext, live: LiveServer) -> None:
    watched = await _sign_in(context, live)
    first = (await _api(live, "/transaction/report", per_page=1))["data"][0]
    await watched.page.goto(f"{live.base}/app/transactions/{first['uuid']}")
    async with watched.page.expect_download() as info:
        await watched.page.get_by_role("link", name="the service's record of this payment").click()
    download = await info.value
    saved = await download.path()
    assert saved.read_bytes()[:3] == b"\xff\xd8\xff"
    assert download.suggested_filename.startswith("receipt-")
    assert watched.problems == []


async def test_a_new_3ds_code_appears_without_reloading(
    context: BrowserContext, live: LiveServer
) -> None:
    watched = await _sign_in(context, live)
    card = (await _api(live, "/card", per_page=1))["data"]["cards"][0]
    response = await _call(
        live,
        "POST",
        "/sandbox/3ds",
        json={
            "card_uuid": card["uuid"],
            "merchant_name": "Browser Test Shop",
            "amount": 12,
            "currency": card["currency"],
        },
    )
    assert response.status_code == 201, response.text
    code = response.json()["data"]["code"]
    region = watched.page.locator("#three-ds")
    await region.get_by_text(code).wait_for(timeout=20_000)  # htmx polls every 5 s
    assert "Browser Test Shop" in await region.inner_text()
    assert watched.problems == []


async def test_signing_out_revokes_the_session(context: BrowserContext, live: LiveServer) -> None:
    watched = await _sign_in(context, live)
    [session] = [c for c in await context.cookies() if c["name"] == "cs_session"]
    assert session["httpOnly"] and session["sameSite"] == "Strict" and session["path"] == "/app"
    await watched.page.get_by_role("button", name="Sign out").click()
    await watched.page.wait_for_url("**/app/login")
    revoked = await _call(live, "GET", "/accounts", token=session["value"])
    assert revoked.status_code == 401
    await watched.page.goto(f"{live.base}/app/cards")
    assert watched.page.url.endswith("/app/login")


async def test_a_one_time_link_signs_in_once(context: BrowserContext, live: LiveServer) -> None:
    link = live.cli("dashboard", "link", "--email", "demo@cardservice.example")
    page = await context.new_page()
    await page.goto(f"{live.base}{link}")
    await page.get_by_role("button", name="Continue").click()
    await page.wait_for_url(f"{live.base}/app")
    other = await (await context.browser.new_context()).new_page()  # type: ignore[union-attr]
    await other.goto(f"{live.base}{link}")
    await other.get_by_role("button", name="Continue").click()
    assert "already used or has expired" in await other.inner_text("main")


async def test_docs_list_every_operation_with_no_request_leaving_the_machine(
    browser: Browser, live: LiveServer
) -> None:
    context = await browser.new_context()
    outside: list[str] = []

    async def only_local(route):  # type: ignore[no-untyped-def]
        if route.request.url.startswith(live.base):
            await route.continue_()
        else:
            outside.append(route.request.url)
            await route.abort()

    await context.route("**/*", only_local)
    page = await context.new_page()
    watched = Watched(page)
    await page.goto(f"{live.base}/docs")
    operations = [
        operation["operationId"]
        for item in (await _api(live, "/openapi.json"))["paths"].values()
        for operation in item.values()
    ]
    blocks = page.locator(".opblock-summary")
    await blocks.nth(len(operations) - 1).wait_for()
    assert await blocks.count() == len(operations)
    assert outside == [] and watched.problems == []
    await context.close()
