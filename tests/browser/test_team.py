"""A team in a real browser (docs/teams.md#teams-budgets-requests-receipts): the owner sees the
member's budget as a bar and a pending card request, approves it from the Team page; the member sees
their budget and requests, and adds a receipt to a purchase from its page (uploaded and linked in
one step). The team is a new one made through the CLI and the API, so the demo's data is untouched.
Both Team views are screenshotted at 1280 and 375 px."""

from __future__ import annotations

import uuid
from io import BytesIO
from pathlib import Path

from PIL import Image
from playwright.async_api import BrowserContext

from tests.browser.watch import Watched, call, screenshot
from tests.live_server import LiveServer

WIDTHS = (1280, 375)


def _receipt_png() -> bytes:
    image = Image.new("RGB", (80, 120), (250, 250, 245))
    for row in range(10, 110, 10):
        for column in range(8, 70):
            image.putpixel((column, row), (80, 80, 80))
    buffer = BytesIO()
    image.save(buffer, format="PNG")
    return buffer.getvalue()


async def _token_sign_in(context: BrowserContext, live: LiveServer, token: str) -> Watched:
    watched = Watched(await context.new_page())
    await watched.page.goto(f"{live.base}/app/login")
    await watched.page.get_by_label("Bearer token").fill(token)
    await watched.page.get_by_role("button", name="Sign in").click()
    await watched.page.wait_for_url(f"{live.base}/app")
    return watched


def _person(live: LiveServer, team: str, role: str, name: str) -> tuple[str, str]:
    """A user of the team (uuid, email) and their token, through the CLI."""
    email = f"{role}-{uuid.uuid4().hex[:8]}@example.com"
    user = live.cli(
        "users", "create", "--email", email, "--name", name, "--team", team, "--role", role
    )
    return user, live.cli("tokens", "issue", "--email", email)


async def _member_purchase(live: LiveServer, member: str, token: str) -> str:
    """The member's funded account, a card, and a captured purchase on it."""
    email = (await call(live, "GET", "/user/summary", token)).json()["data"]["user"]["email"]
    account = live.cli(
        "accounts", "create", "--email", email, "--name", "Travel", "--currency", "USD"
    )
    deposit = {"account_uuid": account, "amount": 500}
    assert (await call(live, "POST", "/sandbox/deposits", token, json=deposit)).status_code == 201
    bins = (await call(live, "GET", "/dictionary/bins", token)).json()["data"]
    bin_uuid = next(
        b["uuid"] for b in bins if b["currency"] == "USD" and b["status"] == "available"
    )
    buy = {"account_uuid": account, "bin_uuid": bin_uuid, "start_balance": 200}
    card = (await call(live, "POST", "/card/buy", token, json=buy)).json()["data"]["cards"][0]
    payment = {
        "card_uuid": card["uuid"],
        "amount": 42.5,
        "currency": "USD",
        "merchant_name": "Hotel Lux",
    }
    purchase = (await call(live, "POST", "/sandbox/authorizations", token, json=payment)).json()
    settled = await call(
        live, "POST", f"/sandbox/transactions/{purchase['data']['uuid']}/settle", token
    )
    assert settled.status_code == 201, settled.text
    ask = {"kind": "card", "account_uuid": account, "bin_uuid": bin_uuid, "start_balance": 20,
           "description": "Conference"}  # fmt: skip
    assert (await call(live, "POST", "/team/requests", token, json=ask)).status_code == 201
    assert member
    purchase_uuid: str = purchase["data"]["uuid"]
    return purchase_uuid


async def test_the_owner_approves_and_the_member_adds_a_receipt(
    context: BrowserContext, live: LiveServer, shots: Path, tmp_path: Path
) -> None:
    team = f"Browser team {uuid.uuid4().hex[:6]}"
    _owner, owner_token = _person(live, team, "owner", "Olivia Owner")
    member, member_token = _person(live, team, "member", "Max Member")
    policy = {"min_amount": 10, "currency": "USD", "remind_after_days": 0, "freeze_after_days": 3}
    answer = await call(live, "PUT", "/team/receipt-policy", owner_token, json=policy)
    assert answer.status_code == 200, answer.text
    purchase = await _member_purchase(live, member, member_token)
    budget = {"amount": 300, "currency": "USD"}
    put = await call(live, "PUT", f"/team/members/{member}/budget", owner_token, json=budget)
    assert put.status_code == 200, put.text

    owner = await _token_sign_in(context, live, owner_token)
    page = owner.page
    await page.get_by_role("link", name="Team").click()
    await page.wait_for_url("**/app/team")
    bar = page.locator(f'[data-member="{member}"]')
    assert "42.50 USD spent of 300.00 USD" in " ".join((await bar.inner_text()).split())
    assert await bar.locator("meter").get_attribute("value") == "14"
    assert "Conference" in await page.get_by_test_id("requests").inner_text()
    assert "Hotel Lux" in await page.get_by_test_id("missing").inner_text()
    for width in WIDTHS:
        await page.set_viewport_size({"width": width, "height": 900})
        await screenshot(page, shots, f"team-small-{width}.png")  # README: the demo's
    await page.set_viewport_size({"width": 1280, "height": 900})
    async with page.expect_navigation():
        await page.get_by_role("button", name="Approve").click()
    assert "approved and carried out" in await page.get_by_role("status").inner_text()
    cards = (await call(live, "GET", "/card", member_token)).json()["data"]["cards"]
    assert sorted(c["description"] or "" for c in cards) == ["", "Conference"]
    assert owner.problems == []

    watched = await _token_sign_in(context, live, member_token)
    page = watched.page
    await page.goto(f"{live.base}/app/team")
    assert "Your budget" in await page.content()
    assert "approved" in await page.get_by_test_id("requests").inner_text()
    for width in WIDTHS:
        await page.set_viewport_size({"width": width, "height": 900})
        await screenshot(page, shots, f"team-member-{width}.png")
    await page.set_viewport_size({"width": 1280, "height": 900})
    await page.goto(f"{live.base}/app/transactions/{purchase}")
    picture = tmp_path / "receipt.png"
    picture.write_bytes(_receipt_png())
    await page.get_by_label("Receipt", exact=True).set_input_files(picture)
    async with page.expect_navigation():
        await page.get_by_role("button", name="Add receipt").click()
    assert "The receipt is linked" in await page.get_by_role("status").inner_text()
    assert await page.get_by_test_id("receipt-linked").count() == 1
    linked = (await call(live, "GET", f"/transaction/{purchase}", member_token)).json()["data"]
    assert linked["receipt_attachment_uuid"] is not None
    assert watched.problems == []
