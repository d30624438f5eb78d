"""The main jobs of a cardholder in few clicks (issue 58), at 1280 and 375 px: each test counts
the clicks it takes (a `Clicks` page that counts every click) and names its bound.

* see a card's details: 2 clicks from the cards list (the card, then "Show details");
* freeze a card: 2 clicks from the cards list (the card, then "Freeze"), the message focused;
* freeze a member's card (the team's owner): 2 clicks from the cards list, on the owner's page
  of the member's card; the demo's full Team page on the way;
* add a missing receipt: 3 clicks from the transactions list ("Missing — add", choose the
  file, "Add receipt"), the receipt policy's banner on the purchase before, gone after;
* see this month's top merchants: 0 clicks on the overview, 1 to the payments behind one;
* ask for more budget (a team member): 2 clicks from the overview.

Fast by design: one Chromium for the module, both widths as two contexts of it, signed in
once; the pages met on the way are checked with axe-core (no serious violation) and kept as
screenshots (README). Every test puts the demo's data back as it found it."""

from __future__ import annotations

import re
import uuid
from collections.abc import AsyncIterator
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest
import pytest_asyncio
from playwright.async_api import Browser, Locator, Page, async_playwright, expect

from tests.browser.conftest import CHROMIUM
from tests.browser.test_team import _receipt_png
from tests.browser.watch import Watched, api, call, screenshot
from tests.factories import ISSUED_SECRETS
from tests.live_server import LiveServer

pytestmark = pytest.mark.asyncio(loop_scope="module")
WIDTHS = (1280, 375)


class Clicks:
    """A watched page whose clicks are counted: the job's cost as a person pays it."""

    def __init__(self, watched: Watched) -> None:
        self.watched = watched
        self.page: Page = watched.page
        self.count = 0

    async def click(self, target: Locator) -> None:
        self.count += 1
        await target.click()


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def chromium() -> AsyncIterator[Browser]:
    async with async_playwright() as playwright:
        launched = await playwright.chromium.launch(executable_path=CHROMIUM)
        yield launched
        await launched.close()


async def _signed_in(browser: Browser, live: LiveServer, token: str, width: int) -> Watched:
    """A new context of `browser` at `width`, signed in with `token` (pasted, as a person)."""
    context = await browser.new_context(
        viewport={"width": width, "height": 900}, bypass_csp=True
    )  # axe is injected as a script of the test's own: the pages' CSP would refuse it
    await context.grant_permissions(["clipboard-read", "clipboard-write"], origin=live.base)
    watched = Watched(await context.new_page())
    await watched.page.goto(f"{live.base}/app/login")
    await watched.page.get_by_label("Bearer token").fill(token)
    await watched.page.get_by_role("button", name="Sign in").click()
    await watched.page.wait_for_url(f"{live.base}/app")
    return watched


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def owner(chromium: Browser, live: LiveServer) -> AsyncIterator[dict[int, Watched]]:
    """The demo's owner signed in at both widths (one context each)."""
    pages = {width: await _signed_in(chromium, live, live.demo_token, width) for width in WIDTHS}
    yield pages
    for watched in pages.values():
        await watched.page.context.close()


async def _person(live: LiveServer, key: str, team: str, role: str) -> tuple[str, str]:
    """A user of the team (uuid) and their bearer token, made by the operator API (one CLI
    call for the key instead of two per person: each costs a process start)."""
    body = {"email": f"{role}-{uuid.uuid4().hex[:8]}@example.com", "name": f"Max {role}"}
    made = await call(
        live, "POST", "/operator/users", key, json={**body, "team": team, "role": role}
    )
    assert made.status_code == 201, made.text
    user = made.json()["data"]["uuid"]
    issued = await call(live, "POST", f"/operator/users/{user}/tokens", key, json={})
    assert issued.status_code == 201, issued.text
    token: str = issued.json()["data"]["token"]
    ISSUED_SECRETS.append(token)
    return user, token


async def _purchase(live: LiveServer, key: str, member: str, token: str) -> str:
    """The member's funded USD account, a card on it, and a captured 42.50 purchase."""
    body = {"user_uuid": member, "name": "Travel", "currency": "USD"}
    opened = await call(live, "POST", "/operator/accounts", key, json=body)
    assert opened.status_code == 201, opened.text
    account = opened.json()["data"]["uuid"]
    deposit = {"account_uuid": account, "amount": 500}
    assert (await call(live, "POST", "/sandbox/deposits", token, json=deposit)).status_code == 201
    bins = (await call(live, "GET", "/dictionary/bins", token)).json()["data"]
    usd = next(b["uuid"] for b in bins if b["currency"] == "USD" and b["status"] == "available")
    buy = {"account_uuid": account, "bin_uuid": usd, "start_balance": 200}
    card = (await call(live, "POST", "/card/buy", token, json=buy)).json()["data"]["cards"][0]
    payment = {"card_uuid": card["uuid"], "amount": 42.5, "currency": "USD"}
    paid = await call(
        live,
        "POST",
        "/sandbox/authorizations",
        token,
        json={**payment, "merchant_name": "Hotel Lux"},
    )
    purchase: str = paid.json()["data"]["uuid"]
    settled = await call(live, "POST", f"/sandbox/transactions/{purchase}/settle", token)
    assert settled.status_code == 201, settled.text
    return purchase


async def _active_card(live: LiveServer) -> dict[str, Any]:
    cards = (await api(live, "/card", per_page=20, **{"filters[status]": "active"}))["data"]
    plain = [c for c in cards["cards"] if c["spending_controls"] is None]
    return dict(plain[-1])


async def _focused_message(page: Page) -> str:
    """The message the submit answered: focused, in view, its text."""
    notice = page.locator("#notice")
    await expect(notice).to_be_focused()
    await expect(notice).to_be_in_viewport()
    return await notice.inner_text()


async def test_see_a_card_details_in_2_clicks_from_the_cards_list(
    owner: dict[int, Watched], live: LiveServer, shots: Path
) -> None:
    card = await _active_card(live)
    for width, watched in owner.items():
        job = Clicks(watched)
        await job.page.goto(f"{live.base}/app/cards")
        row = job.page.locator(f'tr[data-card="{card["uuid"]}"]')
        await job.click(row.get_by_role("link", name=card["mask"]))  # 1: the card
        await job.page.wait_for_url(f"**/app/cards/{card['uuid']}")
        head = job.page.get_by_test_id("card-head")
        assert card["mask"] in await head.inner_text()
        await screenshot(job.page, shots, f"card-{width}.png")
        await job.click(head.get_by_role("button", name="Show details"))  # 2: its details
        pan = job.page.get_by_test_id("pan")
        await pan.wait_for()
        number = (await pan.inner_text()).replace(" ", "")
        ISSUED_SECRETS.append(number)
        assert re.fullmatch(r"\d{16}", number) and number.endswith(card["last4"])
        assert job.count <= 2, job.count
    assert [w.problems for w in owner.values()] == [[], []]


async def test_freeze_a_card_in_2_clicks_with_the_message_in_focus(
    owner: dict[int, Watched], live: LiveServer
) -> None:
    card = await _active_card(live)
    for watched in owner.values():
        job = Clicks(watched)
        await job.page.goto(f"{live.base}/app/cards")
        await job.click(job.page.get_by_role("link", name=card["mask"]))  # 1: the card
        head = job.page.get_by_test_id("card-head")
        async with job.page.expect_navigation():
            await job.click(head.get_by_role("button", name=f"Freeze card {card['mask']}"))  # 2
        assert job.count <= 2, job.count
        assert "frozen" in await _focused_message(job.page)
        assert await head.get_by_test_id("card-status").inner_text() == "frozen"
        assert (await api(live, f"/card/{card['uuid']}"))["data"]["status"] == "frozen"
        async with job.page.expect_navigation():
            await head.get_by_role("button", name=f"Unfreeze card {card['mask']}").click()
        assert "active again" in await _focused_message(job.page)
        assert (await api(live, f"/card/{card['uuid']}"))["data"]["status"] == "active"
    assert [w.problems for w in owner.values()] == [[], []]


async def test_the_owner_freezes_a_members_card_in_2_clicks_from_the_cards_list(
    owner: dict[int, Watched], live: LiveServer, shots: Path
) -> None:
    """The demo's team at work on the owner's Team page (members, budgets — one over —,
    requests waiting, missing receipts); then a member's card from the cards list: its page
    names the holder, has Freeze and no "Show details"; the owner's freeze is the API's."""
    accounts = (await api(live, "/accounts", per_page=100))["data"]["related_team_accounts"]
    card = next(a["card_info"] for a in accounts if a["owner"]["name"] == "Sam Member")
    for width, watched in owner.items():
        await watched.page.goto(f"{live.base}/app/team")
        budgets = await watched.page.get_by_test_id("budgets").inner_text()
        assert "Alex Member" in budgets and "Over by 57.70 EUR" in budgets, budgets
        requests = await watched.page.get_by_test_id("requests").inner_text()
        assert "Conference travel" in requests and "Client dinner in Lyon" in requests
        assert "Sam Member" in await watched.page.get_by_test_id("missing").inner_text()
        await screenshot(watched.page, shots, f"team-{width}.png")
        job = Clicks(watched)
        await job.page.goto(f"{live.base}/app/cards")
        row = job.page.locator(f'tr[data-team-card="{card["uuid"]}"]')
        await job.click(row.get_by_role("link", name=card["mask"]))  # 1: the member's card
        head = job.page.get_by_test_id("card-head")
        assert await head.get_by_test_id("holder").inner_text() == "Sam Member"
        assert await head.get_by_role("button", name="Show details").count() == 0
        await screenshot(job.page, shots, f"card-owner-{width}.png")
        async with job.page.expect_navigation():
            await job.click(head.get_by_role("button", name=f"Freeze card {card['mask']}"))  # 2
        assert job.count <= 2, job.count
        assert "frozen" in await _focused_message(job.page)
        found = (await api(live, f"/card/{card['uuid']}"))["data"]
        assert (found["status"], found["frozen_reason"]) == ("frozen", "owner")
        async with job.page.expect_navigation():
            await head.get_by_role("button", name=f"Unfreeze card {card['mask']}").click()
        assert "active again" in await _focused_message(job.page)
    assert [w.problems for w in owner.values()] == [[], []]


async def test_the_dispute_form_offers_an_evidence_file_accessibly(
    owner: dict[int, Watched], live: LiveServer, shots: Path
) -> None:
    """The dispute form of a captured purchase (its evidence uploaded with it: the upload
    itself is tests/dashboard/test_disputes.py's), drawn at both widths without a serious
    axe violation."""
    filters = {"filters[type]": "card_purchase", "filters[status]": "completed"}
    disputed = {d["transaction_uuid"] for d in (await api(live, "/disputes"))["data"]}
    purchases = (await api(live, "/transaction/report", per_page=10, **filters))["data"]
    purchase = next(p for p in purchases if p["uuid"] not in disputed)
    for width, watched in owner.items():
        await watched.page.goto(f"{live.base}/app/disputes/new?transaction={purchase['uuid']}")
        await expect(watched.page.get_by_label("Evidence (optional)")).to_be_visible()
        await screenshot(watched.page, shots, f"dispute-form-{width}.png")
    assert [w.problems for w in owner.values()] == [[], []]


async def test_see_this_months_top_merchants_in_1_click_from_the_overview(
    owner: dict[int, Watched], live: LiveServer, shots: Path
) -> None:
    """0 clicks to see them (the overview's first screenful at 1280), 1 to the payments
    behind the top one: the transactions list filtered to that merchant and month."""
    spend = (await api(live, "/user/spend", group_by="merchant", limit=8))["data"]
    assert spend, "the demo spends every month"
    top = spend[0]
    for width, watched in owner.items():
        job = Clicks(watched)
        await job.page.goto(f"{live.base}/app")
        merchants = job.page.get_by_test_id("spend-by-merchant")
        first = merchants.get_by_role("link").first
        shown = await first.inner_text()
        assert top["name"] in shown
        amount = f"{Decimal(str(top['amount'])):,.2f} {top['currency']}"
        assert amount in shown, (amount, shown)
        if width == 1280:
            await expect(merchants).to_be_in_viewport()
        await screenshot(job.page, shots, f"overview-{width}.png")
        section = job.page.locator("section", has=job.page.locator("#where-heading"))
        (shots / f"spend-{width}.png").write_bytes(await section.screenshot())
        await job.click(first)  # 1: the payments behind it
        await job.page.wait_for_url("**/app/transactions?**")
        assert job.count <= 1, job.count
        names = await job.page.locator("tbody td.what > a").all_inner_texts()
        assert names and all(top["name"].lower() in n.lower() for n in names), names
        await expect(job.page.get_by_test_id(f"totals-{top['currency']}")).to_be_visible()
    assert [w.problems for w in owner.values()] == [[], []]


async def test_add_a_missing_receipt_in_3_clicks_from_the_transactions_list(
    chromium: Browser, live: LiveServer, shots: Path, tmp_path: Path
) -> None:
    """A member of a team whose receipt policy chases their purchase: the list marks it
    "Missing — add", its page carries the policy's banner; three clicks link the receipt.
    The member's menu has no Top up or Webhooks, their overview shows their budget (over),
    and asking for more budget takes 2 clicks from it ("Ask for more", then the button)."""
    team = f"Receipts {uuid.uuid4().hex[:6]}"
    key = live.cli("operator-keys", "create", "--name", "browser", "--scopes", "users,funding")
    _owner, owner_token = await _person(live, key, team, "owner")
    member, member_token = await _person(live, key, team, "member")
    policy = {"min_amount": 10, "currency": "USD", "remind_after_days": 0, "freeze_after_days": 3}
    answer = await call(live, "PUT", "/team/receipt-policy", owner_token, json=policy)
    assert answer.status_code == 200, answer.text
    purchase = await _purchase(live, key, member, member_token)
    budget = {"amount": 30, "currency": "USD"}
    put = await call(live, "PUT", f"/team/members/{member}/budget", owner_token, json=budget)
    assert put.status_code == 200, put.text
    picture = tmp_path / "receipt.png"
    picture.write_bytes(_receipt_png())
    for width in WIDTHS:
        watched = await _signed_in(chromium, live, member_token, width)
        job = Clicks(watched)
        menu = await job.page.get_by_role("navigation", name="Main").inner_text()
        assert "Top up" not in menu and "Webhooks" not in menu and "Cards" in menu
        own = await job.page.get_by_test_id("own-budget").inner_text()
        assert "Over by 12.50 USD" in own and "42.50 USD spent of 30.00 USD" in own, own
        await job.page.goto(f"{live.base}/app/transactions")
        row = job.page.locator(f'tr[data-transaction="{purchase}"]')
        await job.click(row.get_by_test_id("receipt-missing"))  # 1: to the purchase
        await job.page.wait_for_url(f"**/app/transactions/{purchase}#receipt-heading")
        banner = job.page.get_by_test_id("receipt-banner")
        assert "Your team needs this receipt" in await banner.inner_text()
        await screenshot(job.page, shots, f"transaction-missing-receipt-{width}.png")
        async with job.page.expect_file_chooser() as chooser:
            await job.click(job.page.get_by_label("Receipt", exact=True))  # 2: the file
        await (await chooser.value).set_files(picture)
        async with job.page.expect_navigation():
            await job.click(job.page.get_by_role("button", name="Add receipt"))  # 3
        assert job.count <= 3, job.count
        assert "The receipt is linked" in await _focused_message(job.page)
        assert await job.page.get_by_test_id("receipt-banner").count() == 0
        linked = (await call(live, "GET", f"/transaction/{purchase}", member_token)).json()
        assert linked["data"]["receipt_attachment_uuid"] is not None
        await job.page.goto(f"{live.base}/app/transactions")
        assert await row.get_by_test_id("receipt-attached").count() == 1
        await job.page.goto(f"{live.base}/app")
        asking = Clicks(watched)
        await asking.click(job.page.get_by_role("link", name="Ask for more"))  # 1: the form
        await job.page.get_by_label("Amount in USD").fill("1,000.50")
        async with job.page.expect_navigation():
            await asking.click(job.page.get_by_role("button", name="Ask for more budget"))  # 2
        assert asking.count <= 2, asking.count
        assert "sent to the team's owner" in await _focused_message(job.page)
        assert watched.problems == []
        unlinked = await call(live, "DELETE", f"/transaction/{purchase}/receipt", member_token)
        assert unlinked.status_code == 200, unlinked.text  # missing again for the next width
        await watched.page.context.close()
